import Foundation
import InsetProtocol
import Testing

@testable import InsetCore
@testable import InsetDaemon

/// The `events` topic's entries, from the pieces `DaemonCore` hands the
/// timeline: which decisions an event led to, their causes, and the wire form.
@Suite struct DecisionTimelineTests {
    static let configuration = PipelineConfiguration()  // bar 44, hold-off 200 ms, window 100 ms
    static let animation = Animation(duration: .milliseconds(250), curve: .easeInOut)

    static func state(_ keyboard: KeyboardPresentation, hardware: Bool, tablet: Bool = false, devices: Int = 1) -> TimelineState {
        TimelineState(keyboard: keyboard, hardwareKeyboard: hardware, tabletMode: tablet, mode: .auto, devices: devices)
    }

    static func note(_ phase: KeyboardPhase, _ end: Rect) -> TimedOutput {
        TimedOutput(
            at: Instant(nanoseconds: 0),
            output: .keyboard(
                KeyboardNotification(
                    phase: phase, beginFrame: Rect(x: 0, y: 800, width: 1280, height: end.height), endFrame: end,
                    animation: animation, focusOwner: ClientID("c1"))))
    }

    @Test func aHoldOffExpiringNamesItselfAsTheCause() {
        // A USB keyboard was plugged 200 ms ago with a field focused: the tick
        // settles the hardware and shrinks the full keyboard to the bar.
        let bar = Rect(x: 0, y: 756, width: 1280, height: 44)
        let entries = DecisionTimeline.entries(
            for: .tick, before: Self.state(.shown, hardware: false), after: Self.state(.bar, hardware: true),
            outputs: [Self.note(.willChangeFrame, bar), Self.note(.didChangeFrame, bar)],
            configuration: Self.configuration, now: Instant(nanoseconds: 1_500_000_000))
        #expect(entries.map(\.decision) == [.hardwareKeyboard(true), .keyboard(.bar, phase: .willChangeFrame, frame: bar)])
        #expect(entries.map(\.cause) == [.holdOffExpired(holdOff: .milliseconds(200)), .holdOffExpired(holdOff: .milliseconds(200))])
        #expect(entries.allSatisfy { $0.state == Self.state(.bar, hardware: true) })
    }

    @Test func aHotkeyIsNamedByItsActionOnly() {
        let entries = DecisionTimeline.entries(
            for: .input(.hotkey(.toggle)), before: Self.state(.bar, hardware: true), after: Self.state(.hidden, hardware: true),
            outputs: [Self.note(.willHide, Rect(x: 0, y: 800, width: 1280, height: 44))],
            configuration: Self.configuration, now: Instant(nanoseconds: 42))
        #expect(entries.count == 1)
        #expect(entries.first?.cause == .hotkey(action: "toggle"))
        #expect(entries.first?.decision == .keyboard(.hidden, phase: .willHide, frame: Rect(x: 0, y: 800, width: 1280, height: 44)))
    }

    @Test func nothingChangedMeansNoEntry() {
        let entries = DecisionTimeline.entries(
            for: .tick, before: Self.state(.hidden, hardware: false), after: Self.state(.hidden, hardware: false),
            outputs: [], configuration: Self.configuration, now: .zero)
        #expect(entries.isEmpty)
    }

    static let presentations: [(Rect?, KeyboardPresentation)] = [
        (Rect(x: 0, y: 756, width: 1280, height: 44), .bar),
        (Rect(x: 0, y: 464, width: 1280, height: 336), .shown),
        (nil, .hidden),
    ]

    @Test(arguments: presentations)
    func presentationFollowsTheFrame(frame: Rect?, expected: KeyboardPresentation) {
        let presentation = DecisionTimeline.presentation(
            of: frame, screen: Size(width: 1280, height: 800), configuration: Self.configuration.policy)
        #expect(presentation == expected)
    }

    @Test func wireFormIsOneSortedJSONLine() {
        let entry = TimelineEntry(
            at: Instant(nanoseconds: 1_500_000_123), decision: .hardwareKeyboard(true),
            cause: .holdOffExpired(holdOff: .milliseconds(200)), state: Self.state(.bar, hardware: true))
        let line = String(decoding: DaemonMessage.event(entry).lineBytes(), as: UTF8.self)
        #expect(
            line == #"{"at":1500000123,"cause":{"holdOffMs":200,"kind":"hold-off-expired"},"decision":"hardware-keyboard","hardwareKeyboard":true,"#
                + #""state":{"devices":1,"hardwareKeyboard":true,"keyboard":"bar","mode":"auto","tabletMode":false},"type":"event"}"# + "\n")
    }

    @Test func clientCausesNameTheMessageAndView() {
        let field = Rect(x: 0, y: 600, width: 300, height: 44)
        #expect(ClientMessage.focus(view: "signup", field: field).timelineCause == ("focus", "signup", nil) as (String, String?, String?))
        #expect(ClientMessage.command(.toggle).timelineCause == ("command", nil, "toggle") as (String, String?, String?))
        #expect(ClientMessage.policy(mode: .never).timelineCause == ("policy", nil, "never") as (String, String?, String?))
    }
}
