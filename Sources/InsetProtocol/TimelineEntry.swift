import InsetCore

/// What a tester waits for: the keyboard as a person sees it. `bar` is the
/// accessory bar alone (a hardware keyboard is usable), `shown` the full keyboard.
public enum KeyboardPresentation: String, Hashable, Sendable, CaseIterable {
    case shown, bar, hidden
}

/// The daemon's state after a decision, in the terms `insetctl wait` checks.
public struct TimelineState: Hashable, Sendable {
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

    var json: JSONValue {
        .object([
            "keyboard": .string(keyboard.rawValue), "hardwareKeyboard": .bool(hardwareKeyboard),
            "tabletMode": .bool(tabletMode), "mode": .string(mode.rawValue), "devices": .integer(devices),
        ])
    }
}

/// Why a decision was taken. Names devices, hotkey actions, clients and views;
/// never a key a person typed.
public enum TimelineCause: Hashable, Sendable {
    /// The subscription itself: the entry reports the state at that moment.
    case subscription
    /// udev reported a device (`attached`, `detached`, `watched`, `ignored`, `removed`).
    case device(event: String, WireDevice)
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

    var json: JSONValue {
        var object: JSONObject
        switch self {
        case .subscription: object = ["kind": "subscribe"]
        case .device(let event, let device):
            object = [
                "kind": "device", "event": .string(event), "device": .string(device.name), "syspath": .string(device.syspath),
                "class": .string(device.class),
            ]
            if let devnode = device.devnode { object["devnode"] = .string(devnode) }
        case .tabletSwitch(let on): object = ["kind": "tablet-switch", "on": .bool(on)]
        case .hotkey(let action): object = ["kind": "hotkey", "action": .string(action)]
        case .client(let client, let message, let view, let detail):
            object = ["kind": "client", "client": .string(client.rawValue), "message": .string(message)]
            if let view { object["view"] = .string(view) }
            if let detail { object["detail"] = .string(detail) }
        case .clientGone(let client): object = ["kind": "client-gone", "client": .string(client.rawValue)]
        case .holdOffExpired(let holdOff): object = ["kind": "hold-off-expired", "holdOffMs": .integer(Int(holdOff.milliseconds))]
        case .filterDelivery(let window): object = ["kind": "filter-delivery", "windowMs": .integer(Int(window.milliseconds))]
        case .reload: object = ["kind": "reload"]
        }
        return .object(object)
    }
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

    /// `{"type":"event","at":NS,"decision":...,"cause":{...},"state":{...}}` and a newline.
    public func lineBytes() -> [UInt8] {
        var object: JSONObject = [
            "type": "event", "at": .integer(Int(at.nanoseconds)), "cause": cause.json, "state": state.json,
        ]
        switch decision {
        case .subscribed: object["decision"] = "subscribed"
        case .device(let event, let device):
            object["decision"] = "device"
            object["event"] = .string(event)
            object["device"] = device.json
        case .tabletMode(let on):
            object["decision"] = "tablet-mode"
            object["tabletMode"] = .bool(on)
        case .mode(let mode):
            object["decision"] = "mode"
            object["mode"] = .string(mode.rawValue)
        case .hardwareKeyboard(let usable):
            object["decision"] = "hardware-keyboard"
            object["hardwareKeyboard"] = .bool(usable)
        case .keyboard(let presentation, let phase, let frame):
            object["decision"] = "keyboard"
            object["keyboard"] = .string(presentation.rawValue)
            object["phase"] = .string(phase.rawValue)
            object["frame"] = WireRect(frame).json
        case .adjustment(let view, let inset):
            object["decision"] = "adjustment"
            object["client"] = .string(view.client.rawValue)
            object["view"] = .string(view.name)
            object["additionalBottomInset"] = .number(inset)
        case .oskProblem(let bridge, let problem):
            object["decision"] = "osk-problem"
            object["bridge"] = .string(bridge)
            if let problem { object["problem"] = .string(problem) }
        }
        return jsonLineBytes(object)
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
        case .oskProblem: ("oskProblem", nil, nil)
        default: ("other", nil, nil)
        }
    }
}

extension Duration {
    fileprivate var milliseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1000 + attoseconds / 1_000_000_000_000_000
    }
}
