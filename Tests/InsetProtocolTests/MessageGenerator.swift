import InsetCore
import InsetProtocol

/// Random daemon messages and timeline entries of every kind, for the wire's
/// property tests: awkward numbers (fractions, -0, huge), names that need
/// escaping, optional fields present and absent. Durations are whole
/// milliseconds, the wire's precision for them.
struct MessageGenerator {
    var random: SplitMix64

    init(seed: UInt64) { random = SplitMix64(seed: seed) }

    mutating func pick<T>(_ values: [T]) -> T { values[Int(random.next() % UInt64(values.count))] }
    mutating func flag() -> Bool { random.next() % 2 == 0 }
    mutating func maybe<T>(_ value: T) -> T? { flag() ? value : nil }

    mutating func number() -> Double {
        switch random.next() % 5 {
        case 0: Double(Int(random.next() % 2000)) - 500
        case 1: Double(Int32(truncatingIfNeeded: random.next())) / 7
        case 2: -0.0
        case 3: Double(random.next() % 1000) / 4
        default: Double(bitPattern: random.next() & 0x7FEF_FFFF_FFFF_FFFF)  // finite, any size
        }
    }

    /// Sizes too may be anything: the daemon's lines are read as written.
    mutating func size() -> Double { number() }
    mutating func text() -> String { pick(["v", "sign \"up\"/\\ é", "tab\tline\n", "😀", "", "c12", "\u{1}\u{7f}"]) }
    mutating func rect() -> Rect { Rect(x: number(), y: number(), width: size(), height: size()) }
    mutating func insets() -> EdgeInsets { EdgeInsets(top: number(), left: number(), bottom: number(), right: number()) }
    mutating func animation() -> Animation {
        Animation(duration: .milliseconds(Int64(random.next() % 2000)), curve: pick(AnimationCurve.allCases))
    }
    mutating func id() -> RequestID? { pick([nil, .number(Int(Int32(truncatingIfNeeded: random.next()))), .string(text())]) }

    mutating func state() -> StateSnapshot {
        var state = StateSnapshot(
            keyboard: maybe(rect()), screen: Size(width: size(), height: size()), mode: pick(KeyboardMode.allCases),
            tabletMode: flag(), hardwareKeyboard: flag())
        state.frameSource = maybe("reported by \(text())")
        state.oskProblem = maybe(text())
        return state
    }

    mutating func device() -> WireDevice {
        WireDevice(
            name: text(), devnode: maybe("/dev/input/event\(random.next() % 40)"),
            class: pick(["keyboard-internal", "keyboard-external", "tablet-switch", "hotkeys", "ignored"]), external: flag(),
            reason: text(), vendorProduct: "05ac:024f", syspath: "/sys/devices/virtual/input/input\(random.next() % 99)")
    }

    mutating func message(client: ClientID) -> DaemonMessage {
        switch random.next() % 16 {
        case 0: return .welcome(version: 1, client: text(), state: state(), id: id())
        case 1:
            let note = KeyboardNotification(
                phase: pick(KeyboardPhase.allCases), beginFrame: rect(), endFrame: rect(), animation: animation(), focusOwner: nil)
            return .keyboard(note, isLocal: flag())
        case 2:
            let name = text()
            return .adjustment(
                view: name,
                ViewAdjustment(
                    view: ViewID(client: client, name: name), additionalBottomInset: number(), contentInset: insets(),
                    indicatorInsets: insets(), adjustedContentInset: insets(), contentSize: Size(width: size(), height: size()),
                    contentOffset: Point(x: number(), y: number()), alwaysBounceVertical: flag(), animation: animation()))
        case 3: return .device(event: pick(["attached", "detached", "watched", "ignored", "removed"]), device())
        case 4: return .policy(mode: pick(KeyboardMode.allCases), tabletMode: flag(), hardwareKeyboard: flag())
        case 5: return .status(id: id(), state: state(), clients: Int(random.next() % 1000), views: Int(random.next() % 9))
        case 6: return .devices(id: id(), (0..<Int(random.next() % 3)).map { _ in device() })
        case 7: return .ok(id: id())
        case 8: return .error(ProtocolError(pick(ErrorCode.allCases), text(), id: id()))
        case 9: return .bye(reason: pick(["shutdown", "hello-timeout", "too-many-connections"]))
        case 10:
            return .reloaded(
                id: id(), config: maybe("/etc/insetd/\(text())"), changed: (0..<Int(random.next() % 3)).map { _ in text() },
                restart: flag() ? [] : ["server.socket"])
        case 11: return .focusLost(view: text())
        case 12: return .rotate(direction: pick(RotationDirection.allCases))
        case 13: return .event(entry())
        case 14: return .placed(origin: Point(x: number(), y: number()))
        default: return .welcome(version: 1, client: "c\(random.next() % 9)", state: state())
        }
    }

    mutating func entry() -> TimelineEntry {
        let decision: TimelineDecision =
            switch random.next() % 8 {
            case 0: .subscribed
            case 1: .device(event: pick(["attached", "detached", "ignored"]), device())
            case 2: .tabletMode(flag())
            case 3: .mode(pick(KeyboardMode.allCases))
            case 4: .hardwareKeyboard(flag())
            case 5: .keyboard(pick(KeyboardPresentation.allCases), phase: pick(KeyboardPhase.allCases), frame: rect())
            case 6: .adjustment(ViewID(client: ClientID("c\(random.next() % 9)"), name: text()), additionalBottomInset: number())
            default: .oskProblem(bridge: pick(["squeekboard", "wvkbd"]), problem: maybe(text()))
            }
        let cause: TimelineCause =
            switch random.next() % 9 {
            case 0: .subscription
            case 1: .device(event: "attached", TimelineDevice(device()))
            case 2: .tabletSwitch(on: flag())
            case 3: .hotkey(action: pick(["toggle", "show", "rotate"]))
            case 4: .client(ClientID("c\(random.next() % 9)"), message: text(), view: maybe(text()), detail: maybe(text()))
            case 5: .clientGone(ClientID("c\(random.next() % 9)"))
            case 6: .holdOffExpired(holdOff: .milliseconds(Int64(random.next() % 5000)))
            case 7: .filterDelivery(window: .milliseconds(Int64(random.next() % 5000)))
            default: .reload
            }
        let state = TimelineState(
            keyboard: pick(KeyboardPresentation.allCases), hardwareKeyboard: flag(), tabletMode: flag(),
            mode: pick(KeyboardMode.allCases), devices: Int(random.next() % 50))
        return TimelineEntry(
            at: Instant(nanoseconds: Int64(random.next() % 1_000_000_000_000)), decision: decision, cause: cause, state: state)
    }
}
