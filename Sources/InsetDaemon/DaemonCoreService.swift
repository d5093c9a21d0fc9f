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
        let started = ContinuousClock.now
        let core = try DaemonCore(
            configuration: configuration, devices: monitor.devices, tabletMode: monitor.tabletMode, outbox: server,
            clock: { Instant(nanoseconds: (ContinuousClock.now - started).totalNanoseconds) }, logger: logger)
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
                    let wake = core.nextDeadline.map { started + .nanoseconds($0.nanoseconds) }
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

    private func pingWatchdog(every interval: Duration) async {
        while !Task.isCancelled {
            notifier.notify("WATCHDOG=1")
            try? await DaemonRuntime.sleep(for: interval)
        }
    }
}
