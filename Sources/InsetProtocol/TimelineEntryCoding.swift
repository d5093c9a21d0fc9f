import InsetCore

// A timeline entry on the wire, both ways: the fields `DaemonMessage.event`
// writes and `DaemonMessageDecoder` reads back. The decision's own fields sit
// beside `at`, `cause` and `state`, in Foundation's `.sortedKeys` order.

extension TimelineEntry {
    func write(to w: inout JSONStreamWriter) {
        let at = Int(self.at.nanoseconds)
        switch decision {
        case .adjustment(let view, let inset):
            w.field("additionalBottomInset", inset)
            w.field("at", at)
            w.field("cause", object: cause.write)
            w.field("client", view.client.rawValue)
            w.field("decision", "adjustment")
            w.field("state", object: state.write)
            w.field("type", "event")
            w.field("view", view.name)
        case .oskProblem(let bridge, let problem):
            w.field("at", at)
            w.field("bridge", bridge)
            w.field("cause", object: cause.write)
            w.field("decision", "osk-problem")
            if let problem { w.field("problem", problem) }
            w.field("state", object: state.write)
            w.field("type", "event")
        default:
            w.field("at", at)
            w.field("cause", object: cause.write)
            switch decision {
            case .device(let event, let device):
                w.field("decision", "device")
                w.field("device", device)
                w.field("event", event)
            case .mode(let mode):
                w.field("decision", "mode")
                w.field("mode", mode.rawValue)
            case .hardwareKeyboard(let usable):
                w.field("decision", "hardware-keyboard")
                w.field("hardwareKeyboard", usable)
            case .keyboard(let presentation, let phase, let frame):
                w.field("decision", "keyboard")
                w.field("frame", frame)
                w.field("keyboard", presentation.rawValue)
                w.field("phase", phase.rawValue)
            case .tabletMode: w.field("decision", "tablet-mode")
            case .subscribed: w.field("decision", "subscribed")
            case .adjustment, .oskProblem: preconditionFailure("written above")
            }
            w.field("state", object: state.write)
            if case .tabletMode(let on) = decision { w.field("tabletMode", on) }
            w.field("type", "event")
        }
    }
}

extension TimelineState {
    func write(to w: inout JSONStreamWriter) {
        w.field("devices", devices)
        w.field("hardwareKeyboard", hardwareKeyboard)
        w.field("keyboard", keyboard.rawValue)
        w.field("mode", mode.rawValue)
        w.field("tabletMode", tabletMode)
    }
}

extension TimelineCause {
    func write(to w: inout JSONStreamWriter) {
        switch self {
        case .subscription: w.field("kind", "subscribe")
        case .device(let event, let device):
            w.field("class", device.class)
            w.field("device", device.name)
            if let devnode = device.devnode { w.field("devnode", devnode) }
            w.field("event", event)
            w.field("kind", "device")
            w.field("syspath", device.syspath)
        case .tabletSwitch(let on):
            w.field("kind", "tablet-switch")
            w.field("on", on)
        case .hotkey(let action):
            w.field("action", action)
            w.field("kind", "hotkey")
        case .client(let client, let message, let view, let detail):
            w.field("client", client.rawValue)
            if let detail { w.field("detail", detail) }
            w.field("kind", "client")
            w.field("message", message)
            if let view { w.field("view", view) }
        case .clientGone(let client):
            w.field("client", client.rawValue)
            w.field("kind", "client-gone")
        case .holdOffExpired(let holdOff):
            w.field("holdOffMs", Int(holdOff.milliseconds))
            w.field("kind", "hold-off-expired")
        case .filterDelivery(let window):
            w.field("kind", "filter-delivery")
            w.field("windowMs", Int(window.milliseconds))
        case .reload: w.field("kind", "reload")
        }
    }
}

private enum EntryKey: String, CodingKey {
    case at, decision, cause, state, event, device, tabletMode, mode, hardwareKeyboard, keyboard, phase, frame, client
    case view, additionalBottomInset, bridge, problem
}

extension TimelineEntry: Decodable {
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: EntryKey.self)
        let decision: TimelineDecision
        switch try c.decode(String.self, forKey: .decision) {
        case "subscribed": decision = .subscribed
        case "device":
            decision = .device(
                event: try c.decode(String.self, forKey: .event), try c.decode(WireDevice.self, forKey: .device))
        case "tablet-mode": decision = .tabletMode(try c.decode(Bool.self, forKey: .tabletMode))
        case "mode": decision = .mode(try c.decode(KeyboardMode.self, forKey: .mode))
        case "hardware-keyboard": decision = .hardwareKeyboard(try c.decode(Bool.self, forKey: .hardwareKeyboard))
        case "keyboard":
            decision = .keyboard(
                try c.decode(KeyboardPresentation.self, forKey: .keyboard), phase: try c.decode(KeyboardPhase.self, forKey: .phase),
                frame: try c.decode(WireRect.self, forKey: .frame).rect)
        case "adjustment":
            decision = .adjustment(
                ViewID(client: ClientID(try c.decode(String.self, forKey: .client)), name: try c.decode(String.self, forKey: .view)),
                additionalBottomInset: try c.decode(Double.self, forKey: .additionalBottomInset))
        case "osk-problem":
            decision = .oskProblem(
                bridge: try c.decode(String.self, forKey: .bridge), problem: try c.decodeIfPresent(String.self, forKey: .problem))
        case let other:
            throw DecodingError.dataCorruptedError(forKey: .decision, in: c, debugDescription: "unknown decision \"\(other)\"")
        }
        self.init(
            at: Instant(nanoseconds: try c.decode(Int64.self, forKey: .at)), decision: decision,
            cause: try c.decode(TimelineCause.self, forKey: .cause), state: try c.decode(TimelineState.self, forKey: .state))
    }
}

extension TimelineCause: Decodable {
    private enum Key: String, CodingKey {
        case kind, event, device, syspath, `class`, devnode, on, action, client, message, view, detail, holdOffMs, windowMs
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Key.self)
        func text(_ key: Key) throws -> String { try c.decode(String.self, forKey: key) }
        switch try text(.kind) {
        case "subscribe": self = .subscription
        case "device":
            self = .device(
                event: try text(.event),
                TimelineDevice(
                    name: try text(.device), syspath: try text(.syspath), class: try text(.class),
                    devnode: try c.decodeIfPresent(String.self, forKey: .devnode)))
        case "tablet-switch": self = .tabletSwitch(on: try c.decode(Bool.self, forKey: .on))
        case "hotkey": self = .hotkey(action: try text(.action))
        case "client":
            self = .client(
                ClientID(try text(.client)), message: try text(.message),
                view: try c.decodeIfPresent(String.self, forKey: .view), detail: try c.decodeIfPresent(String.self, forKey: .detail))
        case "client-gone": self = .clientGone(ClientID(try text(.client)))
        case "hold-off-expired": self = .holdOffExpired(holdOff: .milliseconds(try c.decode(Int64.self, forKey: .holdOffMs)))
        case "filter-delivery": self = .filterDelivery(window: .milliseconds(try c.decode(Int64.self, forKey: .windowMs)))
        case "reload": self = .reload
        case let other:
            throw DecodingError.dataCorruptedError(forKey: .kind, in: c, debugDescription: "unknown cause \"\(other)\"")
        }
    }
}
