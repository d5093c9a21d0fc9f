import InsetCore
import Testing

@testable import InsetOSK

/// insetd-osk's decisions as timelines: events at given milliseconds, and the
/// actions and next wake each must give. Expected times are derived by hand
/// from `BridgeTiming`'s defaults: confirm delays 80, 200, 400, 800 ms; settle
/// 500 ms; user-hide hold 250 ms; full-screen check every 1000 ms.
@Suite struct BridgeMachineTests {
    /// One line of a timeline: at `ms`, `event` gives exactly `actions` and
    /// `wake` (and `readArea`, where the timeline checks reads of sway's usable area).
    struct Line: Sendable {
        var ms: Int64
        var event: BridgeEvent
        var actions: [BridgeAction]
        var wake: Int64?
        var readArea: Int64?
    }

    static let screen = Size(width: 390, height: 844)
    static let problemNotShown = "squeekboard did not show after 4 attempts"
    static let fullscreenProblem =
        "squeekboard is shown under the full-screen window chromium, which sway draws over top-layer surfaces: "
        + "use a maximized or app window, or an OSK on the overlay layer"

    /// insetd connected with its keyboard hidden, squeekboard attached and seen hidden.
    static let start: [Line] = [
        Line(ms: 0, event: .linkConnected(screen: screen, keyboardShown: false, hardwareKeyboard: false), actions: [], wake: nil),
        Line(
            ms: 0, event: .oskAttached(name: "squeekboard", observable: true, configured: nil),
            actions: [.setHardwareKeyboard(false), .setOSKVisible(false)], wake: nil),
        Line(ms: 0, event: .oskObserved(visible: false), actions: [], wake: nil),
    ]

    /// A focus at 1000 ms that squeekboard confirms 10 ms later.
    static let confirmed: [Line] = start + [
        Line(ms: 1000, event: .keyboard(shown: true), actions: [.setOSKVisible(true)], wake: 1080),
        Line(
            ms: 1010, event: .oskObserved(visible: true),
            actions: [.trace("squeekboard shown (confirmed at attempt 1)"), .checkFullscreen], wake: 2010),
        Line(ms: 1010, event: .fullscreen(window: nil), actions: [], wake: 2010),
    ]

    /// Feeds `lines` to a new machine; `checkingReads`: each line's `readArea` is expected too.
    static func run(_ lines: [Line], checkingReads: Bool = false) {
        var machine = BridgeMachine()
        for line in lines {
            let step = machine.handle(line.event, now: .milliseconds(line.ms))
            // What the OSK's animation is told once a link has its own tests (BridgeAnimationTests).
            let actions = step.actions.filter { if case .reportAnimation = $0 { false } else { true } }
            #expect(actions == line.actions, "at \(line.ms) ms, \(line.event)")
            #expect(step.wake == line.wake.map { .milliseconds($0) }, "wake at \(line.ms) ms, \(line.event)")
            if checkingReads {
                #expect(step.readArea == line.readArea.map { .milliseconds($0) }, "read at \(line.ms) ms, \(line.event)")
            }
        }
    }

    /// a show dropped without a signal (SetVisible just before the text-input change), asked again at 80 ms
    static let droppedSilently: [Line] = start + [
        Line(ms: 1000, event: .keyboard(shown: true), actions: [.setOSKVisible(true)], wake: 1080),
        Line(
            ms: 1080, event: .tick,
            actions: [.trace("squeekboard not shown yet: asking again (attempt 2)"), .setOSKVisible(true)], wake: 1280),
        Line(
            ms: 1090, event: .oskObserved(visible: true),
            actions: [.trace("squeekboard shown (confirmed at attempt 2)"), .checkFullscreen], wake: 2090),
    ]

    /// a show dropped right after it appeared is asserted again at once, not taken for the user's hide
    static let droppedRightAfterAppearing: [Line] = confirmed + [
        Line(
            ms: 1015, event: .oskObserved(visible: false),
            actions: [
                .trace("squeekboard hid again right after showing: asserting the show again"),
                .trace("squeekboard not shown yet: asking again (attempt 2)"), .setOSKVisible(true),
            ], wake: 1215),
        Line(
            ms: 1030, event: .oskObserved(visible: true),
            actions: [.trace("squeekboard shown (confirmed at attempt 2)"), .checkFullscreen], wake: 2030),
    ]

    /// a show never confirmed: four attempts, then insetd is told why and that it is hidden
    static let neverConfirmed: [Line] = start + [
        Line(ms: 1000, event: .keyboard(shown: true), actions: [.setOSKVisible(true)], wake: 1080),
        Line(
            ms: 1080, event: .tick,
            actions: [.trace("squeekboard not shown yet: asking again (attempt 2)"), .setOSKVisible(true)], wake: 1280),
        Line(
            ms: 1280, event: .tick,
            actions: [.trace("squeekboard not shown yet: asking again (attempt 3)"), .setOSKVisible(true)], wake: 1680),
        Line(
            ms: 1680, event: .tick,
            actions: [.trace("squeekboard not shown yet: asking again (attempt 4)"), .setOSKVisible(true)], wake: 2480),
        Line(
            ms: 2480, event: .tick,
            actions: [
                .log(problemNotShown + "; insetd hides its keyboard so that views are not padded for it"),
                .reportProblem(problemNotShown), .reportVisibility(false), .setOSKVisible(false),
            ], wake: nil),
        // insetd follows; nothing more is asked of the OSK.
        Line(ms: 2500, event: .keyboard(shown: false), actions: [], wake: nil),
        // The next focus tries again; a confirmed show clears the problem.
        Line(ms: 5000, event: .keyboard(shown: true), actions: [.setOSKVisible(true)], wake: 5080),
        Line(
            ms: 5010, event: .oskObserved(visible: true),
            actions: [.trace("squeekboard shown (confirmed at attempt 1)"), .checkFullscreen, .reportProblem(nil)],
            wake: 6010),
    ]

    /// the user's own hide of a settled keyboard stands: reported after the hold, not shown again
    static let userHide: [Line] = confirmed + [
        Line(ms: 2000, event: .oskObserved(visible: false), actions: [], wake: 2250),
        Line(
            ms: 2250, event: .tick,
            actions: [.log("squeekboard was hidden by itself or its user"), .reportVisibility(false)], wake: nil),
        Line(ms: 2300, event: .keyboard(shown: false), actions: [], wake: nil),
        Line(ms: 3000, event: .tick, actions: [], wake: nil),
        // A later focus shows it again.
        Line(ms: 4000, event: .keyboard(shown: true), actions: [.setOSKVisible(true)], wake: 4080),
    ]

    /// the focus moves with the keyboard up (insetd says shown again): squeekboard's hide at the app's text-input change is a drop
    static let focusMoved: [Line] = confirmed + [
        Line(ms: 2010, event: .tick, actions: [.checkFullscreen], wake: 3010),
        Line(ms: 2010, event: .fullscreen(window: nil), actions: [], wake: 3010),
        // Settled since 1010 + 500; insetd restates the show at 2500 (the focus moved).
        Line(ms: 2500, event: .keyboard(shown: true), actions: [], wake: 3010),
        // 280 ms later, within 2500 + 500: a drop, asked again at once (no hold, nothing reported).
        Line(
            ms: 2780, event: .oskObserved(visible: false),
            actions: [
                .trace("squeekboard hid again right after showing: asserting the show again"),
                .trace("squeekboard not shown yet: asking again (attempt 2)"), .setOSKVisible(true),
            ], wake: 2980),
        Line(
            ms: 2800, event: .oskObserved(visible: true),
            actions: [.trace("squeekboard shown (confirmed at attempt 2)"), .checkFullscreen], wake: 3800),
    ]

    /// squeekboard hiding on blur while insetd hides anyway is not news
    static let hideOnBlur: [Line] = confirmed + [
        Line(ms: 2000, event: .oskObserved(visible: false), actions: [], wake: 2250),
        Line(ms: 2100, event: .keyboard(shown: false), actions: [.setOSKVisible(false)], wake: nil),
        Line(ms: 2250, event: .tick, actions: [], wake: nil),
    ]

    /// a hide within the settle time of the last show is a drop, asserted again
    static let hideWithinSettle: [Line] = confirmed + [
        Line(
            ms: 1400, event: .oskObserved(visible: false),
            actions: [
                .trace("squeekboard hid again right after showing: asserting the show again"),
                .trace("squeekboard not shown yet: asking again (attempt 2)"), .setOSKVisible(true),
            ], wake: 1600),
    ]

    /// the OSK crashes while shown and returns: shown again at once
    static let crashAndReturn: [Line] = confirmed + [
        // Settled, so the crash starts a new episode; it counts attempts while the OSK is away.
        Line(ms: 3000, event: .oskDetached, actions: [.reportRunning(false)], wake: 3080),
        Line(ms: 3080, event: .tick, actions: [], wake: 3280),
        Line(
            ms: 3100, event: .oskAttached(name: "squeekboard", observable: true, configured: nil),
            actions: [
                .reportRunning(true), .setHardwareKeyboard(false), .trace("squeekboard not shown yet: asking again (attempt 3)"),
                .setOSKVisible(true),
            ], wake: 3500),
        Line(
            ms: 3120, event: .oskObserved(visible: true),
            actions: [.trace("squeekboard shown (confirmed at attempt 3)"), .checkFullscreen], wake: 4120),
    ]

    /// the OSK crashes and does not return: insetd is told it cannot show
    static let crashForGood: [Line] = confirmed + [
        Line(ms: 3000, event: .oskDetached, actions: [.reportRunning(false)], wake: 3080),
        Line(ms: 3080, event: .tick, actions: [], wake: 3280),
        Line(ms: 3280, event: .tick, actions: [], wake: 3680),
        Line(ms: 3680, event: .tick, actions: [], wake: 4480),
        Line(
            ms: 4480, event: .tick,
            actions: [
                .log(problemNotShown + " (it is not running); insetd hides its keyboard so that views are not padded for it"),
                .reportProblem(problemNotShown + " (it is not running)"), .reportVisibility(false),
            ], wake: nil),
    ]

    /// insetd restarts: the real frame goes to the new one, and its state is applied
    static let insetdRestart: [Line] = confirmed + [
        Line(
            ms: 1100, event: .frameMeasured(Rect(x: 0, y: 616, width: 390, height: 228)),
            actions: [
                .log("squeekboard's real frame: \(Rect(x: 0, y: 616, width: 390, height: 228)) (from the usable area)"),
                .reportFrame(Rect(x: 0, y: 616, width: 390, height: 228)),
            ], wake: 2010),
        Line(ms: 5000, event: .linkLost, actions: [], wake: nil),
        Line(
            ms: 6000, event: .linkConnected(screen: screen, keyboardShown: false, hardwareKeyboard: false),
            actions: [.reportFrame(Rect(x: 0, y: 616, width: 390, height: 228)), .setOSKVisible(false)], wake: nil),
    ]

    /// a full-screen window over the shown OSK: one log line and one report, the keyboard left as it is
    static let fullscreen: [Line] = confirmed + [
        Line(ms: 2010, event: .tick, actions: [.checkFullscreen], wake: 3010),
        Line(
            ms: 2010, event: .fullscreen(window: "chromium"),
            actions: [.log(fullscreenProblem), .reportProblem(fullscreenProblem)], wake: 3010),
        Line(ms: 3010, event: .tick, actions: [.checkFullscreen], wake: 4010),
        Line(ms: 3010, event: .fullscreen(window: "chromium"), actions: [], wake: 4010),
        // Blur and focus again: still under it, still one line.
        Line(ms: 3500, event: .keyboard(shown: false), actions: [.setOSKVisible(false)], wake: nil),
        Line(ms: 3600, event: .oskObserved(visible: false), actions: [], wake: nil),
        Line(ms: 5000, event: .keyboard(shown: true), actions: [.setOSKVisible(true)], wake: 5080),
        Line(
            ms: 5010, event: .oskObserved(visible: true),
            actions: [.trace("squeekboard shown (confirmed at attempt 1)"), .checkFullscreen], wake: 6010),
        Line(ms: 5010, event: .fullscreen(window: "chromium"), actions: [], wake: 6010),
        // A restarted insetd hears of it again.
        Line(ms: 5500, event: .linkLost, actions: [], wake: nil),
        Line(
            ms: 5600, event: .linkConnected(screen: screen, keyboardShown: true, hardwareKeyboard: false),
            actions: [.reportProblem(fullscreenProblem)], wake: 6010),
        // The window leaves full screen.
        Line(ms: 6010, event: .tick, actions: [.checkFullscreen], wake: 7010),
        Line(
            ms: 6010, event: .fullscreen(window: nil),
            actions: [.log("squeekboard is no longer under a full-screen window"), .reportProblem(nil)], wake: 7010),
    ]

    /// insetd hides and shows again before the OSK has followed: the show is sent
    /// again, and the OSK's hide that follows is the bridge's own, not the user's.
    static let hideInFlight: [Line] = confirmed + [
        Line(ms: 2010, event: .tick, actions: [.checkFullscreen], wake: 3010),
        Line(ms: 2010, event: .fullscreen(window: nil), actions: [], wake: 3010),
        Line(ms: 2500, event: .keyboard(shown: false), actions: [.setOSKVisible(false)], wake: nil),
        Line(ms: 2510, event: .keyboard(shown: true), actions: [.setOSKVisible(true)], wake: 2590),
        Line(
            ms: 2550, event: .oskObserved(visible: false),
            actions: [
                .trace("squeekboard hid again right after showing: asserting the show again"),
                .trace("squeekboard not shown yet: asking again (attempt 2)"), .setOSKVisible(true),
            ], wake: 2750),
        Line(
            ms: 2560, event: .oskObserved(visible: true),
            actions: [.trace("squeekboard shown (confirmed at attempt 2)"), .checkFullscreen], wake: 3560),
    ]

    /// A focus and a blur in quick succession: the show arrives after the hide
    /// was sent, and is hidden again rather than taken for the user's.
    static let showInFlight: [Line] = start + [
        Line(ms: 1000, event: .keyboard(shown: true), actions: [.setOSKVisible(true)], wake: 1080),
        Line(ms: 1020, event: .keyboard(shown: false), actions: [.setOSKVisible(false)], wake: nil),
        Line(
            ms: 1030, event: .oskObserved(visible: true),
            actions: [.trace("squeekboard showed after insetd hid again: hiding it"), .setOSKVisible(false)], wake: nil),
        Line(ms: 1040, event: .oskObserved(visible: false), actions: [], wake: nil),
    ]

    /// The OSK answers the four asks 1020 ms after the bridge gave up (2480 ms),
    /// within `lateShowAfterGivingUp` (5 s, to 7480 ms): reported as shown, for
    /// insetd to decide (it keeps the keyboard while the field that asked is
    /// still focused); the OSK did show, so "did not show" is no longer
    /// insetd's problem. Here the field was blurred: insetd says hidden
    /// (3520 ms) and the OSK is hidden. A show after that is the user's again.
    static let lateAfterGivingUp: [Line] = Array(neverConfirmed.prefix(9)) + [
        Line(
            ms: 3500, event: .oskObserved(visible: true),
            actions: [
                .log("squeekboard showed after insetd-osk gave up on it: insetd decides whether it stays"),
                .reportVisibility(true), .checkFullscreen, .reportProblem(nil),
            ], wake: 4500),
        Line(ms: 3520, event: .keyboard(shown: false), actions: [.setOSKVisible(false)], wake: nil),
        Line(ms: 3530, event: .oskObserved(visible: false), actions: [], wake: nil),
        Line(
            ms: 9000, event: .oskObserved(visible: true),
            actions: [.log("squeekboard was shown by itself or its user"), .reportVisibility(true), .checkFullscreen],
            wake: 10000),
    ]

    /// The same late show with the field still focused: insetd keeps the
    /// keyboard and says shown (3520 ms): the OSK, up already, stays, and
    /// nothing is asked of it.
    static let lateAfterGivingUpKept: [Line] = Array(lateAfterGivingUp.prefix(10)) + [
        Line(ms: 3520, event: .keyboard(shown: true), actions: [], wake: 4500),
        Line(ms: 4500, event: .tick, actions: [.checkFullscreen], wake: 5500),
    ]

    /// After a blur the bridge hides the OSK (2500 ms); the compositor shows it
    /// again 100 ms later (KWin, as Chromium's text input settles), within
    /// `settle` (500 ms, to 3000 ms) of that hide: hidden again, not reported as
    /// the user's. A show 1.5 s later is the user's.
    static let shownRightAfterTheHide: [Line] = confirmed + [
        Line(ms: 2010, event: .tick, actions: [.checkFullscreen], wake: 3010),
        Line(ms: 2010, event: .fullscreen(window: nil), actions: [], wake: 3010),
        Line(ms: 2500, event: .keyboard(shown: false), actions: [.setOSKVisible(false)], wake: nil),
        Line(ms: 2510, event: .oskObserved(visible: false), actions: [], wake: nil),
        Line(
            ms: 2600, event: .oskObserved(visible: true),
            actions: [.trace("squeekboard showed right after insetd-osk hid it: hiding it again"), .setOSKVisible(false)],
            wake: nil),
        Line(ms: 2610, event: .oskObserved(visible: false), actions: [], wake: nil),
        Line(
            ms: 4100, event: .oskObserved(visible: true),
            actions: [.log("squeekboard was shown by itself or its user"), .reportVisibility(true), .checkFullscreen],
            wake: 5100),
    ]

    /// A named timeline; test output names it rather than printing every line.
    struct Timeline: Sendable, CustomTestStringConvertible {
        var name: String
        var lines: [Line]
        var testDescription: String { name }
        init(_ name: String, _ lines: [Line]) {
            self.name = name
            self.lines = lines
        }
    }

    static let timelines: [Timeline] = [
        Timeline("a show confirmed by the OSK", confirmed),
        Timeline("a show dropped without a signal (SetVisible just before the text-input change), asked again at 80 ms", droppedSilently),
        Timeline("a show dropped right after it appeared is asserted again at once, not taken for the user's hide", droppedRightAfterAppearing),
        Timeline("a show never confirmed: four attempts, then insetd is told why and that it is hidden", neverConfirmed),
        Timeline("the user's own hide of a settled keyboard stands: reported after the hold, not shown again", userHide),
        Timeline("squeekboard hiding on blur while insetd hides anyway is not news", hideOnBlur),
        Timeline("the focus moves with the keyboard up: the OSK's hide at the text-input change is a drop, asserted again", focusMoved),
        Timeline("a hide within the settle time of the last show is a drop, asserted again", hideWithinSettle),
        Timeline("the OSK crashes while shown and returns: shown again at once", crashAndReturn),
        Timeline("the OSK crashes and does not return: insetd is told it cannot show", crashForGood),
        Timeline("insetd restarts: the real frame goes to the new one, and its state is applied", insetdRestart),
        Timeline("a full-screen window over the shown OSK: one log line and one report, the keyboard left as it is", fullscreen),
        Timeline("insetd hides and shows again before the OSK followed: shown again, its late hide is no user's", hideInFlight),
        Timeline("a focus and a quick blur: the late show is hidden again, not reported as the user's", showInFlight),
        Timeline("a show that comes after the bridge gave up on it is insetd's to keep or refuse", lateAfterGivingUp),
        Timeline("a late show insetd keeps (the field still focused) stays up", lateAfterGivingUpKept),
        Timeline("a show right after the bridge's hide is the compositor's, hidden again, not the user's", shownRightAfterTheHide),
    ]

    @Test(arguments: timelines)
    func timeline(_ timeline: Timeline) {
        Self.run(timeline.lines)
    }
}
