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
    }

    public var source: String
    public var problems: [Problem]

    public var description: String {
        problems.map { "\(source): \($0.key): '\($0.value)' \($0.why)" }.joined(separator: "\n")
    }
}
