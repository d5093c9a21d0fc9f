#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc
import InsetInput
import InsetServer
import Logging

/// Assembles and runs insetd: input monitor, socket server and core as one
/// service group with graceful shutdown on SIGTERM and SIGINT.
package enum Daemon {
    package struct Options: Sendable {
        package var configPath: String?
        package var socketPath: String?
        package var ueventSource: UeventSource?
        /// Override `trace.path` and `trace.output-path`.
        package var tracePath: String?
        package var traceOutputPath: String?
        /// Overrides `log-level`.
        package var logLevel: Logger.Level?

        package init(
            configPath: String? = nil, socketPath: String? = nil, ueventSource: UeventSource? = nil,
            tracePath: String? = nil, traceOutputPath: String? = nil
        ) {
            self.configPath = configPath
            self.socketPath = socketPath
            self.ueventSource = ueventSource
            self.tracePath = tracePath
            self.traceOutputPath = traceOutputPath
        }
    }

    /// Where insetd looks for a configuration file when none is named.
    package static let defaultConfigPath = "/etc/insetd/insetd.yaml"

    /// The exit status for a configuration insetd cannot start with: sysexits.h's
    /// EX_CONFIG, which the unit names in `RestartPreventExitStatus=`.
    package static let configurationExitStatus: Int32 = 78

    /// The exit status for an error `run` ended with (a configuration file's
    /// errors aside): `configurationExitStatus` when starting again cannot help
    /// (a WebSocket listener the sandbox or the machine forbids is the
    /// configuration's or the unit's to fix), else 1.
    package static func exitStatus(for error: any Error) -> Int32 {
        if let listen = error as? WebSocketListenError, listen.isPermanent { return configurationExitStatus }
        return 1
    }

    /// The configuration file to use: the named one, else the default path if it
    /// exists (readable or not: an unreadable file is an error, never a silent
    /// fall-back to the defaults), else none (built-in defaults).
    package static func configPath(explicit: String?) -> String? {
        ConfigurationSource(explicitPath: explicit).path
    }

    package static func run(_ options: Options) async throws {
        let source = ConfigurationSource(
            explicitPath: options.configPath, ueventSource: options.ueventSource, tracePath: options.tracePath,
            traceOutputPath: options.traceOutputPath, logLevel: options.logLevel)
        let (configuration, path) = try await source.load()

        let level = configuration.logLevel
        LoggingSystem.bootstrap { DaemonLogHandler(label: $0, level: level) }
        let logger = Logger(label: "insetd")
        logger.info("starting", metadata: ["config": "\(path ?? "built-in defaults")"])

        let listener: InsetServer.Listener
        if let fd = SocketActivation.inheritedListener() {
            listener = .inherited(fileDescriptor: fd)
        } else {
            listener = .path(
                try SocketLocation.resolve(
                    explicit: options.socketPath, environment: ProcessInfo.processInfo.environment, uid: getuid()))
        }
        let monitor = InputMonitor(
            configuration: .init(
                source: configuration.ueventSource, classifier: configuration.classifier,
                eventLoop: DaemonRuntime.group.any()),
            logger: Logger(label: "insetd.input"))
        let server = InsetServer(
            configuration: .init(
                listener: listener, authorization: configuration.authorization,
                outboundCapacity: configuration.outboundQueue, limits: configuration.connectionLimits,
                eventLoopGroup: DaemonRuntime.group),
            logger: Logger(label: "insetd.server"))
        let (hangUps, hangUp) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        let (stops, stop) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        let signals = try await SignalPipe.start(trapping: [SIGTERM, SIGINT, SIGHUP], on: DaemonRuntime.group.any()) {
            if $0 == SIGHUP { hangUp.yield() } else { stop.yield() }
        }
        let core = DaemonCoreService(
            configuration: configuration, source: source, monitor: monitor, server: server,
            notifier: SystemdNotifier(), hangUps: hangUps, logger: Logger(label: "insetd.core"))
        let group = ServiceGroup(
            configuration: .init(
                services: [
                    .init(service: server),
                    .init(service: core, successTerminationBehavior: .gracefullyShutdownGroup),
                ]
                    + (configuration.webSocket.service(server: server, group: DaemonRuntime.group, logger: logger).map {
                        [.init(service: $0)]
                    } ?? []),
                logger: logger))
        // SIGTERM and SIGINT stop gracefully; SignalPipe says why not the group's own signal handling.
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { for await _ in stops { await group.triggerGracefulShutdown() } }
            defer { tasks.cancelAll() }
            try await group.run()
        }
        await signals.stop()
        logger.info("stopped")
    }
}
