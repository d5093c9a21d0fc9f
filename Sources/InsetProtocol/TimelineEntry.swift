import InsetCore

/// What a tester waits for: the keyboard as a person sees it. `bar` is the
/// accessory bar alone (a hardware keyboard is usable), `shown` the full keyboard.
public enum KeyboardPresentation: String, Hashable, Sendable, CaseIterable, Decodable {
    case shown, bar, hidden
}

/// The daemon's state after a decision, in the terms `insetctl wait` checks.
public struct TimelineState: Hashable, Sendable, Decodable {
    public var keyboard: KeyboardPresentation
    public var hardwareKeyboard: Bool
    public var tabletMode: Bool
    public var mode: KeyboardMode
    /// Input devices insetd knows (as `insetctl devices` lists them).
    public var devices: Int

    public init(keyboard: KeyboardPresentation, hardwareKeyboard: Bool, tabletMode: Bool, mode: KeyboardMode, devices: Int) {
        self.keyboard = keyboard
        self.hardwareKeyboard = hardwareKeyboard
        self.tabletMode = tabletMode
        self.mode = mode
        self.devices = devices
    }
}

/// A device as a timeline cause names it: enough to tell which one, where the
/// decision that classifies it (`TimelineDecision.device`) carries it whole.
public struct TimelineDevice: Hashable, Sendable {
    public var name: String
    public var syspath: String
    /// As `WireDevice.class`.
    public var `class`: String
    public var devnode: String?

    public init(name: String, syspath: String, class: String, devnode: String?) {
        self.name = name
        self.syspath = syspath
        self.class = `class`
        self.devnode = devnode
    }

    public init(_ device: WireDevice) {
        self.init(name: device.name, syspath: device.syspath, class: device.class, devnode: device.devnode)
    }
}

/// Why a decision was taken. Names devices, hotkey actions, clients and views;
/// never a key a person typed.
public enum TimelineCause: Hashable, Sendable {
    /// The subscription itself: the entry reports the state at that moment.
    case subscription
    /// udev reported a device (`attached`, `detached`, `watched`, `ignored`, `removed`).
    case device(event: String, TimelineDevice)
    case tabletSwitch(on: Bool)
    case hotkey(action: String)
    /// A client's message (`focus`, `blur`, `register`, `command`, `policy`, ...).
    case client(ClientID, message: String, view: String?, detail: String?)
    case clientGone(ClientID)
    /// A hardware change held long enough to count.
    case holdOffExpired(holdOff: Duration)
    /// The keyboard frame filter's window ended and it delivered the last frame.
    case filterDelivery(window: Duration)
    case reload
}

/// What was decided.
public enum TimelineDecision: Hashable, Sendable {
    /// The first entry of a subscription: nothing was decided, the state is current.
    case subscribed
    /// A device was classified (and counts as a keyboard, or is watched, or ignored) or went away.
    case device(event: String, WireDevice)
    case tabletMode(Bool)
    case mode(KeyboardMode)
    /// A usable hardware keyboard appeared or went (after the hold-off).
    case hardwareKeyboard(Bool)
    /// The keyboard starts to move: to `presentation`, ending at `frame`.
    case keyboard(KeyboardPresentation, phase: KeyboardPhase, frame: Rect)
    /// A view's adjustment went to its client.
    case adjustment(ViewID, additionalBottomInset: Double)
    /// An OSK bridge said why the real keyboard is not on the screen (nil: no problem any more).
    case oskProblem(bridge: String, problem: String?)
}

/// One line of the `events` topic: at the daemon's monotonic time (nanoseconds
/// since it started), a decision, its cause, and the state after it. A tester's
/// "why did the keyboard show?" is answered by reading these in order.
public struct TimelineEntry: Hashable, Sendable {
    public var at: Instant
    public var decision: TimelineDecision
    public var cause: TimelineCause
    public var state: TimelineState

    public init(at: Instant, decision: TimelineDecision, cause: TimelineCause, state: TimelineState) {
        self.at = at
        self.decision = decision
        self.cause = cause
        self.state = state
    }
}

extension ClientMessage {
    /// The message's name, view and detail as a timeline names a client cause.
    public var timelineCause: (message: String, view: String?, detail: String?) {
        switch self {
        case .register(let wire): ("register", wire.view, nil)
        case .update(let wire): ("update", wire.view, nil)
        case .unregister(let view): ("unregister", view, nil)
        case .focus(let view, _): ("focus", view, nil)
        case .blur(let view): ("blur", view, nil)
        case .scroll(let view, _, _): ("scroll", view, nil)
        case .transition(_, let screen): ("transition", nil, screen == nil ? "navigation" : "rotation")
        case .dismiss(let view): ("dismiss", view, nil)
        case .window: ("window", nil, nil)
        case .command(let command): ("command", nil, command.rawValue)
        case .policy(let mode): ("policy", nil, mode.rawValue)
        case .oskVisibility(_, let visible): ("oskVisibility", nil, visible ? "shown" : "hidden")
        case .oskRunning(_, let running): ("oskRunning", nil, running ? "running" : "ended")
        case .oskProblem: ("oskProblem", nil, nil)
        case .focusedWindow: ("focusedWindow", nil, nil)
        default: ("other", nil, nil)
        }
    }
}

extension Duration {
    var milliseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1000 + attoseconds / 1_000_000_000_000_000
    }
}
