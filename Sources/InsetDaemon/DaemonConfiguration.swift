import InsetCore
import InsetInput
import InsetServer
import Logging

/// Everything insetd can be configured with. `defaults` is what it runs with
/// when there is no file; `config/insetd.yaml` documents the same values.
public struct DaemonConfiguration: Sendable, Equatable {
    public var screen: Size
    public var logLevel: Logger.Level
    public var pipeline: PipelineConfiguration
    public var ueventSource: UeventSource
    public var classifier: ClassifierConfiguration
    public var controlUsers: [String]
    public var controlGroups: [String]
    public var outboundQueue: Int
    public var trace: TraceSettings
    /// The WebSocket endpoint for browser pages (off by default).
    public var webSocket: WebSocketSettings = .defaults
    /// Connection caps and the hello deadline (`server.max-connections`, ...).
    public var connectionLimits = ConnectionLimits()

    public static let defaults = DaemonConfiguration(
        screen: Size(width: 1280, height: 800), logLevel: .info, pipeline: PipelineConfiguration(),
        ueventSource: .auto,
        classifier: ClassifierConfiguration(
            hotkeys: [try! Hotkey("LEFTMETA+K", action: .toggle), try! Hotkey("ROTATE_DISPLAY", action: .rotate)]),
        controlUsers: [], controlGroups: ["insetd"], outboundQueue: 256, trace: .defaults)

    /// Who may send control commands, resolved against this machine's users.
    public var authorization: Authorization {
        Authorization.resolving(users: controlUsers, groups: controlGroups)
    }
}

/// A configuration that cannot be used: every problem found, each naming the
/// key, the value and why, so one run of `--check-config` shows them all.
public struct ConfigurationError: Error, CustomStringConvertible, Sendable {
    public struct Problem: Sendable, Hashable {
        public var key: String
        public var value: String
        public var why: String
        /// Where in the file, 1-based, when the problem has a place.
        public var line: Int? = nil
        public var column: Int? = nil
        /// False for problems with a key rather than a value (unknown, given twice).
        public var quotesValue = true
    }

    public var source: String
    public var problems: [Problem]

    /// The `source` of problems in the options rather than in a file.
    public static let commandLine = "command line"

    /// One line per problem, `FILE:LINE:COLUMN: key: 'value' why` (the place
    /// as compilers give it, so editors can jump there).
    public var description: String {
        problems.map { problem in
            let place = problem.line.map { line in ":\(line)" + (problem.column.map { ":\($0)" } ?? "") } ?? ""
            let value = problem.quotesValue ? "'\(problem.value)' " : ""
            return "\(source)\(place): \(problem.key): \(value)\(problem.why)"
        }.joined(separator: "\n")
    }
}
