import InsetCore
import InsetInput
import InsetProtocol
import InsetServer
import Logging

/// Runs the core: starts input reading, waits for the socket, tells systemd it
/// is ready, then feeds every event to `DaemonCore` in order. The only timer is
/// the pipeline's next deadline; with none pending, nothing wakes the daemon.
final class DaemonCoreService: Service, Sendable {
    private let configuration: DaemonConfiguration
    private let source: ConfigurationSource
    private let monitor: InputMonitor
    private let server: InsetServer
    private let notifier: SystemdNotifier
    /// One element per SIGHUP (see `SignalPipe`).
    private let hangUps: AsyncStream<Void>
    private let logger: Logger

    init(
        configuration: DaemonConfiguration, source: ConfigurationSource, monitor: InputMonitor, server: InsetServer,
        notifier: SystemdNotifier, hangUps: AsyncStream<Void>, logger: Logger
    ) {
        self.configuration = configuration
        self.source = source
        self.monitor = monitor
        self.server = server
        self.notifier = notifier
        self.hangUps = hangUps
        self.logger = logger
    }

    /// The frames an earlier run learned, with what was wrong in their file logged.
    private func rememberedFrames(from store: LearnedFrameStore?) -> [Size: Rect] {
        guard let store else { return [:] }
        let loaded = store.load()
        for problem in loaded.problems {
            logger.warning("learned keyboard frames: \(problem)", metadata: ["file": "\(store.path)"])
        }
        if !loaded.frames.isEmpty {
            logger.info("keyboard frames remembered", metadata: ["file": "\(store.path)", "screens": "\(loaded.frames.count)"])
        }
        return loaded.frames
    }

    func run() async throws {
        let (events, continuation) = AsyncStream.makeStream(of: CoreEvent.self, bufferingPolicy: .unbounded)
        let started = ContinuousClock.now
        let driver = CoreDriver(eventLoop: DaemonRuntime.group.any(), continuation: continuation, started: started)
        let source = try monitor.start(delivering: driver.deliver)
        let store = LearnedFrameStore.fromEnvironment()
        let remembered = rememberedFrames(from: store)
        let core = try DaemonCore(
            configuration: configuration, devices: monitor.devices, tabletMode: monitor.tabletMode,
            rememberedFrames: remembered, outbox: server,
            clock: { Instant(nanoseconds: (ContinuousClock.now - started).totalNanoseconds) }, logger: logger)
        core.reloadRequested = { client, id in
            Task { await self.reload(driver, requester: (client, id)) }
        }
        if let store {
            core.framesLearned = { [logger] frames in
                if let problem = store.save(frames) {
                    logger.warning("cannot keep the learned keyboard frames", metadata: ["file": "\(store.path)", "error": "\(problem)"])
                }
            }
        }
        await server.waitUntilListening()
        let keyboards = monitor.devices.filter { if case .keyboard = $0.classification.kind { true } else { false } }
        notifier.notify(
            "READY=1", "STATUS=serving; \(monitor.devices.count) input devices, \(keyboards.count) keyboards (\(source.rawValue) events)")
        logger.info("ready", metadata: ["devices": "\(monitor.devices.count)", "keyboards": "\(keyboards.count)"])

        await withGracefulShutdownHandler {
            await withTaskGroup(of: Void.self) { group in
                group.addTask { for await event in self.server.events { driver.enqueue(.server(event)) } }
                group.addTask { await self.reloadOnHangUp(driver) }
                if let interval = SystemdNotifier.watchdogInterval() {
                    group.addTask { await self.pingWatchdog(every: interval / 2) }
                }
                await driver.run(core, events: events)
                group.cancelAll()
            }
        } onGracefulShutdown: {
            self.notifier.notify("STOPPING=1", "STATUS=stopping")
            self.monitor.stop()
            continuation.finish()
        }
    }

    private func reloadOnHangUp(_ driver: CoreDriver) async {
        for await _ in hangUps {
            await reload(driver, requester: nil)
        }
    }

    /// Reads the configuration again (the file may have appeared or gone since
    /// start) and hands the outcome to the core, framed by `RELOADING=1` and
    /// `READY=1` for systemd. A failed reload says so in `STATUS=`; what reports
    /// the failure to systemd is `ExecReload=insetctl reload`, which exits
    /// non-zero with the file's errors.
    private func reload(
        _ driver: CoreDriver, requester: (client: ClientID, id: RequestID?)?
    ) async {
        notifier.notify("RELOADING=1", "MONOTONIC_USEC=\(SystemdNotifier.monotonicMicroseconds())")
        let outcome: ReloadOutcome
        do {
            let (configuration, path) = try await source.load()
            outcome = ReloadOutcome(result: .success(configuration), path: path, requester: requester)
            notifier.notify("READY=1", "STATUS=serving; configuration reloaded from \(path ?? "built-in defaults")")
        } catch {
            outcome = ReloadOutcome(result: .failure(error), path: source.path, requester: requester)
            let first = error.description.split(separator: "\n").first.map(String.init) ?? "\(error)"
            notifier.notify("READY=1", "STATUS=serving with the previous configuration; reload failed: \(first)")
        }
        driver.enqueue(.reload(outcome))
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
