/// Every key of insetd.yaml, written once: the loader reads each value by its
/// key, and a reload's report compares each by it and says when it applies.
///
/// Why one list: a key spelled in several places (the loader, the reload
/// report) drifts; here a new setting is one case, and the compiler asks for
/// its comparison.
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

    /// Whether a reload applies a new value at once (keyboard and filter
    /// settings go to the running pipeline), or only a restart does (the rest
    /// lives in objects built at start).
    var appliesOnReload: Bool {
        switch self {
        case .keyboardMode, .keyboardPortraitHeight, .keyboardLandscapeHeight, .keyboardAccessoryBarHeight,
            .keyboardHardwareHoldOffMs, .keyboardIgnoreExternalKeyboards, .keyboardAnimationMs,
            .keyboardAnimationCurve, .filterWindowMs, .filterNavigationThresholdMs:
            true
        case .screenWidth, .screenHeight, .logLevel, .inputUeventSource, .inputAllow, .inputDeny,
            .inputCountVirtualKeyboards, .inputHotkeys, .serverControlUsers, .serverControlGroups,
            .serverOutboundQueue, .serverMaxConnections, .serverMaxConnectionsPerUser, .serverHelloTimeoutMs,
            .tracePath, .traceOutputPath, .traceMaxBytes, .traceWhenFull, .traceKeep, .websocketListen,
            .websocketAllowRemote, .websocketOrigins, .websocketControl:
            false
        }
    }

    /// Whether the value differs between two configurations.
    func differs(_ old: DaemonConfiguration, _ new: DaemonConfiguration) -> Bool {
        let (a, b) = (old.pipeline.policy, new.pipeline.policy)
        switch self {
        case .screenWidth: return old.screen.width != new.screen.width
        case .screenHeight: return old.screen.height != new.screen.height
        case .logLevel: return old.logLevel != new.logLevel
        case .keyboardMode: return a.mode != b.mode
        case .keyboardPortraitHeight: return a.portraitHeight != b.portraitHeight
        case .keyboardLandscapeHeight: return a.landscapeHeight != b.landscapeHeight
        case .keyboardAccessoryBarHeight: return a.accessoryBarHeight != b.accessoryBarHeight
        case .keyboardHardwareHoldOffMs: return a.hardwareHoldOff != b.hardwareHoldOff
        case .keyboardIgnoreExternalKeyboards: return a.ignoreExternalKeyboards != b.ignoreExternalKeyboards
        case .keyboardAnimationMs: return a.animation.duration != b.animation.duration
        case .keyboardAnimationCurve: return a.animation.curve != b.animation.curve
        case .filterWindowMs: return old.pipeline.filterWindow != new.pipeline.filterWindow
        case .filterNavigationThresholdMs: return old.pipeline.navigationThreshold != new.pipeline.navigationThreshold
        case .inputUeventSource: return old.ueventSource != new.ueventSource
        case .inputAllow: return old.classifier.allow != new.classifier.allow
        case .inputDeny: return old.classifier.deny != new.classifier.deny
        case .inputCountVirtualKeyboards: return old.classifier.countVirtualKeyboards != new.classifier.countVirtualKeyboards
        case .inputHotkeys: return old.classifier.hotkeys != new.classifier.hotkeys
        case .serverControlUsers: return old.controlUsers != new.controlUsers
        case .serverControlGroups: return old.controlGroups != new.controlGroups
        case .serverOutboundQueue: return old.outboundQueue != new.outboundQueue
        case .serverMaxConnections: return old.connectionLimits.maximumConnections != new.connectionLimits.maximumConnections
        case .serverMaxConnectionsPerUser: return old.connectionLimits.maximumConnectionsPerUser != new.connectionLimits.maximumConnectionsPerUser
        case .serverHelloTimeoutMs: return old.connectionLimits.handshakeTimeout != new.connectionLimits.handshakeTimeout
        case .tracePath: return old.trace.path != new.trace.path
        case .traceOutputPath: return old.trace.outputPath != new.trace.outputPath
        case .traceMaxBytes: return old.trace.maxBytes != new.trace.maxBytes
        case .traceWhenFull: return old.trace.whenFull != new.trace.whenFull
        case .traceKeep: return old.trace.keep != new.trace.keep
        case .websocketListen: return old.webSocket.listen != new.webSocket.listen
        case .websocketAllowRemote: return old.webSocket.allowRemote != new.webSocket.allowRemote
        case .websocketOrigins: return old.webSocket.origins != new.webSocket.origins
        case .websocketControl: return old.webSocket.control != new.webSocket.control
        }
    }
}
