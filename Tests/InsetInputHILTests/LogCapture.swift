import Logging
import Synchronization

/// Records every log line (message and metadata, rendered as text) at every
/// level, so tests can assert what was, and was not, logged.
final class LogCapture: Sendable {
    private final class Storage: Sendable {
        let lines = Mutex<[String]>([])
    }

    private let storage = Storage()

    var lines: [String] { storage.lines.withLock { $0 } }

    /// A logger at trace level whose every line lands here.
    func logger(_ label: String = "insetd.input") -> Logger {
        let storage = self.storage
        var logger = Logger(label: label) { label in
            Handler(label: label) { line in storage.lines.withLock { $0.append(line) } }
        }
        logger.logLevel = .trace
        return logger
    }

    private struct Handler: LogHandler {
        let label: String
        let sink: @Sendable (String) -> Void
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace

        init(label: String, sink: @escaping @Sendable (String) -> Void) {
            self.label = label
            self.sink = sink
        }

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            let all = metadata.merging(event.metadata ?? [:]) { $1 }
            let rendered = all.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
            sink("\(event.level) \(event.message) \(rendered)")
        }
    }
}
