import InsetCore
import InsetInput
import InsetServer
import Logging

/// Everything insetd can be configured with. `defaults` is what it runs with
/// when there is no file; `config/insetd.yaml` documents the same values.
package struct DaemonConfiguration: Sendable, Equatable {
    package var screen: Size
    package var logLevel: Logger.Level
    package var pipeline: PipelineConfiguration
    package var ueventSource: UeventSource
    package var classifier: ClassifierConfiguration
    package var controlUsers: [String]
    package var controlGroups: [String]
    package var outboundQueue: Int
    package var trace: TraceSettings
    /// The WebSocket endpoint for browser pages (off by default).
    package var webSocket: WebSocketSettings = .defaults
    /// Connection caps and the hello deadline (`server.max-connections`, ...).
    package var connectionLimits = ConnectionLimits()

    package static let defaults = DaemonConfiguration(
        screen: Size(width: 1280, height: 800), logLevel: .info, pipeline: PipelineConfiguration(),
        ueventSource: .auto,
        classifier: ClassifierConfiguration(
            hotkeys: [try! Hotkey("LEFTMETA+K", action: .toggle), try! Hotkey("ROTATE_DISPLAY", action: .rotate)]),
        controlUsers: [], controlGroups: ["insetd"], outboundQueue: 256, trace: .defaults)

    /// Who may send control commands, resolved against this machine's users.
    package var authorization: Authorization {
        Authorization.resolving(users: controlUsers, groups: controlGroups)
    }
}

/// A configuration that cannot be used: every problem found, each naming the
/// key, the value and why, so one run of `--check-config` shows them all.
package struct ConfigurationError: Error, CustomStringConvertible, Sendable {
    package struct Problem: Sendable, Hashable {
        package var key: String
        package var value: String
        package var why: String
        /// Where in the file, 1-based, when the problem has a place.
        package var line: Int? = nil
        package var column: Int? = nil
        /// False for problems with a key rather than a value (unknown, given twice).
        package var quotesValue = true
    }

    package var source: String
    package var problems: [Problem]

    /// The `source` of problems in the options rather than in a file.
    package static let commandLine = "command line"

    /// One line per problem, `FILE:LINE:COLUMN: key: 'value' why` (the place
    /// as compilers give it, so editors can jump there).
    package var description: String {
        problems.map { problem in
            let place = problem.line.map { line in ":\(line)" + (problem.column.map { ":\($0)" } ?? "") } ?? ""
            let value = problem.quotesValue ? "'\(problem.value)' " : ""
            return "\(source)\(place): \(problem.key): \(value)\(problem.why)"
        }.joined(separator: "\n")
    }
}
