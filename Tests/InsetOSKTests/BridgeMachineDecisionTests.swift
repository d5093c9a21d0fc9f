import InsetCore
import Testing

@testable import InsetOSK

/// insetd-osk's decisions that a timeline does not say as well: periods
/// repeated until the bridge gives up, frames said before a show, what each
/// link is told while the OSK is away (the same hand-derived timing as the
/// timelines).
extension BridgeMachineTests {
    /// An OSK that never came (not running, not installed): insetd is told after
    /// the same four periods, by the name of the configured backend.
    @Test func anOSKThatIsNotRunningCannotShow() {
        var machine = BridgeMachine(name: "squeekboard")
        _ = machine.handle(.linkConnected(screen: Self.screen, keyboardShown: false, hardwareKeyboard: false), now: .zero)
        let wakes = [1000, 1080, 1280, 1680].map { ms in machine.handle(ms == 1000 ? .keyboard(shown: true) : .tick, now: .milliseconds(Int64(ms))) }
        #expect(wakes.map(\.wake) == [1080, 1280, 1680, 2480].map { .milliseconds($0) })
        #expect(wakes.allSatisfy { $0.actions.isEmpty }, "nothing to send it to")
        let problem = "squeekboard did not show after 4 attempts (it is not running)"
        let last = machine.handle(.tick, now: .milliseconds(2480))
        #expect(
            last.actions == [
                .log(problem + "; insetd hides its keyboard so that views are not padded for it"), .reportProblem(problem),
                .reportVisibility(false),
            ])
        #expect(last.wake == nil)
    }

    /// An OSK that cannot say whether it is shown (wvkbd without sway):
    /// asked once, never asked again, never given up on.
    @Test func aShowThatCannotBeConfirmedIsSentOnce() {
        Self.run([
            Line(ms: 0, event: .linkConnected(screen: Self.screen, keyboardShown: false, hardwareKeyboard: false), actions: [], wake: nil),
            Line(
                ms: 0, event: .oskAttached(name: "wvkbd", observable: false, configured: nil),
                actions: [.setHardwareKeyboard(false), .setOSKVisible(false)], wake: nil),
            Line(ms: 1000, event: .keyboard(shown: true), actions: [.setOSKVisible(true)], wake: nil),
            Line(ms: 5000, event: .tick, actions: [], wake: nil),
        ])
    }

    /// GNOME Shell through insetd's extension, as seen against the real Shell:
    /// it opens its keyboard 300 ms after being asked, so the show is asked
    /// again at 80 and 280 ms (the confirm delays 80, 200) and confirmed at
    /// the third request. The extension says where the keyboard is, so insetd
    /// is told at the attach that shows are confirmed (it holds them); the
    /// extension's frame (0,720 540x240 on a 540x960 monitor: a quarter of its
    /// height), read before the Visible it goes with, is the real one, named
    /// as the OSK's own report, and the confirmation reports it again.
    @Test func gnomesSlowShowIsConfirmedAndItsOwnFrameReported() {
        let frame = Rect(x: 0, y: 720, width: 540, height: 240)
        Self.run([
            Line(
                ms: 0, event: .linkConnected(screen: Size(width: 540, height: 960), keyboardShown: false, hardwareKeyboard: false),
                actions: [], wake: nil),
            // It says where it is: insetd is told that shows are confirmed (a nil frame).
            Line(
                ms: 0, event: .oskAttached(name: "gnome", observable: true, configured: nil, reportsFrame: true),
                actions: [.reportFrame(nil), .setHardwareKeyboard(false), .setOSKVisible(false)], wake: nil),
            Line(ms: 0, event: .oskObserved(visible: false), actions: [], wake: nil),
            Line(ms: 1000, event: .keyboard(shown: true), actions: [.setOSKVisible(true)], wake: 1080),
            Line(
                ms: 1080, event: .tick, actions: [.trace("gnome not shown yet: asking again (attempt 2)"), .setOSKVisible(true)],
                wake: 1280),
            Line(
                ms: 1280, event: .tick, actions: [.trace("gnome not shown yet: asking again (attempt 3)"), .setOSKVisible(true)],
                wake: 1680),
            // The bridge reads the extension's frame before the Visible it confirms.
            Line(
                ms: 1300, event: .frameMeasured(frame, source: "gnome's own report"),
                actions: [.log("gnome's real frame: \(frame) (from gnome's own report)"), .reportFrame(frame)], wake: 1680),
            Line(
                ms: 1300, event: .oskObserved(visible: true),
                actions: [.trace("gnome shown (confirmed at attempt 3)"), .reportFrame(frame), .checkFullscreen], wake: 2300),
            Line(ms: 1400, event: .frameMeasured(frame, source: "gnome's own report"), actions: [], wake: 2300),
        ])
    }

    /// wvkbd's -H/-L: the frame is reported as soon as both insetd's screen and wvkbd are known.
    @Test func wvkbdsConfiguredFrameIsReportedBeforeItShows() {
        let heights = ConfiguredHeights(portrait: 280, landscape: 200)
        Self.run([
            Line(ms: 0, event: .linkConnected(screen: Self.screen, keyboardShown: false, hardwareKeyboard: false), actions: [], wake: nil),
            Line(
                ms: 0, event: .oskAttached(name: "wvkbd", observable: true, configured: heights),
                actions: [.reportFrame(Rect(x: 0, y: 564, width: 390, height: 280)), .setHardwareKeyboard(false), .setOSKVisible(false)],
                wake: nil),
        ])
    }

    /// squeekboard on sway: its shows are confirmed and its frame measured, so
    /// insetd is told (a nil frame) once per link, before the first show; after
    /// a measurement a new link gets the frame, then the announcement.
    @Test func aMeasurableOSKIsAnnouncedBeforeItsFirstShow() {
        let real = Rect(x: 0, y: 672, width: 390, height: 172)
        Self.run([
            Line(ms: 0, event: .linkConnected(screen: Self.screen, keyboardShown: false, hardwareKeyboard: false), actions: [], wake: nil),
            Line(
                ms: 0, event: .oskAttached(name: "squeekboard", observable: true, configured: nil, measurable: true),
                actions: [.reportFrame(nil), .setHardwareKeyboard(false), .setOSKVisible(false)], wake: nil),
            Line(ms: 100, event: .oskDetached, actions: [.reportRunning(false)], wake: nil),
            Line(
                ms: 200, event: .oskAttached(name: "squeekboard", observable: true, configured: nil, measurable: true),
                actions: [.reportRunning(true), .setHardwareKeyboard(false), .setOSKVisible(false)], wake: nil),
            Line(
                ms: 300, event: .frameMeasured(real),
                actions: [.log("squeekboard's real frame: \(real) (from the usable area)"), .reportFrame(real)], wake: nil),
            Line(ms: 400, event: .linkLost, actions: [], wake: nil),
            Line(
                ms: 500, event: .linkConnected(screen: Self.screen, keyboardShown: false, hardwareKeyboard: false),
                actions: [.reportFrame(real), .reportFrame(nil)], wake: nil),
        ])
    }

    static let real = Rect(x: 0, y: 672, width: 390, height: 172)

    /// The OSK ends (insetd is told, so it shows no keyboard meanwhile), a
    /// restarted insetd is told again, and the OSK's return is said once.
    @Test func anOSKThatEndedIsSaidOnEveryLinkUntilItIsBack() {
        Self.run([
            Line(ms: 0, event: .linkConnected(screen: Self.screen, keyboardShown: false, hardwareKeyboard: false), actions: [], wake: nil),
            Line(
                ms: 0, event: .oskAttached(name: "squeekboard", observable: true, configured: nil),
                actions: [.setHardwareKeyboard(false), .setOSKVisible(false)], wake: nil),
            Line(ms: 100, event: .oskDetached, actions: [.reportRunning(false)], wake: nil),
            // Not attached: said once, not again.
            Line(ms: 150, event: .oskDetached, actions: [], wake: nil),
            Line(ms: 200, event: .linkLost, actions: [], wake: nil),
            Line(
                ms: 300, event: .linkConnected(screen: Self.screen, keyboardShown: false, hardwareKeyboard: false),
                actions: [.reportRunning(false)], wake: nil),
            Line(
                ms: 400, event: .oskAttached(name: "squeekboard", observable: true, configured: nil),
                actions: [.reportRunning(true), .setHardwareKeyboard(false), .setOSKVisible(false)], wake: nil),
            Line(ms: 500, event: .linkLost, actions: [], wake: nil),
            Line(
                ms: 600, event: .linkConnected(screen: Self.screen, keyboardShown: false, hardwareKeyboard: false),
                actions: [], wake: nil),
        ])
    }

    /// `confirmed`, then squeekboard's frame measured at 1100 ms, and the
    /// keyboard hidden (by insetd) at 3000 ms.
    static let measuredThenHidden: [Line] = confirmed + [
        Line(
            ms: 1100, event: .frameMeasured(real),
            actions: [.log("squeekboard's real frame: \(real) (from the usable area)"), .reportFrame(real)], wake: 2010),
        Line(ms: 3000, event: .keyboard(shown: false), actions: [.setOSKVisible(false)], wake: nil),
        Line(ms: 3010, event: .oskObserved(visible: false), actions: [], wake: nil),
    ]

    /// Once the frame is known, each show the OSK confirms reports it again: to
    /// insetd that is the keyboard on the screen, and the views move then.
    @Test func aConfirmedShowReportsTheKnownFrameAgain() {
        let real = Self.real
        Self.run(Self.measuredThenHidden + [
            Line(ms: 4000, event: .keyboard(shown: true), actions: [.setOSKVisible(true)], wake: 4080),
            Line(
                ms: 4030, event: .oskObserved(visible: true),
                actions: [.trace("squeekboard shown (confirmed at attempt 1)"), .reportFrame(real), .checkFullscreen],
                wake: 5030),
        ])
    }

    /// The user shows the OSK: insetd hears it as a show, then the frame again
    /// (the keyboard is on the screen already, insetd's show waits for that).
    /// An OSK that cannot confirm a show (no sway) is never announced.
    @Test func theUsersShowIsConfirmedAndAnUnobservableOSKIsNotAnnounced() {
        let real = Self.real
        Self.run(Self.measuredThenHidden + [
            Line(
                ms: 4000, event: .oskObserved(visible: true),
                actions: [.log("squeekboard was shown by itself or its user"), .reportVisibility(true), .reportFrame(real),
                          .checkFullscreen],
                wake: 5000),
        ])
        Self.run([
            Line(ms: 0, event: .linkConnected(screen: Self.screen, keyboardShown: false, hardwareKeyboard: false), actions: [], wake: nil),
            Line(
                ms: 0, event: .oskAttached(name: "wvkbd", observable: false, configured: nil, measurable: true),
                actions: [.setHardwareKeyboard(false), .setOSKVisible(false)], wake: nil),
        ])
    }

    /// With a hardware keyboard usable insetd shows only the bar: the OSK hides,
    /// and a show the user makes then is reported as theirs.
    @Test func aHardwareKeyboardHidesItAndTheUsersShowStands() {
        Self.run(Self.confirmed + [
            Line(ms: 2000, event: .hardwareKeyboard(usable: true), actions: [.setHardwareKeyboard(true), .setOSKVisible(false)], wake: nil),
            Line(ms: 2050, event: .oskObserved(visible: false), actions: [], wake: nil),
            Line(
                ms: 3000, event: .oskObserved(visible: true),
                actions: [.log("squeekboard was shown by itself or its user"), .reportVisibility(true), .checkFullscreen], wake: 4000),
        ])
    }
}
