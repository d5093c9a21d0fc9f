import InsetCore
import InsetInput

/// Every key of insetd.yaml, written once: its name, where its value lives in
/// a `DaemonConfiguration` (so its default is that place in `.defaults`, and
/// two configurations differ in it when that place does), how it is read and
/// checked, and whether a reload applies it. The loader and a reload's report
/// both walk this table.
///
/// Why one table: a key spelled in several places (the loader, the reload
/// report, a list of defaults) drifts; here a new setting is one case, and the
/// compiler asks for its row.
enum ConfigurationKey: String, CaseIterable, Sendable {
    case screenWidth = "screen.width"
    case screenHeight = "screen.height"
    case logLevel = "log-level"
    case keyboardMode = "keyboard.mode"
    case keyboardPortraitHeight = "keyboard.portrait-height"
    case keyboardLandscapeHeight = "keyboard.landscape-height"
    case keyboardAccessoryBarHeight = "keyboard.accessory-bar-height"
    case keyboardHardwareHoldOffMs = "keyboard.hardware-hold-off-ms"
    case keyboardIgnoreExternalKeyboards = "keyboard.ignore-external-keyboards"
    case keyboardAnimationMs = "keyboard.animation-ms"
    case keyboardAnimationCurve = "keyboard.animation-curve"
    case filterWindowMs = "filter.window-ms"
    case filterNavigationThresholdMs = "filter.navigation-threshold-ms"
    case inputUeventSource = "input.uevent-source"
    case inputAllow = "input.allow"
    case inputDeny = "input.deny"
    case inputCountVirtualKeyboards = "input.count-virtual-keyboards"
    case inputHotkeys = "input.hotkeys"
    case serverControlUsers = "server.control-users"
    case serverControlGroups = "server.control-groups"
    case serverOutboundQueue = "server.outbound-queue"
    case serverMaxConnections = "server.max-connections"
    case serverMaxConnectionsPerUser = "server.max-connections-per-user"
    case serverHelloTimeoutMs = "server.hello-timeout-ms"
    case tracePath = "trace.path"
    case traceOutputPath = "trace.output-path"
    case traceMaxBytes = "trace.max-bytes"
    case traceWhenFull = "trace.when-full"
    case traceKeep = "trace.keep"
    case websocketListen = "websocket.listen"
    case websocketAllowRemote = "websocket.allow-remote"
    case websocketOrigins = "websocket.origins"
    case websocketControl = "websocket.control"

    /// The row of the table. Keyboard and filter settings go to the running
    /// pipeline (`reload: true`); the rest lives in objects built at start.
    var setting: ConfigurationSetting {
        switch self {
        case .screenWidth: .number(\.screen.width, in: 100...20_000)
        case .screenHeight: .number(\.screen.height, in: 100...20_000)
        case .logLevel: .choice(\.logLevel)
        case .keyboardMode: .choice(\.pipeline.policy.mode, reload: true)
        case .keyboardPortraitHeight: .number(\.pipeline.policy.portraitHeight, in: 1...5000, reload: true)
        case .keyboardLandscapeHeight: .number(\.pipeline.policy.landscapeHeight, in: 1...5000, reload: true)
        case .keyboardAccessoryBarHeight: .number(\.pipeline.policy.accessoryBarHeight, in: 0...500, reload: true)
        case .keyboardHardwareHoldOffMs: .milliseconds(\.pipeline.policy.hardwareHoldOff, in: 0...10_000, reload: true)
        case .keyboardIgnoreExternalKeyboards: .flag(\.pipeline.policy.ignoreExternalKeyboards, reload: true)
        case .keyboardAnimationMs: .milliseconds(\.pipeline.policy.animation.duration, in: 0...5000, reload: true)
        case .keyboardAnimationCurve: .choice(\.pipeline.policy.animation.curve, reload: true)
        case .filterWindowMs: .milliseconds(\.pipeline.filterWindow, in: 0...5000, reload: true)
        case .filterNavigationThresholdMs: .milliseconds(\.pipeline.navigationThreshold, in: 0...10_000, reload: true)
        case .inputUeventSource: .choice(\.ueventSource)
        case .inputAllow: .list(\.classifier.allow, DaemonConfigurationLoader.parseDeviceMatch)
        case .inputDeny: .list(\.classifier.deny, DaemonConfigurationLoader.parseDenyMatch)
        case .inputCountVirtualKeyboards: .flag(\.classifier.countVirtualKeyboards)
        case .inputHotkeys: .list(\.classifier.hotkeys, DaemonConfigurationLoader.parseHotkey)
        case .serverControlUsers: .list(\.controlUsers) { $0 }
        case .serverControlGroups: .list(\.controlGroups) { $0 }
        case .serverOutboundQueue: .integer(\.outboundQueue, in: 8...1_000_000)
        case .serverMaxConnections: .integer(\.connectionLimits.maximumConnections, in: 1...1_000_000)
        case .serverMaxConnectionsPerUser: .integer(\.connectionLimits.maximumConnectionsPerUser, in: 1...1_000_000)
        case .serverHelloTimeoutMs: .milliseconds(\.connectionLimits.handshakeTimeout, in: 100...10_000)
        case .tracePath: .text(\.trace.path)
        case .traceOutputPath: .text(\.trace.outputPath)
        case .traceMaxBytes: .integer(\.trace.maxBytes, in: 4096...(1 << 40))
        case .traceWhenFull: .choice(\.trace.whenFull)
        case .traceKeep: .integer(\.trace.keep, in: 0...100)
        case .websocketListen: .parsed(\.webSocket.listen, WebSocketSettings.ListenAddress.init(parsing:))
        case .websocketAllowRemote: .flag(\.webSocket.allowRemote)
        case .websocketOrigins: .list(\.webSocket.origins, WebSocketSettings.parseOrigin)
        case .websocketControl: .flag(\.webSocket.control)
        }
    }

    /// Whether a reload applies a new value at once, or only a restart does.
    var appliesOnReload: Bool { setting.appliesOnReload }

    /// Whether the value differs between two configurations.
    func differs(_ old: DaemonConfiguration, _ new: DaemonConfiguration) -> Bool { setting.differs(old, new) }
}

/// One row of the key table, typed by its value: reads the key into a
/// configuration (an absent key leaves what is there, the default) and
/// compares two configurations at the same place.
struct ConfigurationSetting {
    let appliesOnReload: Bool
    let read: (inout ConfigurationValues, ConfigurationKey, inout DaemonConfiguration) -> Void
    let differs: (DaemonConfiguration, DaemonConfiguration) -> Bool

    init<Value: Equatable>(
        _ path: WritableKeyPath<DaemonConfiguration, Value>, reload: Bool,
        read: @escaping (inout ConfigurationValues, ConfigurationKey, Value) -> Value
    ) {
        appliesOnReload = reload
        self.read = { values, key, config in config[keyPath: path] = read(&values, key, config[keyPath: path]) }
        differs = { $0[keyPath: path] != $1[keyPath: path] }
    }

    static func number(_ path: WritableKeyPath<DaemonConfiguration, Double>, in range: ClosedRange<Double>, reload: Bool = false) -> Self {
        Self(path, reload: reload) { values, key, current in values.number(key, default: current, in: range) }
    }

    static func integer(_ path: WritableKeyPath<DaemonConfiguration, Int>, in range: ClosedRange<Int>, reload: Bool = false) -> Self {
        Self(path, reload: reload) { values, key, current in values.integer(key, default: current, in: range) }
    }

    /// Whole milliseconds in the file, a `Duration` in the configuration.
    static func milliseconds(_ path: WritableKeyPath<DaemonConfiguration, Duration>, in range: ClosedRange<Int>, reload: Bool = false) -> Self {
        Self(path, reload: reload) { values, key, current in
            let milliseconds = Int(current.totalNanoseconds / 1_000_000)
            let read = values.integer(key, default: milliseconds, in: range)
            return read == milliseconds ? current : .milliseconds(read)
        }
    }

    static func flag(_ path: WritableKeyPath<DaemonConfiguration, Bool>, reload: Bool = false) -> Self {
        Self(path, reload: reload) { values, key, current in values.flag(key, default: current) }
    }

    static func choice<T: RawRepresentable & CaseIterable & Equatable>(_ path: WritableKeyPath<DaemonConfiguration, T>, reload: Bool = false) -> Self
    where T.RawValue == String {
        Self(path, reload: reload) { values, key, current in values.choice(key, default: current) }
    }

    /// A path or name; an empty string is no value.
    static func text(_ path: WritableKeyPath<DaemonConfiguration, String?>, reload: Bool = false) -> Self {
        Self(path, reload: reload) { values, key, current in values.text(key, default: current) }
    }

    /// Text parsed into a value; an empty string is no value.
    static func parsed<T: Equatable>(
        _ path: WritableKeyPath<DaemonConfiguration, T?>, reload: Bool = false,
        _ parse: @escaping (String) throws(ConfigurationValueError) -> T
    ) -> Self {
        Self(path, reload: reload) { values, key, current in values.parsed(key, default: current, parse) }
    }

    static func list<T: Equatable>(
        _ path: WritableKeyPath<DaemonConfiguration, [T]>, reload: Bool = false,
        _ parse: @escaping (String) throws(ConfigurationValueError) -> T
    ) -> Self {
        Self(path, reload: reload) { values, key, current in values.list(key, default: current, parse) }
    }
}
