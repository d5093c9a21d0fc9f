import InsetCore
import InsetServer
import InsetProtocol

/// What a reload changed, by configuration key: the keys whose new values apply
/// at once (keyboard and filter settings go to the running pipeline) and those
/// that take effect only when insetd restarts (the screen it starts with, the
/// log level, input, server, WebSocket and trace settings, which live in objects built at
/// start). `insetctl reload` prints both; the log names them.
struct ReloadReport: Sendable, Equatable {
    var changed: [String] = []
    var restart: [String] = []

    static func between(_ old: DaemonConfiguration, _ new: DaemonConfiguration) -> ReloadReport {
        var report = ReloadReport()
        for key in ConfigurationKey.allCases where key.differs(old, new) {
            if key.appliesOnReload { report.changed.append(key.rawValue) } else { report.restart.append(key.rawValue) }
        }
        return report
    }
}

/// A reload's result as the core receives it: the configuration or why the file
/// is unusable, the file read (nil: built-in defaults), and the client that
/// asked (nil for SIGHUP).
struct ReloadOutcome: Sendable {
    var result: Result<DaemonConfiguration, ConfigurationError>
    var path: String?
    var requester: (client: ClientID, id: RequestID?)?
}

/// A configuration error's problems on one line, for a log entry.
func oneLineProblems(_ error: ConfigurationError) -> String {
    error.description.split(separator: "\n").joined(separator: "; ")
}
