#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc
import DBus
import InsetCore
import InsetProtocol

/// Set from the SIGTERM/SIGINT handler; the loop checks it after every poll.
nonisolated(unsafe) private var stopRequested: sig_atomic_t = 0

/// What the bridge is told to do.
package struct BridgeConfiguration: Sendable {
    package var backend: BackendKind
    package var socketPath: String
    package var options: BackendOptions
    package var log: BridgeLog
    /// The machine's timings (`--settle-ms` sets how soon a hide counts as a drop).
    package var timing: BridgeTiming

    package init(
        backend: BackendKind, socketPath: String, options: BackendOptions, log: BridgeLog, timing: BridgeTiming = BridgeTiming()
    ) {
        self.backend = backend
        self.socketPath = socketPath
        self.options = options
        self.log = log
        self.timing = timing
    }
}

/// The session-side bridge: the I/O around `BridgeMachine`. It connects to
/// insetd, the session bus and the OSK, turns what they say into machine events,
/// and carries out the machine's actions. One thread, one poll loop; every peer
/// (insetd, the session bus, the OSK) may be missing or go away, and each is
/// retried on its own back-off with one log line per distinct failure.
package final class Bridge {
    private let configuration: BridgeConfiguration
    private var log: BridgeLog { configuration.log }

    private var link: InsetdLink?
    private var linkBackoff = Backoff()
    private var bus: DBusConnection?
    private var busBackoff = Backoff()
    var backend: OSKBackend?
    private var backendBackoff = Backoff()
    /// The last failure logged per peer, so a retry that fails the same way stays quiet.
    private var lastFailure: [String: String] = [:]
    /// The compositor the OSK was attached under (how it moves depends on it).
    private var attachedCompositor: Compositor?
    /// Set by the OSK's signals (from inside the bus's `process()`).
    private var oskChanged = false
    /// Set by the same signals: the compositor's focused window may have moved.
    private var windowChanged = false
    /// The focused window insetd was last told of on this link, and by which
    /// backend (`frame` nil: none); nil: not told yet.
    private var relayedWindow: (bridge: String, frame: Rect?)?

    private var machine: BridgeMachine
    private var machineWake: Instant?
    /// When the machine wants sway's usable area read next.
    var areaReadDue: Instant?
    /// Events that actions produced (a detach, the compositor's answer), fed next.
    private var followUps: [BridgeEvent] = []

    let sway = SwayIPC()
    /// The usable area where the compositor has no IPC for it (Mir, phoc),
    /// for an OSK that claims an exclusive zone; opened at its attach.
    var layerGauge: LayerShellGauge?

    package init(configuration: BridgeConfiguration) {
        self.configuration = configuration
        machine = BridgeMachine(
            name: configuration.backend == .auto ? "the OSK" : configuration.backend.rawValue, timing: configuration.timing)
        if configuration.backend != .auto {
            backend = Backends.make(configuration.backend, options: configuration.options, log: configuration.log)
        }
    }

    /// Runs until SIGTERM or SIGINT, then puts back the settings it changed.
    package func run() {
        // A parent may have left them blocked (posix_spawn passes the mask on).
        var stopSignals = sigset_t()
        sigemptyset(&stopSignals)
        sigaddset(&stopSignals, SIGTERM)
        sigaddset(&stopSignals, SIGINT)
        sigprocmask(SIG_UNBLOCK, &stopSignals, nil)
        signal(SIGTERM) { _ in stopRequested = 1 }
        signal(SIGINT) { _ in stopRequested = 1 }
        signal(SIGPIPE, SIG_IGN)
        log.info("starting: backend \(configuration.backend.rawValue), insetd at \(configuration.socketPath)")
        while stopRequested == 0 {
            step(now: monotonicInstant())
            wait(timeout: nextTimeout(now: monotonicInstant()))
        }
        backend?.restore()
        if let backend, machine.attached, machine.applied == true { try? backend.setVisible(false) }
        log.info("stopped")
    }

    /// Says `message` once per distinct failure of `peer`.
    private func failed(_ peer: String, _ message: String) {
        failedOnce(peer, message, then: "retrying with back-off")
    }

    /// Says `message` and what follows from it, once per distinct failure of `peer`.
    func failedOnce(_ peer: String, _ message: String, then consequence: String) {
        guard lastFailure[peer] != message else { return }
        lastFailure[peer] = message
        log.info("\(message); \(consequence)")
    }

    func recovered(_ peer: String, _ message: String) {
        lastFailure[peer] = nil
        log.info(message)
    }

    // MARK: - The machine

    func feed(_ event: BridgeEvent, now: Instant = monotonicInstant()) {
        followUps.append(event)
        while !followUps.isEmpty {
            let step = machine.handle(followUps.removeFirst(), now: now)
            machineWake = step.wake
            areaReadDue = step.readArea
            if !machine.attached { detaching = false }
            for action in step.actions { perform(action) }
        }
    }

    private func perform(_ action: BridgeAction) {
        let name = backend?.name ?? "osk"
        switch action {
        case .setOSKVisible(let visible):
            guard let backend, machine.attached, !detaching else { return }
            do {
                try backend.setVisible(visible)
                log.trace("\(backend.name): \(visible ? "show" : "hide")")
            } catch {
                if error.absent { detach(error) } else { failed("osk", "\(error)") }
            }
        case .setHardwareKeyboard(let usable): backend?.hardwareKeyboard(usable)
        case .reportVisibility(let visible): link?.reportVisibility(bridge: name, visible: visible)
        case .reportFrame(let frame): link?.reportFrame(bridge: name, frame: frame)
        case .reportAnimation(let animation): link?.reportAnimation(bridge: name, animation: animation)
        case .reportProblem(let problem): link?.reportProblem(bridge: name, problem: problem)
        case .reportRunning(let running): link?.reportRunning(bridge: name, running: running)
        case .checkFullscreen:
            guard let sway else { return }
            do { followUps.append(.fullscreen(window: try sway.fullscreenWindow())) } catch { log.trace("sway get_tree: \(error)") }
        case .log(let line): log.info(line)
        case .trace(let line): log.trace(line)
        }
    }

    // MARK: - One turn of the loop

    private func step(now: Instant) {
        connectInsetd(now: now)
        connectBus(now: now)
        attachBackend(now: now)
        // The window first: KWin moves it out of the keyboard's way before it
        // says the keyboard is shown, and insetd measures the keyboard that
        // the show confirms against the window where it is by then.
        relayFocusedWindow()
        observe(now: now)
        readUsableArea(now: now)
        feed(.tick, now: now)
        link?.flush()
    }

    private func connectInsetd(now: Instant) {
        guard link == nil, now.seconds >= linkBackoff.next else { return }
        do {
            link = try InsetdLink(path: configuration.socketPath, client: "insetd-osk/\(backend?.name ?? "auto")")
            linkBackoff.reset()
            relayedWindow = nil
            recovered("insetd", "connected to insetd at \(configuration.socketPath)")
        } catch {
            failed("insetd", "cannot reach insetd: \(error)")
            linkBackoff.failed(now: now.seconds)
        }
    }

    private func connectBus(now: Instant) {
        let needsBus = backend?.usesBus ?? true
        guard needsBus, bus == nil, now.seconds >= busBackoff.next else { return }
        do {
            bus = try DBusConnection.session()
            busBackoff.reset()
            recovered("bus", "connected to the session bus")
        } catch {
            failed("bus", "cannot reach the session bus: \(error)")
            busBackoff.failed(now: now.seconds)
        }
    }

    private func attachBackend(now: Instant) {
        // The OSK's bus name coming back (a restart after a crash) is tried at
        // once: a show may be waiting for it, on the machine's short clock.
        if !machine.attached, oskChanged {
            oskChanged = false
            backendBackoff.reset()
        }
        guard !machine.attached, now.seconds >= backendBackoff.next else { return }
        if configuration.backend == .auto, backend == nil {
            guard let kind = Backends.detect(bus: bus, options: configuration.options) else {
                failed("osk", "no on-screen keyboard found (squeekboard, KWin, wvkbd, GNOME)")
                backendBackoff.failed(now: now.seconds)
                return
            }
            backend = Backends.make(kind, options: configuration.options, log: log)
        }
        guard let backend else { return }
        if backend.usesBus, bus == nil { return }
        do {
            try backend.attach(bus: backend.usesBus ? bus : nil) { [weak self] in
                self?.oskChanged = true
                self?.windowChanged = true
            }
            windowChanged = true
            backendBackoff.reset()
            oskChanged = true
            recovered("osk", "driving \(backend.name)")
            // Its own visibility (a bus OSK), else the usable area, confirms a
            // show; without either (labwc, a stale $SWAYSOCK) a show is taken as done.
            // A stale $SWAYSOCK (another compositor now) says nothing of sway.
            let swayReadable = (try? sway?.usableArea()) != nil
            let compositor: Compositor? = swayReadable ? .sway : Compositor.running(environment: ProcessInfo.processInfo.environment)
            attachedCompositor = compositor
            openLayerGauge(for: backend, on: compositor)
            let areaReadable = swayReadable || (sway == nil && usableArea() != nil)
            let observable = backend.usesBus ? (try? backend.visible()) != nil : areaReadable
            let heights = ConfiguredHeights(
                portrait: backend.configuredHeight(landscape: false), landscape: backend.configuredHeight(landscape: true))
            feed(
                .oskAttached(
                    name: backend.name, observable: observable, configured: heights, measurable: areaReadable,
                    reportsVisibility: backend.usesBus, animation: backend.animation(on: compositor),
                    reportsFrame: backend.reportsFrame, laysOutOnOutputChange: backend.laysOutOnOutputChange),
                now: now)
        } catch {
            failed("osk", "\(error)")
            backendBackoff.failed(now: now.seconds)
        }
    }

    /// The OSK went away during a step: the machine hears it next, and the
    /// step's remaining actions leave it alone meanwhile.
    private var detaching = false

    private func detach(_ error: OSKError) {
        guard !detaching else { return }
        detaching = true
        if configuration.backend == .auto { backend = nil }
        failed("osk", "\(error)")
        backendBackoff.failed(now: monotonicInstant().seconds)
        followUps.append(.oskDetached)
    }

    // MARK: - insetd

    private func handle(_ message: DaemonMessage) {
        switch message {
        case .welcome(_, _, let state, _):
            feed(
                .linkConnected(
                    screen: state.screen.size, keyboardShown: state.keyboard != nil, hardwareKeyboard: state.hardwareKeyboard,
                    keyboard: state.keyboard?.rect))
        case .keyboard(let note, _):
            switch note.phase {
            case .willChangeFrame:
                feed(.keyboard(shown: true))
                feed(.keyboardMoved(to: note.endFrame))
            case .willShow, .didShow, .didChangeFrame: feed(.keyboard(shown: true))
            case .willHide, .didHide: feed(.keyboard(shown: false))
            }
        case .policy(_, _, let usable):
            feed(.hardwareKeyboard(usable: usable))
        case .error(let error):
            // Refused again the same way (a frame for a screen insetd's
            // clients have not turned to yet, reported at every reading): once.
            failedOnce("insetd's answer", "insetd refused a report: \(error)", then: "measured and reported again at the next readings")
            if error.id == InsetdLink.frameReportID { feed(.frameRefused) }
        case .bye(let reason):
            log.info("insetd is going away (\(reason))")
        default:
            break
        }
    }

    // MARK: - The OSK

    /// Reads the OSK's own visibility for the machine, which decides what is
    /// news (an OSK that cannot say is seen in sway's usable area instead).
    private func observe(now: Instant) {
        guard let backend, machine.attached else { return }
        // A bus OSK says when it changed, but a show being confirmed is read on
        // every wake (a dropped show sends no signal); the others are cheap to ask.
        guard oskChanged || !backend.usesBus || machine.asserting else { return }
        // How it moves may change while it runs (GNOME's animations turned
        // off): its signal says so, as it says a new visibility.
        if oskChanged, backend.usesBus { feed(.oskAnimation(backend.animation(on: attachedCompositor)), now: now) }
        oskChanged = false
        let visible: Bool?
        do { visible = try backend.visible() } catch {
            if error.absent { detach(error) } else { failed("osk", "\(error)") }
            return
        }
        // An OSK that says where it is (GNOME's, through insetd's extension):
        // its word is the real frame, taken before the show it confirms, so
        // the confirmation carries it and not the configured guess.
        if visible == true, let frame = backend.frame() {
            feed(.frameMeasured(frame, source: "\(backend.name)'s own report"), now: now)
        }
        if let visible { feed(.oskObserved(visible: visible), now: now) }
    }

    /// Tells insetd where the compositor draws its focused window when that
    /// changed, and once on each new link: it places the client holding the
    /// focus there (a maximized window under GNOME Shell's top bar).
    private func relayFocusedWindow() {
        guard let link else { return }
        guard let backend, backend.readsFocusedWindow, machine.attached else {
            // The OSK's shell went (the extension disabled, the Shell
            // restarted): its last word on the window is no longer true.
            if let relayed = relayedWindow, relayed.frame != nil {
                relayedWindow = (relayed.bridge, nil)
                link.reportFocusedWindow(bridge: relayed.bridge, frame: nil)
            }
            return
        }
        guard windowChanged || relayedWindow == nil, !machine.holdsWindow else { return }
        // KWin puts a window back just before it says the keyboard is hidden:
        // the OSK is asked now, not at the next signal.
        if machine.hideMayBeUnderway, (try? backend.visible()) == false { return }
        windowChanged = false
        let frame = backend.focusedWindow()
        if let relayed = relayedWindow, relayed.frame == frame { return }
        relayedWindow = (backend.name, frame)
        link.reportFocusedWindow(bridge: backend.name, frame: frame)
    }

    // MARK: - Waiting

    private func nextTimeout(now: Instant) -> Double {
        let seconds = now.seconds
        var deadlines: [Double] = [seconds + 1]
        if link == nil { deadlines.append(linkBackoff.next) }
        if bus == nil, backend?.usesBus ?? true { deadlines.append(busBackoff.next) }
        if !machine.attached { deadlines.append(backendBackoff.next) }
        if let machineWake { deadlines.append(machineWake.seconds) }
        if areaSource, let areaReadDue { deadlines.append(areaReadDue.seconds) }
        // wvkbd's process is asked as often as the area is read for it (its exit detaches it).
        if machine.attached, areaSource, backend?.usesBus == false { deadlines.append(seconds + 0.1) }
        if let usec = bus?.timeoutMicroseconds { deadlines.append(seconds + Double(usec) / 1e6) }
        return max(0, (deadlines.min() ?? seconds + 1) - seconds)
    }

    private func wait(timeout: Double) {
        var fds: [pollfd] = []
        if let link { fds.append(pollfd(fd: link.fd, events: Int16(POLLIN) | (link.wantsWrite ? Int16(POLLOUT) : 0), revents: 0)) }
        if let bus { fds.append(pollfd(fd: bus.fileDescriptor, events: bus.pollEvents, revents: 0)) }
        _ = poll(&fds, nfds_t(fds.count), Int32((timeout * 1000).rounded(.up)))
        if let link {
            do {
                for message in try link.read() { handle(message) }
            } catch {
                self.link = nil
                failed("insetd", "lost insetd: \(error)")
                linkBackoff.failed(now: monotonicInstant().seconds)
                feed(.linkLost)
            }
        }
        if let bus {
            do { try bus.process() } catch {
                self.bus = nil
                if backend?.usesBus ?? false, machine.attached { feed(.oskDetached) }
                if configuration.backend == .auto { backend = nil }
                failed("bus", "lost the session bus: \(error)")
                busBackoff.failed(now: monotonicInstant().seconds)
            }
        }
    }
}

extension Instant {
    fileprivate var seconds: Double { Double(nanoseconds) / 1e9 }
}
