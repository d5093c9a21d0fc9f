import InsetCore
import InsetInput
import InsetProtocol
import InsetServer
import NIOCore

/// The `events` topic: after each event the core handles, the decisions it led
/// to (a device classified, tablet mode, the mode, a usable hardware keyboard,
/// the keyboard moving, an adjustment delivered), each with its cause and the
/// state after it, sent to the clients that subscribed.
///
/// It watches from outside: `DaemonCore` hands it the state before and after an
/// event and the outputs routed in between, so the core's logic does not change
/// for it, and with no subscriber it does nothing at all.
final class DecisionTimeline {
    private let outbox: any ClientOutbox
    /// The `events` subscribers (the server keeps the topic; this is only so no
    /// work is done while nobody listens).
    private var subscribers: Set<ClientID> = []
    private var outputs: [TimedOutput] = []

    init(outbox: any ClientOutbox) {
        self.outbox = outbox
    }

    var isActive: Bool { !subscribers.isEmpty }

    /// Adds a subscriber and sends it the state now, so a client that subscribes
    /// and then waits misses no change: every later change reaches it as an entry.
    func subscribe(_ client: ClientID, state: TimelineState, now: Instant) {
        subscribers.insert(client)
        let entry = TimelineEntry(at: now, decision: .subscribed, cause: .subscription, state: state)
        outbox.send(.event(entry), to: client)
    }

    func remove(_ client: ClientID) { subscribers.remove(client) }

    /// Outputs routed while the current event is handled.
    func note(_ routed: [TimedOutput]) {
        if isActive { outputs += routed }
    }

    /// Publishes the decisions one core event led to, and forgets its outputs.
    func publish(
        _ event: CoreEvent, before: TimelineState, after: TimelineState, configuration: PipelineConfiguration, now: Instant
    ) {
        defer { outputs = [] }
        guard isActive else { return }
        let entries = Self.entries(
            for: event, before: before, after: after, outputs: outputs, configuration: configuration, now: now)
        for entry in entries { outbox.publish(.event(entry), to: .events) }
    }

    /// The decisions, in the order a reader wants them: what the hardware or the
    /// client changed first, then what the policy made of it, then the keyboard
    /// and the views. Pure, for tests.
    static func entries(
        for event: CoreEvent, before: TimelineState, after: TimelineState, outputs: [TimedOutput],
        configuration: PipelineConfiguration, now: Instant
    ) -> [TimelineEntry] {
        let cause = cause(of: event)
        let isTick = if case .tick = event { true } else { false }
        var decisions: [(TimelineDecision, TimelineCause)] = []
        if case .input(let input) = event, let (name, device) = deviceEvent(input) {
            decisions.append((.device(event: name, device), cause))
        }
        if case .server(.request(_, let request)) = event, case .oskProblem(let bridge, let problem) = request.message {
            decisions.append((.oskProblem(bridge: bridge, problem: problem), cause))
        }
        if before.tabletMode != after.tabletMode { decisions.append((.tabletMode(after.tabletMode), cause)) }
        if before.mode != after.mode { decisions.append((.mode(after.mode), cause)) }
        let holdOff = TimelineCause.holdOffExpired(holdOff: configuration.policy.hardwareHoldOff)
        if before.hardwareKeyboard != after.hardwareKeyboard {
            decisions.append((.hardwareKeyboard(after.hardwareKeyboard), isTick ? holdOff : cause))
        }
        for timed in outputs {
            switch timed.output {
            // The decision, whoever hears it when; a held show's delivery to apps is none.
            case .keyboard(let note) where note.phase.isWill, .bridgeKeyboard(let note) where note.phase.isWill:
                let presentation = presentation(of: note, configuration: configuration.policy)
                decisions.append((.keyboard(presentation, phase: note.phase, frame: note.endFrame), isTick ? holdOff : cause))
            case .adjustment(let adjustment):
                let delivery = TimelineCause.filterDelivery(window: configuration.filterWindow)
                decisions.append(
                    (.adjustment(adjustment.view, additionalBottomInset: adjustment.additionalBottomInset), isTick ? delivery : cause))
            default:
                continue
            }
        }
        return decisions.map { TimelineEntry(at: now, decision: $0.0, cause: $0.1, state: after) }
    }

    /// A device input as the `device` message and timeline name it.
    static func deviceEvent(_ input: InputEvent) -> (String, WireDevice)? {
        switch input {
        case .keyboardAttached(let device): ("attached", DaemonCore.wire(device))
        case .keyboardDetached(let device): ("detached", DaemonCore.wire(device))
        case .deviceWatched(let device): ("watched", DaemonCore.wire(device))
        case .deviceIgnored(let device): ("ignored", DaemonCore.wire(device))
        case .deviceRemoved(let device): ("removed", DaemonCore.wire(device))
        case .tabletMode, .hotkey: nil
        }
    }

    static func cause(of event: CoreEvent) -> TimelineCause {
        switch event {
        case .input(let input):
            switch input {
            case .tabletMode(let on): .tabletSwitch(on: on)
            case .hotkey(let action): .hotkey(action: action.rawValue)
            default:
                {
                    guard let (name, device) = deviceEvent(input) else { preconditionFailure("every other input is a device's") }
                    return .device(event: name, TimelineDevice(device))
                }()
            }
        case .server(.request(let client, let request)):
            {
                let (message, view, detail) = request.message.timelineCause
                return .client(client, message: message, view: view, detail: detail)
            }()
        case .server(.joined(let client, _, _)): .client(client, message: "hello", view: nil, detail: nil)
        case .server(.left(let client)): .clientGone(client)
        // A deadline with nothing else to name: the filter's (entries of a
        // hold-off say so themselves).
        case .tick: .filterDelivery(window: .zero)
        case .reload: .reload
        }
    }

    /// How a keyboard at `frame` looks: hidden when it leaves, the accessory bar
    /// when it is the bar's height (and that is not the full keyboard's), else shown.
    static func presentation(of note: KeyboardNotification, configuration: KeyboardPolicyConfiguration) -> KeyboardPresentation {
        if note.phase == .willHide { return .hidden }
        return presentation(of: note.endFrame, screen: nil, configuration: configuration)
    }

    static func presentation(of frame: Rect?, screen: Size?, configuration: KeyboardPolicyConfiguration) -> KeyboardPresentation {
        guard let frame else { return .hidden }
        let bar = configuration.accessoryBarHeight
        let full = screen.map { configuration.keyboardHeight(for: Orientation(screen: $0)) }
        return bar > 0 && frame.height == bar && full != bar ? .bar : .shown
    }
}

extension DaemonCore {
    /// The state `insetctl wait` checks, from the policy and the device table.
    func timelineState(tabletMode: Bool, devices: Int) -> TimelineState {
        let policy = pipeline.policy
        return TimelineState(
            keyboard: DecisionTimeline.presentation(of: policy.frame, screen: policy.screen, configuration: policy.configuration),
            hardwareKeyboard: policy.hardwareKeyboardUsable, tabletMode: tabletMode, mode: policy.configuration.mode,
            devices: devices)
    }
}
