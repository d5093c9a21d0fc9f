#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc
import InsetInput
import InsetServer
import Logging
import ServiceLifecycle

/// Assembles and runs insetd: input monitor, socket server and core as one
/// service group with graceful shutdown on SIGTERM and SIGINT.
public enum Daemon {
    public struct Options: Sendable {
        public var configPath: String?
        public var socketPath: String?
        public var ueventSource: UeventSource?
        /// Override `trace.path` and `trace.output-path`.
        public var tracePath: String?
        public var traceOutputPath: String?

        public init(
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
    public static let defaultConfigPath = "/etc/insetd/insetd.yaml"

    /// The configuration file to use: the named one, else the default path if it
    /// exists, else none (built-in defaults).
    public static func configPath(explicit: String?) -> String? {
        explicit ?? (access(defaultConfigPath, R_OK) == 0 ? defaultConfigPath : nil)
    }

    public static func run(_ options: Options) async throws {
        let path = configPath(explicit: options.configPath)
        var configuration = DaemonConfiguration.defaults
        if let path { configuration = try await DaemonConfigurationLoader.load(path: path) }
        if let source = options.ueventSource { configuration.ueventSource = source }
        if let path = options.tracePath { configuration.trace.path = path }
        if let path = options.traceOutputPath { configuration.trace.outputPath = path }
        if let output = configuration.trace.outputPath, configuration.trace.path == nil {
            throw ConfigurationError(
                source: "command line", problems: [.init(key: "--trace-output", value: output, why: "needs --trace as well")])
        }

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
            configuration: .init(source: configuration.ueventSource, classifier: configuration.classifier),
            logger: Logger(label: "insetd.input"))
        let server = InsetServer(
            configuration: .init(
                listener: listener, authorization: configuration.authorization,
                outboundCapacity: configuration.outboundQueue, limits: configuration.connectionLimits,
                eventLoopGroup: DaemonRuntime.group),
            logger: Logger(label: "insetd.server"))
        let core = DaemonCoreService(
            configuration: configuration, configPath: path, monitor: monitor, server: server,
            notifier: SystemdNotifier(), logger: Logger(label: "insetd.core"))
        let group = ServiceGroup(
            configuration: .init(
                services: [
                    .init(service: server),
                    .init(service: core, successTerminationBehavior: .gracefullyShutdownGroup),
                ],
                gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
        try await group.run()
        logger.info("stopped")
    }
}
