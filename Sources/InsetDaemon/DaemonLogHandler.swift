#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc
import Logging

/// Writes every byte, retrying after signals and partial writes; returns 0, or
/// the errno that stopped it. (Foundation's `FileHandle.write` traps when a
/// signal interrupts it: a daemon must not.)
@discardableResult
func writeAll(_ fd: Int32, _ bytes: some Collection<UInt8>) -> Int32 {
    let bytes = Array(bytes)
    var offset = 0
    while offset < bytes.count {
        let written = bytes[offset...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        if written > 0 {
            offset += written
        } else if written < 0 && errno == EINTR {
            continue
        } else {
            return written < 0 ? errno : EIO
        }
    }
    return 0
}

/// Writes a message to standard error whole, for the command line's own errors.
public func writeToStandardError(_ text: String) {
    writeAll(2, Array(text.utf8))
}

/// Writes log lines to standard error. Under systemd (`JOURNAL_STREAM` set) each
/// line starts with its syslog priority (`<6>` for info), which journald turns
/// into the entry's priority; otherwise it carries a timestamp and the level.
public struct DaemonLogHandler: LogHandler {
    public var metadata: Logger.Metadata = [:]
    public var logLevel: Logger.Level
    private let label: String
    private let journal: Bool

    public init(label: String, level: Logger.Level, environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.label = label
        logLevel = level
        journal = environment["JOURNAL_STREAM"] != nil
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        writeAll(2, Array(render(event).utf8))
    }

    func render(_ event: LogEvent) -> String {
        let all = metadata.merging(event.metadata ?? [:]) { $1 }
        let fields = all.isEmpty ? "" : " " + all.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        if journal { return "<\(Self.priority(event.level))>\(event.message)\(fields)\n" }
        let time = Date().formatted(.iso8601)
        return "\(time) \(event.level) \(label): \(event.message)\(fields)\n"
    }

    /// syslog priorities as `sd-daemon.h` defines them.
    static func priority(_ level: Logger.Level) -> Int {
        switch level {
        case .trace, .debug: 7
        case .info: 6
        case .notice: 5
        case .warning: 4
        case .error: 3
        case .critical: 2
        }
    }
}
