#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc
import InsetCore
import InsetTrace
import Logging

/// Writes the trace (every input the core handles, with its instant) and, when
/// asked, the outputs beside it. Used from the core's task only.
///
/// Each record is written with one `write(2)` before the core acts on it, so a
/// daemon killed at any moment leaves every handled input on disk, with at
/// most the last line cut short (which replay skips). Writing never stops the
/// daemon: a failed write is logged once and tracing ends.
final class TraceRecorder {
    private let settings: TraceSettings
    private let logger: Logger
    private var header: TraceHeader
    private var trace: Int32 = -1
    private var output: Int32 = -1
    private var traceBytes = 0

    init(settings: TraceSettings, header: TraceHeader, logger: Logger) throws(TraceOpenError) {
        precondition(settings.path != nil, "a recorder needs a trace path")
        self.settings = settings
        self.header = header
        self.logger = logger
        try open()
        logger.info(
            "tracing the core's inputs",
            metadata: ["trace": "\(settings.path!)", "output": "\(settings.outputPath ?? "none")"])
    }

    deinit {
        closeFiles()
    }

    var isRecording: Bool { trace >= 0 }

    func record(_ record: TraceRecord) {
        guard isRecording else { return }
        let line = record.line()
        if traceBytes + line.count > settings.maxBytes { full() }
        guard isRecording else { return }
        write(line, to: trace)
        traceBytes += line.count
    }

    func record(outputs: [TimedOutput]) {
        guard isRecording, output >= 0 else { return }
        for timed in outputs { write(TraceOutput.line(timed), to: output) }
    }

    // MARK: - Files

    private func open() throws(TraceOpenError) {
        trace = try Self.create(settings.path!)
        if let outputPath = settings.outputPath {
            do { output = try Self.create(outputPath) } catch {
                closeFiles()
                throw error
            }
        }
        traceBytes = 0
        record(.header(header))
    }

    private static func create(_ path: String) throws(TraceOpenError) -> Int32 {
        let fd = Glibc.open(path, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0o640)
        guard fd >= 0 else { throw TraceOpenError(path: path, errno: errno) }
        return fd
    }

    private func write(_ line: Data, to fd: Int32) {
        let error = writeAll(fd, line)
        guard error != 0 else { return }
        logger.error("trace write failed; tracing stops", metadata: ["error": "\(String(cString: strerror(error)))"])
        closeFiles()
    }

    private func closeFiles() {
        if trace >= 0 { close(trace) }
        if output >= 0 { close(output) }
        trace = -1
        output = -1
    }

    private func full() {
        switch settings.whenFull {
        case .stop:
            let reason = "size limit of \(settings.maxBytes) bytes reached"
            write(TraceRecord.end(reason: reason).line(), to: trace)
            closeFiles()
            logger.notice("trace stopped", metadata: ["reason": "\(reason)"])
        case .rotate:
            closeFiles()
            for path in [settings.path, settings.outputPath].compactMap({ $0 }) { Self.shift(path, keep: settings.keep) }
            header.segment += 1
            do { try open() } catch {
                logger.error("trace rotation failed; tracing stops", metadata: ["error": "\(error)"])
                return
            }
            logger.info("trace rotated", metadata: ["segment": "\(header.segment)"])
        }
    }

    /// FILE.(keep-1) → FILE.keep, …, FILE → FILE.1; the oldest beyond `keep` goes.
    private static func shift(_ path: String, keep: Int) {
        unlink("\(path).\(keep)")
        for index in stride(from: keep - 1, through: 0, by: -1) {
            rename(index == 0 ? path : "\(path).\(index)", "\(path).\(index + 1)")
        }
        if keep == 0 { unlink("\(path).1") }
    }
}

/// A trace file that could not be opened at start-up.
package struct TraceOpenError: Error, CustomStringConvertible {
    package var path: String
    package var errno: Int32
    package var description: String { "cannot write the trace file \(path): \(String(cString: strerror(errno)))" }
}
