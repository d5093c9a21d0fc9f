import DBus
import Foundation
import InsetCore
import InsetProtocol

/// Set from the SIGTERM/SIGINT handler; the loop checks it after every poll.
nonisolated(unsafe) private var stopRequested: sig_atomic_t = 0

/// What the bridge is told to do.
public struct BridgeConfiguration: Sendable {
    public var backend: BackendKind
    public var socketPath: String
    public var options: BackendOptions
    public var log: BridgeLog

    public init(backend: BackendKind, socketPath: String, options: BackendOptions, log: BridgeLog) {
        self.backend = backend
        self.socketPath = socketPath
        self.options = options
        self.log = log
    }
}

/// The session-side bridge: follows insetd's keyboard and makes the real OSK
/// obey it, and tells insetd when the OSK changed by itself or its user and what
/// its real frame is. One thread, one poll loop; every peer (insetd, the session
/// bus, the OSK) may be missing or go away, and each is retried on its own
/// back-off with one log line per distinct failure.
public final class Bridge {
    private let configuration: BridgeConfiguration
    private var log: BridgeLog { configuration.log }

    private var link: InsetdLink?
    private var linkBackoff = Backoff()
    private var bus: DBusConnection?
    private var busBackoff = Backoff()
    private var backend: OSKBackend?
    private var attached = false
    private var backendBackoff = Backoff()
    /// The last failure logged per peer, so a retry that fails the same way stays quiet.
    private var lastFailure: [String: String] = [:]
    /// Set by the OSK's signals (from inside the bus's `process()`).
    private var oskChanged = false

    // insetd's view of the keyboard.
    private var screen = Size(width: 0, height: 0)
    private var keyboardShown = false
    private var hardwareKeyboard = false
    private var hardwareApplied: Bool?

    // The real OSK.
    private var applied: Bool?
    private var observed: Bool?
    private let sway = SwayIPC()
    private var baselineGap: Double?
    private var lastGap: Double?
    private var measureUntil: Double = 0
    private var realFrame: Rect?
    private var reportedFrame: Rect?

    public init(configuration: BridgeConfiguration) {
        self.configuration = configuration
        if configuration.backend != .auto {
            backend = Backends.make(configuration.backend, options: configuration.options, log: configuration.log)
        }
    }

    /// Runs until SIGTERM or SIGINT, then puts back the settings it changed.
    public func run() {
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
            step(now: monotonicSeconds())
            wait(timeout: nextTimeout(now: monotonicSeconds()))
        }
        backend?.restore()
        if let backend, attached, applied == true { try? backend.setVisible(false) }
        log.info("stopped")
    }

    /// Says `message` once per distinct failure of `peer`.
    private func failed(_ peer: String, _ message: String) {
        guard lastFailure[peer] != message else { return }
        lastFailure[peer] = message
        log.info("\(message); retrying with back-off")
    }

    private func recovered(_ peer: String, _ message: String) {
        lastFailure[peer] = nil
        log.info(message)
    }

    // MARK: - One turn of the loop

    private func step(now: Double) {
        connectInsetd(now: now)
        connectBus(now: now)
        attachBackend(now: now)
        observe(now: now)
        apply()
        measure(now: now)
        link?.flush()
    }

    private func connectInsetd(now: Double) {
        guard link == nil, now >= linkBackoff.next else { return }
        do {
            link = try InsetdLink(path: configuration.socketPath, client: "insetd-osk/\(backend?.name ?? "auto")")
            linkBackoff.reset()
            recovered("insetd", "connected to insetd at \(configuration.socketPath)")
        } catch {
            failed("insetd", "cannot reach insetd: \(error)")
            linkBackoff.failed(now: now)
        }
    }

    private func connectBus(now: Double) {
        let needsBus = backend?.usesBus ?? true
        guard needsBus, bus == nil, now >= busBackoff.next else { return }
        do {
            bus = try DBusConnection.session()
            busBackoff.reset()
            recovered("bus", "connected to the session bus")
        } catch {
            failed("bus", "cannot reach the session bus: \(error)")
            busBackoff.failed(now: now)
        }
    }

    private func attachBackend(now: Double) {
        guard !attached, now >= backendBackoff.next else { return }
        if configuration.backend == .auto, backend == nil {
            guard let kind = Backends.detect(bus: bus, options: configuration.options) else {
                failed("osk", "no on-screen keyboard found (squeekboard, KWin, wvkbd, GNOME)")
                backendBackoff.failed(now: now)
                return
            }
            backend = Backends.make(kind, options: configuration.options, log: log)
        }
        guard let backend else { return }
        if backend.usesBus, bus == nil { return }
        do {
            try backend.attach(bus: backend.usesBus ? bus : nil) { [weak self] in self?.oskChanged = true }
            attached = true
            backendBackoff.reset()
            // Whatever the OSK shows now, it gets insetd's decision again.
            applied = nil
            observed = nil
            hardwareApplied = nil
            oskChanged = true
            recovered("osk", "driving \(backend.name)")
            reportConfiguredFrame()
        } catch {
            failed("osk", "\(error)")
            backendBackoff.failed(now: now)
        }
    }

    private func detach(_ error: OSKError) {
        attached = false
        if configuration.backend == .auto { backend = nil }
        failed("osk", "\(error)")
        backendBackoff.failed(now: monotonicSeconds())
    }

    // MARK: - insetd → OSK

    /// The OSK shows when insetd shows a keyboard and no hardware keyboard is
    /// usable (then insetd's frame is at most an accessory bar, drawn by the app).
    /// The user's (or the OSK's own) last show/hide, which stands, even against
    /// a hardware keyboard, until insetd's keyboard goes the other way.
    private var userChoice: Bool?

    private var desired: Bool { userChoice ?? (keyboardShown && !hardwareKeyboard) }

    private func apply() {
        guard let backend, attached, link != nil else { return }
        if hardwareApplied != hardwareKeyboard {
            backend.hardwareKeyboard(hardwareKeyboard)
            hardwareApplied = hardwareKeyboard
        }
        guard applied != desired else { return }
        do {
            try backend.setVisible(desired)
            log.trace("\(backend.name): \(desired ? "show" : "hide")")
            applied = desired
            if desired { measureUntil = monotonicSeconds() + 2 }
        } catch {
            if error.absent { detach(error) } else { failed("osk", "\(error)") }
        }
    }

    private func handle(_ message: DaemonMessage) {
        switch message {
        case .welcome(_, _, let state, _):
            screen = state.screen.size
            keyboardShown = state.keyboard != nil
            hardwareKeyboard = state.hardwareKeyboard
            userChoice = nil
            // A restarted insetd knows nothing of the real frame yet.
            reportedFrame = nil
            reportConfiguredFrame()
            if let realFrame { report(frame: realFrame) }
        case .keyboard(let note, _):
            switch note.phase {
            case .willShow, .didShow, .willChangeFrame, .didChangeFrame: keyboardShown = true
            case .willHide, .didHide: keyboardShown = false
            }
            if let choice = userChoice, choice != keyboardShown { userChoice = nil }
        case .policy(_, _, let usable):
            hardwareKeyboard = usable
        case .error(let error):
            log.info("insetd refused a report: \(error)")
        case .bye(let reason):
            log.info("insetd is going away (\(reason))")
        default:
            break
        }
    }

    // MARK: - OSK → insetd

    /// Reads the OSK's visibility (its own report, else the compositor's usable
    /// area) and reports a change insetd did not ask for.
    private func observe(now: Double) {
        guard let backend, attached else { return }
        var visible: Bool?
        // A bus OSK says when it changed; the others are asked every turn (cheap).
        if oskChanged || !backend.usesBus {
            oskChanged = false
            do { visible = try backend.visible() } catch {
                if error.absent { return detach(error) }
                failed("osk", "\(error)")
            }
            if visible == false { _ = readGap() }  // hidden: the baseline of the usable area
        } else {
            return
        }
        if visible == nil, let gap = readGap(), let baselineGap { visible = gap > baselineGap + 0.5 }
        guard let visible, visible != observed else { return }
        let previous = observed
        observed = visible
        if visible { measureUntil = now + 2 }
        // The first reading, or the OSK doing what it was told: nothing to report.
        guard previous != nil, let applied, visible != applied else { return }
        log.info("\(backend.name) was \(visible ? "shown" : "hidden") by itself or its user")
        self.applied = visible
        // insetd will follow (show/hide until the next focus change); until its
        // notification arrives, do not undo what the user just did.
        keyboardShown = visible
        userChoice = visible
        link?.reportVisibility(bridge: backend.name, visible: visible)
    }

    private func readGap() -> Double? {
        guard let sway, let area = try? sway.usableArea() else { return nil }
        if baselineGap == nil || area.bottomGap < baselineGap! { baselineGap = area.bottomGap }
        swayOutput = area.output
        return area.bottomGap
    }

    private var swayOutput: Size?

    /// While the OSK settles after showing, reads its exclusive zone until two
    /// readings agree, and reports that as the real frame.
    private func measure(now: Double) {
        guard let backend, attached, now < measureUntil, observed == true || applied == true else { return }
        guard let gap = readGap(), let baselineGap, let output = swayOutput, gap > baselineGap + 0.5 else { return }
        defer { lastGap = gap }
        guard gap == lastGap, screen.width > 0, output.height > 0 else { return }
        let scaleX = screen.width / output.width
        let scaleY = screen.height / output.height
        let frame = Rect(
            x: 0, y: (output.height - gap) * scaleY, width: output.width * scaleX, height: (gap - baselineGap) * scaleY)
        realFrame = frame
        measureUntil = 0
        if frame != reportedFrame { log.info("\(backend.name)'s real frame: \(frame) (from sway's usable area)") }
        report(frame: frame)
    }

    /// wvkbd's `-H`/`-L`: the frame is known before it ever shows.
    private func reportConfiguredFrame() {
        guard let backend, attached, screen.width > 0 else { return }
        let landscape = screen.width > screen.height
        guard let height = backend.configuredHeight(landscape: landscape) else { return }
        report(frame: Rect(x: 0, y: screen.height - height, width: screen.width, height: height))
    }

    private func report(frame: Rect) {
        guard let backend, let link, frame != reportedFrame else { return }
        reportedFrame = frame
        link.reportFrame(bridge: backend.name, frame: frame)
    }

    // MARK: - Waiting

    private func nextTimeout(now: Double) -> Double {
        var deadlines: [Double] = [now + 1]
        if link == nil { deadlines.append(linkBackoff.next) }
        if bus == nil, backend?.usesBus ?? true { deadlines.append(busBackoff.next) }
        if !attached { deadlines.append(backendBackoff.next) }
        if now < measureUntil { deadlines.append(now + 0.05) }
        // Without a visibility of its own (wvkbd), the OSK is watched through sway.
        if attached, sway != nil, backend?.usesBus == false { deadlines.append(now + 0.1) }
        if let usec = bus?.timeoutMicroseconds { deadlines.append(now + Double(usec) / 1e6) }
        return max(0, (deadlines.min() ?? now + 1) - now)
    }

    private func wait(timeout: Double) {
        var fds: [pollfd] = []
        if let link { fds.append(pollfd(fd: link.fd, events: Int16(POLLIN) | (link.wantsWrite ? Int16(POLLOUT) : 0), revents: 0)) }
        if let bus { fds.append(pollfd(fd: bus.fileDescriptor, events: bus.pollEvents, revents: 0)) }
        _ = poll(&fds, nfds_t(fds.count), Int32(timeout * 1000))
        if let link {
            do {
                for message in try link.read() { handle(message) }
            } catch {
                self.link = nil
                failed("insetd", "lost insetd: \(error)")
                linkBackoff.failed(now: monotonicSeconds())
            }
        }
        if let bus {
            do { try bus.process() } catch {
                self.bus = nil
                if backend?.usesBus ?? false { attached = false }
                if configuration.backend == .auto { backend = nil }
                failed("bus", "lost the session bus: \(error)")
                busBackoff.failed(now: monotonicSeconds())
            }
        }
    }
}
