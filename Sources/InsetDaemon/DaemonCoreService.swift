import InsetCore
import InsetInput
import InsetServer
import Logging
import ServiceLifecycle
import UnixSignals

/// Runs the core: starts input reading, waits for the socket, tells systemd it
/// is ready, then feeds every event to `DaemonCore` in order. The only timer is
/// the pipeline's next deadline; with none pending, nothing wakes the daemon.
final class DaemonCoreService: Service, Sendable {
    private let configuration: DaemonConfiguration
    private let configPath: String?
    private let monitor: InputMonitor
    private let server: InsetServer
    private let notifier: SystemdNotifier
    private let logger: Logger

    init(
        configuration: DaemonConfiguration, configPath: String?, monitor: InputMonitor, server: InsetServer,
        notifier: SystemdNotifier, logger: Logger
    ) {
        self.configuration = configuration
        self.configPath = configPath
        self.monitor = monitor
        self.server = server
        self.notifier = notifier
        self.logger = logger
    }

    func run() async throws {
        let (events, continuation) = AsyncStream.makeStream(of: CoreEvent.self, bufferingPolicy: .unbounded)
        let source = try monitor.start(delivering: { event in continuation.yield(.input(event)) })
        let core = try DaemonCore(
            configuration: configuration, devices: monitor.devices, tabletMode: monitor.tabletMode, logger: logger)
        await server.waitUntilListening()
        let keyboards = monitor.devices.filter { if case .keyboard = $0.classification.kind { true } else { false } }
        notifier.notify(
            "READY=1", "STATUS=serving; \(monitor.devices.count) input devices, \(keyboards.count) keyboards (\(source.rawValue) events)")
        logger.info("ready", metadata: ["devices": "\(monitor.devices.count)", "keyboards": "\(keyboards.count)"])

        await withGracefulShutdownHandler {
            await withTaskGroup(of: Void.self) { group in
                group.addTask { for await event in self.server.events { continuation.yield(.server(event)) } }
                group.addTask { await self.reloadOnHangUp(continuation) }
                if let interval = SystemdNotifier.watchdogInterval() {
                    group.addTask { await self.pingWatchdog(every: interval / 2) }
                }
                var timer: Task<Void, Never>?
                var scheduled: ContinuousClock.Instant?
                for await event in events {
                    core.handle(event)
                    let wake = core.nextWake
                    guard wake != scheduled else { continue }
                    timer?.cancel()
                    scheduled = wake
                    timer = wake.map { wake in
                        Task {
                            guard (try? await DaemonRuntime.sleep(until: wake)) != nil else { return }
                            continuation.yield(.tick)
                        }
                    }
                }
                timer?.cancel()
                group.cancelAll()
            }
        } onGracefulShutdown: {
            self.notifier.notify("STOPPING=1", "STATUS=stopping")
            self.monitor.stop()
            continuation.finish()
        }
    }

    private func reloadOnHangUp(_ continuation: AsyncStream<CoreEvent>.Continuation) async {
        for await _ in await UnixSignalsSequence(trapping: .sighup) {
            guard let configPath else {
                logger.notice("SIGHUP: no configuration file; keeping the built-in defaults")
                continue
            }
            notifier.notify("RELOADING=1")
            do {
                let configuration = try await DaemonConfigurationLoader.load(path: configPath)
                continuation.yield(.reload(configuration))
            } catch {
                logger.error("reload failed; the running configuration stays", metadata: ["error": "\(error)"])
            }
            notifier.notify("READY=1")
        }
    }

    /// Pings only while both threads live: this task runs on the event loop, and
    /// the input reader thread must have answered the previous period's heartbeat.
    /// Withheld pings make systemd restart insetd after `WatchdogSec=`.
    private func pingWatchdog(every interval: Duration) async {
        var stuck = false
        while !Task.isCancelled {
            if monitor.readerHeartbeat() {
                if stuck { logger.notice("the input reader thread answers again; watchdog pings resume") }
                stuck = false
                notifier.notify("WATCHDOG=1")
            } else if !stuck {
                stuck = true
                logger.critical(
                    "the input reader thread has not answered for \(interval); watchdog pings stop, so systemd restarts insetd")
            }
            try? await DaemonRuntime.sleep(for: interval)
        }
    }
}
