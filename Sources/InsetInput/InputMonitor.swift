import CLibevdev
import Glibc
import Logging
import NIOCore
import Synchronization

/// Discovers input devices with libudev, reads the ones that matter with
/// libevdev on a dedicated thread, and reports what it finds as `InputEvent`s.
///
/// Reading never blocks the rest of the daemon (it has its own thread), and an
/// idle monitor makes no wakeups at all: the thread sleeps in `epoll_wait` with
/// no timeout until a uevent or an input event arrives (or a watchdog asks for
/// a heartbeat, see `readerHeartbeat()`). Devices are opened
/// read-only and never grabbed.
public final class InputMonitor: Sendable {
    public struct Configuration: Sendable {
        public var source: UeventSource
        public var classifier: ClassifierConfiguration
        /// udevd's control socket: its presence means udevd runs.
        public var udevControlPath: String
        /// Where libinput's quirks are read at `start()` when the classifier has
        /// none; nil reads none.
        public var quirks: QuirksSources?
        /// Where devices are read: on this event loop (the consumer's own, so a
        /// hotkey is answered without a thread hop: `EvdevLoopReader`), or, when
        /// nil, on the reader thread with libevdev. udev stays on the reader
        /// thread either way.
        public var eventLoop: (any EventLoop)?

        public init(
            source: UeventSource = .auto, classifier: ClassifierConfiguration = ClassifierConfiguration(),
            udevControlPath: String = "/run/udev/control", quirks: QuirksSources? = .libinput,
            eventLoop: (any EventLoop)? = nil
        ) {
            self.source = source
            self.classifier = classifier
            self.udevControlPath = udevControlPath
            self.quirks = quirks
            self.eventLoop = eventLoop
        }
    }

    private struct Shared: ~Copyable {
        var devices: [InputDevice] = []
        var tabletMode = false
        var thread: pthread_t?
    }

    /// Every event, in order. Finishes after `stop()`.
    public let events: AsyncStream<InputEvent>
    private let continuation: AsyncStream<InputEvent>.Continuation
    private let configuration: Configuration
    private let logger: Logger
    private let wake: Int32
    private let shared = Mutex(Shared())
    private let wakeups = WakeupCounter()
    private let heartbeat = ReaderHeartbeat()

    public init(configuration: Configuration = Configuration(), logger: Logger = Logger(label: "insetd.input")) {
        self.configuration = configuration
        self.logger = logger
        (events, continuation) = AsyncStream.makeStream(of: InputEvent.self, bufferingPolicy: .unbounded)
        wake = eventfd(0, Int32(EFD_CLOEXEC | EFD_NONBLOCK))
    }

    deinit {
        stop()
        close(wake)
    }

    /// The devices known now, with their classification.
    public var devices: [InputDevice] { shared.withLock { $0.devices } }

    /// The combined tablet-mode state now (as last reported in `events`).
    public var tabletMode: Bool { shared.withLock { $0.tabletMode } }

    /// Which source `auto` stands for on this machine.
    public func resolvedSource() -> UeventSource {
        switch configuration.source {
        case .udev, .kernel: return configuration.source
        case .auto: return access(configuration.udevControlPath, F_OK) == 0 ? .udev : .kernel
        }
    }

    /// Enumerates the devices present now (their events are in `events` when this
    /// returns), then follows uevents and device input on the reader thread.
    ///
    /// With `deliver`, every event goes to it instead of `events`, called on the
    /// reader thread (and, for devices read there, on the configured event
    /// loop): a consumer that merges input into a stream of its own saves a
    /// task hop between a hotkey and its answer.
    @discardableResult
    public func start(delivering deliver: (@Sendable (InputEvent) -> Void)? = nil) throws(InputSystemError) -> UeventSource {
        let source = resolvedSource()
        guard shared.withLock({ $0.thread == nil }) else { return source }
        if configuration.source == .auto && source == .kernel {
            logger.warning(
                "udevd is not running (\(configuration.udevControlPath) is missing): following kernel uevents and classifying devices from their capability bits; udev properties and tags (INSETD_IGNORE) are unavailable"
            )
        }
        let continuation = self.continuation
        let reader = try InputReader(
            source: source, classifier: classifierWithQuirks(), wake: wake, wakeups: wakeups, heartbeat: heartbeat,
            eventLoop: configuration.eventLoop, logger: logger,
            emit: { [weak self] event in
                if case .tabletMode(let on) = event { self?.shared.withLock { $0.tabletMode = on } }
                if let deliver { deliver(event) } else { continuation.yield(event) }
            },
            publish: { [weak self] devices in self?.shared.withLock { $0.devices = devices } })
        try reader.enumerate()
        logger.info("input monitor started", metadata: ["source": "\(source.rawValue)"])
        let box = Unmanaged.passRetained(ReaderBox(reader))
        var thread = pthread_t()
        let rc = pthread_create(
            &thread, nil,
            { argument in
                let box = Unmanaged<ReaderBox>.fromOpaque(argument!).takeRetainedValue()
                nameThisThread("insetd-input")
                box.reader.run()
                return nil
            }, box.toOpaque())
        guard rc == 0 else {
            box.release()
            throw InputSystemError("pthread_create", errno: rc)
        }
        shared.withLock { $0.thread = thread }
        return source
    }

    /// The configured classifier, with libinput's quirks loaded when it has none.
    private func classifierWithQuirks() -> ClassifierConfiguration {
        var classifier = configuration.classifier
        guard classifier.quirks.sections.isEmpty, let sources = configuration.quirks else { return classifier }
        let (quirks, problems) = DeviceQuirks.load(sources)
        for problem in problems {
            logger.warning("libinput quirks file skipped", metadata: ["problem": "\(problem)"])
        }
        logger.info(
            "libinput quirks read",
            metadata: [
                "sections": "\(quirks.sections.count)", "directory": "\(sources.dataDirectory)",
                "dmi": "\(quirks.dmiModalias ?? "-")",
            ])
        classifier.quirks = quirks
        return classifier
    }

    /// For a watchdog, once per period: whether the reader thread has come back
    /// to its loop since the previous call (true on the first), then asks again.
    /// False means it has been stuck for a whole period, or has stopped.
    public func readerHeartbeat() -> Bool { heartbeat.check() }

    /// Stops the reader thread, closes every device and finishes `events`.
    public func stop() {
        guard let thread = shared.withLock({ state -> pthread_t? in
            defer { state.thread = nil }
            return state.thread
        }) else { return }
        var one: UInt64 = 1
        _ = write(wake, &one, MemoryLayout<UInt64>.size)
        pthread_join(thread, nil)
        continuation.finish()
    }

    /// How many times the reader thread has woken from `epoll_wait` so far: each
    /// wakeup is a uevent, device input or a watchdog's `readerHeartbeat()`,
    /// never a timer.
    public var readerWakeups: Int { wakeups.count.load(ordering: .relaxed) }

    /// CPU time the reader thread has used so far (user + system), for checking
    /// that an idle or unplugged device costs nothing.
    public func readerCPUTime() -> Duration? {
        guard let thread = shared.withLock({ $0.thread }) else { return nil }
        var clock = clockid_t()
        guard pthread_getcpuclockid(thread, &clock) == 0 else { return nil }
        var time = timespec()
        guard clock_gettime(clock, &time) == 0 else { return nil }
        return .seconds(time.tv_sec) + .nanoseconds(time.tv_nsec)
    }
}

/// Gives the calling thread its own name in top, perf and /proc (a new thread
/// inherits its creator's, here an event loop's). Glibc's `pthread_setname_np`
/// is not visible to Swift (it needs `_GNU_SOURCE`); the kernel's file is.
private func nameThisThread(_ name: String) {
    let fd = open("/proc/thread-self/comm", O_WRONLY | O_CLOEXEC)
    guard fd >= 0 else { return }
    _ = name.utf8CString.withUnsafeBufferPointer { write(fd, $0.baseAddress, $0.count - 1) }
    close(fd)
}

/// Carries the reader to its thread; only that thread touches it afterwards.
private final class ReaderBox: @unchecked Sendable {
    let reader: InputReader
    init(_ reader: InputReader) { self.reader = reader }
}
