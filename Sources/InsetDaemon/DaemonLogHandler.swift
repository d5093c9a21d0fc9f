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
package func writeToStandardError(_ text: String) {
    writeAll(2, Array(text.utf8))
}

/// Writes log lines to standard error. When standard error is journald's stream
/// each line starts with its syslog priority (`<6>` for info), which journald
/// turns into the entry's priority, then the subsystem (`insetd.input: ...`);
/// otherwise it carries a timestamp, the level and the subsystem.
package struct DaemonLogHandler: LogHandler {
    package var metadata: Logger.Metadata = [:]
    package var logLevel: Logger.Level
    private let label: String
    private let journal: Bool

    package init(label: String, level: Logger.Level, environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.label = label
        logLevel = level
        journal = Self.standardErrorIsJournal(environment: environment)
    }

    /// Whether standard error is the journal stream systemd connected: as
    /// systemd.exec(5) says, `JOURNAL_STREAM` (`DEVICE:INODE`) must match stderr's
    /// own device and inode, since a child whose stderr was redirected (a pipe,
    /// a file) inherits the variable without the stream.
    static func standardErrorIsJournal(environment: [String: String], descriptor: Int32 = 2) -> Bool {
        guard let value = environment["JOURNAL_STREAM"] else { return false }
        let parts = value.split(separator: ":")
        guard parts.count == 2, let device = UInt64(parts[0]), let inode = UInt64(parts[1]) else { return false }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return false }
        return UInt64(status.st_dev) == device && UInt64(status.st_ino) == inode
    }

    package subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    package func log(event: LogEvent) {
        writeAll(2, Array(render(event).utf8))
    }

    func render(_ event: LogEvent) -> String {
        let all = metadata.merging(event.metadata ?? [:]) { $1 }
        let fields = all.isEmpty ? "" : " " + all.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        if journal { return "<\(Self.priority(event.level))>\(label): \(event.message)\(fields)\n" }
        return "\(Self.timestamp(secondsSince1970: time(nil))) \(event.level) \(label): \(event.message)\(fields)\n"
    }

    /// The line's time as ISO 8601 in UTC to the second (`2026-11-27T05:23:23Z`),
    /// from libc's calendar: Foundation's format styles would bring its
    /// calendar code into every daemon that logs to a terminal or a file.
    static func timestamp(secondsSince1970 seconds: Int) -> String {
        var time = time_t(seconds)
        var parts = tm()
        gmtime_r(&time, &parts)
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))"
            + "T\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec))Z"
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
