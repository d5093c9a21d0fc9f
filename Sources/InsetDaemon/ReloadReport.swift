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
        func now(_ key: String, _ different: Bool) { if different { report.changed.append(key) } }
        func later(_ key: String, _ different: Bool) { if different { report.restart.append(key) } }
        let (a, b) = (old.pipeline.policy, new.pipeline.policy)
        later("screen.width", old.screen.width != new.screen.width)
        later("screen.height", old.screen.height != new.screen.height)
        later("log-level", old.logLevel != new.logLevel)
        now("keyboard.mode", a.mode != b.mode)
        now("keyboard.portrait-height", a.portraitHeight != b.portraitHeight)
        now("keyboard.landscape-height", a.landscapeHeight != b.landscapeHeight)
        now("keyboard.accessory-bar-height", a.accessoryBarHeight != b.accessoryBarHeight)
        now("keyboard.hardware-hold-off-ms", a.hardwareHoldOff != b.hardwareHoldOff)
        now("keyboard.ignore-external-keyboards", a.ignoreExternalKeyboards != b.ignoreExternalKeyboards)
        now("keyboard.animation-ms", a.animation.duration != b.animation.duration)
        now("keyboard.animation-curve", a.animation.curve != b.animation.curve)
        now("filter.window-ms", old.pipeline.filterWindow != new.pipeline.filterWindow)
        now("filter.navigation-threshold-ms", old.pipeline.navigationThreshold != new.pipeline.navigationThreshold)
        later("input.uevent-source", old.ueventSource != new.ueventSource)
        later("input.allow", old.classifier.allow != new.classifier.allow)
        later("input.deny", old.classifier.deny != new.classifier.deny)
        later("input.count-virtual-keyboards", old.classifier.countVirtualKeyboards != new.classifier.countVirtualKeyboards)
        later("input.hotkeys", old.classifier.hotkeys != new.classifier.hotkeys)
        later("server.control-users", old.controlUsers != new.controlUsers)
        later("server.control-groups", old.controlGroups != new.controlGroups)
        later("server.outbound-queue", old.outboundQueue != new.outboundQueue)
        later("server.max-connections", old.connectionLimits.maximumConnections != new.connectionLimits.maximumConnections)
        later("server.max-connections-per-user", old.connectionLimits.maximumConnectionsPerUser != new.connectionLimits.maximumConnectionsPerUser)
        later("server.hello-timeout-ms", old.connectionLimits.handshakeTimeout != new.connectionLimits.handshakeTimeout)
        later("trace.path", old.trace.path != new.trace.path)
        later("trace.output-path", old.trace.outputPath != new.trace.outputPath)
        later("trace.max-bytes", old.trace.maxBytes != new.trace.maxBytes)
        later("trace.when-full", old.trace.whenFull != new.trace.whenFull)
        later("trace.keep", old.trace.keep != new.trace.keep)
        later("websocket.listen", old.webSocket.listen != new.webSocket.listen)
        later("websocket.allow-remote", old.webSocket.allowRemote != new.webSocket.allowRemote)
        later("websocket.origins", old.webSocket.origins != new.webSocket.origins)
        later("websocket.control", old.webSocket.control != new.webSocket.control)
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
