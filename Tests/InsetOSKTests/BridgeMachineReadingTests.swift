import InsetCore
import Testing

@testable import InsetOSK

/// The decisions about sway's usable area, in the machine: when it is read
/// (every 50 ms while a show settles, every 100 ms for wvkbd, which cannot say
/// whether it is shown, and every 16 ms while a show asked of it is not seen, once for the baseline when a bus OSK is seen hidden,
/// every 100 ms while a bus OSK is shown),
/// what a reading means (wvkbd shown or hidden), and the frame it settles on.
/// Expected values derived by hand from `BridgeTiming`'s defaults (confirm
/// delays 80, 200 ms; settle 500 ms; measure window 5 s; full-screen check
/// every 1000 ms) on insetd's 390x844 screen and a 390x844 output.
@Suite struct BridgeMachineReadingTests {
    typealias Line = BridgeMachineTests.Line

    static let screen = Size(width: 390, height: 844)

    static func area(gap: Double) -> BridgeEvent {
        .usableArea(UsableArea(output: Size(width: 390, height: 844), bottomGap: gap))
    }

    static func run(_ lines: [Line]) { BridgeMachineTests.run(lines, checkingReads: true) }

    /// wvkbd attached hidden (gap 0 read: the baseline), and insetd shows the
    /// keyboard at 1000 ms. `laysOut`: as if it laid itself out anew when its
    /// output changes, as squeekboard does (the machine knows no more of it).
    static func wvkbdShownAt1000(laysOut: Bool = false) -> [Line] {
        [
            Line(ms: 0, event: .linkConnected(screen: Self.screen, keyboardShown: false, hardwareKeyboard: false), actions: []),
            Line(
                ms: 0,
                event: .oskAttached(
                    name: "wvkbd", observable: true, configured: nil, measurable: true, reportsVisibility: false,
                    laysOutOnOutputChange: laysOut),
                actions: [.reportFrame(nil), .setHardwareKeyboard(false), .setOSKVisible(false)], readArea: 0),
            Line(ms: 0, event: Self.area(gap: 0), actions: [], readArea: 100),
            Line(ms: 1000, event: .keyboard(shown: true), actions: [.setOSKVisible(true)], wake: 1080, readArea: 16),
        ]
    }
    static let wvkbdShownAt1000: [Line] = wvkbdShownAt1000()

    /// ... then seen at 1010 (300: y 844 - 300 = 544) and measured at the
    /// second equal reading, 1060; the area watched every 100 ms from then.
    static func wvkbdMeasuredInPortrait(laysOut: Bool = false) -> [Line] {
        wvkbdShownAt1000(laysOut: laysOut) + [
            Line(
                ms: 1010, event: Self.area(gap: 300),
                actions: [.trace("wvkbd shown (confirmed at attempt 1)"), .checkFullscreen], wake: 2010, readArea: 1060),
            Line(
                ms: 1060, event: Self.area(gap: 300),
                actions: measured(Rect(x: 0, y: 544, width: 390, height: 300)), wake: 2010, readArea: 1160),
        ]
    }
    static let wvkbdMeasuredInPortrait: [Line] = wvkbdMeasuredInPortrait()

    /// What wvkbd's frame measured in sway's usable area gives: a log line
    /// with the frame, and its report to insetd.
    static func measured(_ frame: Rect) -> [BridgeAction] {
        [.log("wvkbd's real frame: \(frame) (from the usable area)"), .reportFrame(frame)]
    }

    /// wvkbd: shown and hidden as sway's usable area says. Its zone grows in
    /// two steps (100, then 300), so the frame is the second 300 (y 844 - 300);
    /// a hide 200 ms after the show is a drop (settled only at 1000 + 500).
    @Test func wvkbdIsSeenAndMeasuredInTheUsableArea() {
        let frame = Rect(x: 0, y: 544, width: 390, height: 300)
        Self.run(Self.wvkbdShownAt1000 + [
            Line(
                ms: 1010, event: Self.area(gap: 100),
                actions: [.trace("wvkbd shown (confirmed at attempt 1)"), .checkFullscreen], wake: 2010, readArea: 1060),
            Line(ms: 1060, event: Self.area(gap: 300), actions: [], wake: 2010, readArea: 1110),
            Line(
                ms: 1110, event: Self.area(gap: 300),
                actions: Self.measured(frame),
                wake: 2010, readArea: 1210),
            Line(
                ms: 1210, event: Self.area(gap: 0),
                actions: [
                    .trace("wvkbd hid again right after showing: asserting the show again"),
                    .trace("wvkbd not shown yet: asking again (attempt 2)"), .setOSKVisible(true),
                ],
                wake: 1410, readArea: 1226),
            // Unreadable (sway restarting): nothing decided, the next read a
            // frame on (the show asked again is not seen yet).
            Line(ms: 1260, event: .usableArea(nil), actions: [], wake: 1410, readArea: 1276),
        ])
    }

    /// insetd-osk started again while wvkbd's 300 is up and insetd shows it:
    /// the first reading less the keyboard insetd says is the baseline (300 -
    /// 300 = 0), so wvkbd is seen up at once (not taken for a baseline of 300
    /// that no show could ever exceed) and its frame is measured again (y 844 -
    /// 300 = 544).
    @Test func wvkbdUpBeforeARestartIsSeenUp() {
        let frame = Rect(x: 0, y: 544, width: 390, height: 300)
        Self.run([
            // Linked before the OSK is there: the show's first attempt is spent
            // waiting for it (the next ask, at the attach, is the second).
            Line(
                ms: 0, event: .linkConnected(screen: Self.screen, keyboardShown: true, hardwareKeyboard: false, keyboard: frame),
                actions: [], wake: 80),
            Line(
                ms: 0,
                event: .oskAttached(name: "wvkbd", observable: true, configured: nil, measurable: true, reportsVisibility: false),
                actions: [
                    .reportFrame(nil), .setHardwareKeyboard(false), .trace("wvkbd not shown yet: asking again (attempt 2)"),
                    .setOSKVisible(true),
                ], wake: 200, readArea: 0),
            // No hide first: the keyboard is seen up in the first reading.
            Line(
                ms: 10, event: Self.area(gap: 300),
                actions: [.trace("wvkbd shown (confirmed at attempt 2)"), .checkFullscreen], wake: 1010, readArea: 60),
            Line(
                ms: 60, event: Self.area(gap: 300),
                actions: Self.measured(frame),
                wake: 1010, readArea: 160),
        ])
    }

    /// The output turned to landscape (844x390) after insetd's welcome gave a
    /// portrait 390x844 screen: the frame is measured in insetd's screen
    /// turned with it (0, 390 - 200 = 190, 844 wide), not scaled into the
    /// portrait one.
    @Test func aFrameMeasuredOnATurnedOutputIsInTheTurnedScreen() {
        let landscape = Size(width: 844, height: 390)
        func area(_ gap: Double) -> BridgeEvent { .usableArea(UsableArea(output: landscape, bottomGap: gap)) }
        let frame = Rect(x: 0, y: 190, width: 844, height: 200)
        Self.run([
            Line(ms: 0, event: .linkConnected(screen: Self.screen, keyboardShown: false, hardwareKeyboard: false), actions: []),
            Line(
                ms: 0,
                event: .oskAttached(name: "wvkbd", observable: true, configured: nil, measurable: true, reportsVisibility: false),
                actions: [.reportFrame(nil), .setHardwareKeyboard(false), .setOSKVisible(false)], readArea: 0),
            Line(ms: 0, event: area(0), actions: [], readArea: 100),
            Line(ms: 1000, event: .keyboard(shown: true), actions: [.setOSKVisible(true)], wake: 1080, readArea: 16),
            Line(
                ms: 1010, event: area(200),
                actions: [.trace("wvkbd shown (confirmed at attempt 1)"), .checkFullscreen], wake: 2010, readArea: 1060),
            Line(
                ms: 1060, event: area(200),
                actions: Self.measured(frame),
                wake: 2010, readArea: 1160),
        ])
    }

    /// wvkbd measured in portrait (y 544, reported at 1060), and the output
    /// turns to landscape and back before the landscape zone settles (one
    /// reading at 1160): the portrait frame measured again at 1260 (two equal
    /// readings, 1210 and 1260) is reported again, though insetd had it, since
    /// insetd waits for a report after each change of the screen.
    @Test func aQuickTurnAndBackReportsTheFrameAgain() {
        let portrait = Rect(x: 0, y: 544, width: 390, height: 300)
        let turned = BridgeEvent.usableArea(UsableArea(output: Size(width: 844, height: 390), bottomGap: 200))
        Self.run(Self.wvkbdMeasuredInPortrait + [
            Line(ms: 1160, event: turned, actions: [], wake: 2010, readArea: 1210),
            Line(ms: 1210, event: Self.area(gap: 300), actions: [], wake: 2010, readArea: 1260),
            // Read every 50 ms still, for `relayoutWait` after the last change (to 1710).
            Line(ms: 1260, event: Self.area(gap: 300), actions: [.reportFrame(portrait)], wake: 2010, readArea: 1310),
        ])
    }

    /// wvkbd shown, measured in portrait (300: y 544), and the output turns to
    /// landscape under it: the frame is measured again there, two equal
    /// readings after the turn (its 200: y 390 - 200 = 190, 844 wide).
    @Test func aTurnUnderAShownOSKIsMeasuredAgain() {
        let landscape = Rect(x: 0, y: 190, width: 844, height: 200)
        func turned(_ gap: Double) -> BridgeEvent {
            .usableArea(UsableArea(output: Size(width: 844, height: 390), bottomGap: gap))
        }
        Self.run(Self.wvkbdMeasuredInPortrait + [
            // Measured: read every 100 ms (wvkbd cannot say it is shown).
            Line(ms: 1160, event: turned(200), actions: [], wake: 2010, readArea: 1210),
            // Read every 50 ms still, for `relayoutWait` after the turn (to 1660).
            Line(
                ms: 1210, event: turned(200),
                actions: Self.measured(landscape),
                wake: 2010, readArea: 1260),
            // insetd had not turned yet and refused it: reported again at the
            // next reading.
            Line(ms: 1220, event: .frameRefused, actions: [], wake: 2010, readArea: 1260),
            Line(
                ms: 1260, event: turned(200),
                actions: Self.measured(landscape),
                wake: 2010, readArea: 1310),
        ])
    }

    /// wvkbd measured in portrait (reported at 1060: y 544). insetd echoes
    /// that report (1070): nothing changes, the area is watched every 100 ms.
    /// Then its clients tell it of a turn and it moves its keyboard to its
    /// guess for the turned screen (1100: the configured 209, y 390 - 209 =
    /// 181): the output has turned already, so the area is read at once (due
    /// at 1060 + 16) and every 16 ms until the frame there is measured (two
    /// readings of 200, 1100 and 1116: y 390 - 200 = 190, 844 wide), then
    /// every 50 ms to the end of `relayoutWait` (1100 + 500).
    @Test func aTurnInsetdHeardOfIsReadEveryFrameUntilMeasured() {
        let landscape = Rect(x: 0, y: 190, width: 844, height: 200)
        let turned = BridgeEvent.usableArea(UsableArea(output: Size(width: 844, height: 390), bottomGap: 200))
        Self.run(Self.wvkbdMeasuredInPortrait + [
            Line(ms: 1070, event: .keyboardMoved(to: Rect(x: 0, y: 544, width: 390, height: 300)), actions: [],
                 wake: 2010, readArea: 1160),
            Line(ms: 1100, event: .keyboardMoved(to: Rect(x: 0, y: 181, width: 844, height: 209)), actions: [],
                 wake: 2010, readArea: 1076),
            Line(ms: 1100, event: turned, actions: [], wake: 2010, readArea: 1116),
            Line(ms: 1116, event: turned, actions: Self.measured(landscape), wake: 2010, readArea: 1166),
        ])
    }

    /// The same cue when the output turned and back between two readings:
    /// the area at 1100 is as before (portrait, 300), so the frame settles at
    /// once on the one the bridge reported at 1060 (y 544), and it is
    /// reported again, since insetd, on its portrait screen anew, waits for
    /// a report; no log line (the frame is the one known). Measured, the
    /// area is watched every 100 ms again.
    @Test func aTurnAndBackBetweenReadingsIsReportedAgainOnInsetdsCue() {
        let portrait = Rect(x: 0, y: 544, width: 390, height: 300)
        Self.run(Self.wvkbdMeasuredInPortrait + [
            Line(ms: 1100, event: .keyboardMoved(to: Rect(x: 0, y: 181, width: 844, height: 209)), actions: [],
                 wake: 2010, readArea: 1076),
            Line(ms: 1100, event: Self.area(gap: 300), actions: [.reportFrame(portrait)], wake: 2010, readArea: 1200),
        ])
    }

    /// wvkbd shown, measured on the 390x844 output (300: y 544), and the
    /// output takes a mode 520 wide under it: wvkbd keeps its zone, so the
    /// frame is measured again in insetd's screen grown with the output,
    /// 520x844 (0, 844 - 300 = 544, 520 wide), at the first reading there
    /// (1160: the zone is the last reading's), not scaled into the
    /// welcome's 390; the area is read every
    /// 50 ms for `relayoutWait` after the change (500 ms, to 1660) in case
    /// the OSK lays itself out after all (here: 350 from 1360, y 844 - 350 =
    /// 494, measured at 1410), and reported again when insetd refuses it
    /// (its clients have not said the screen is 520 wide yet).
    @Test func aZoneKeptThroughAWiderOutputIsMeasuredAtOnce() {
        let widened = Rect(x: 0, y: 544, width: 520, height: 300)
        let laidOut = Rect(x: 0, y: 494, width: 520, height: 350)
        func wide(_ gap: Double) -> BridgeEvent {
            .usableArea(UsableArea(output: Size(width: 520, height: 844), bottomGap: gap))
        }
        Self.run(Self.wvkbdMeasuredInPortrait + [
            Line(ms: 1160, event: wide(300), actions: Self.measured(widened), wake: 2010, readArea: 1210),
            Line(ms: 1210, event: wide(300), actions: [], wake: 2010, readArea: 1260),
            Line(ms: 1260, event: wide(300), actions: [], wake: 2010, readArea: 1310),
            // Refused: reported again at the next reading.
            Line(ms: 1270, event: .frameRefused, actions: [], wake: 2010, readArea: 1310),
            Line(ms: 1310, event: wide(300), actions: Self.measured(widened), wake: 2010, readArea: 1360),
            Line(ms: 1360, event: wide(350), actions: [], wake: 2010, readArea: 1410),
            Line(ms: 1410, event: wide(350), actions: Self.measured(laidOut), wake: 2010, readArea: 1460),
            Line(ms: 1460, event: wide(350), actions: [], wake: 2010, readArea: 1510),
            // `relayoutWait` over: watched every 100 ms again.
            Line(ms: 1660, event: wide(350), actions: [], wake: 2010, readArea: 1760),
        ])
    }

    /// The same change under an OSK that lays itself out anew (squeekboard):
    /// its zone from before is its old panel, not its keyboard on the new
    /// output, for `relayoutWait` (500 ms, to 1660), read every 50 ms
    /// meanwhile; held that long, it is taken as the keyboard there (0, 844 -
    /// 300 = 544, 520 wide).
    @Test func anOldPanelIsHeldWhileTheOSKMayLayItselfOutAnew() {
        let widened = Rect(x: 0, y: 544, width: 520, height: 300)
        func wide(_ gap: Double) -> BridgeEvent {
            .usableArea(UsableArea(output: Size(width: 520, height: 844), bottomGap: gap))
        }
        Self.run(Self.wvkbdMeasuredInPortrait(laysOut: true) + (0..<10).map { n in
            Line(ms: 1160 + 50 * n, event: wide(300), actions: [], wake: 2010, readArea: 1210 + 50 * n)
        } + [
            Line(ms: 1660, event: wide(300), actions: Self.measured(widened), wake: 2010, readArea: 1760),
        ])
    }

    /// As above, but the OSK lays itself out anew for the wider output 100 ms
    /// after (squeekboard: 300 -> 350 here): its new zone is measured as soon
    /// as two readings agree (1260), not held (0, 844 - 350 = 494, 520 wide).
    @Test func aPanelLaidOutAnewOnAWiderOutputIsMeasuredAtOnce() {
        let widened = Rect(x: 0, y: 494, width: 520, height: 350)
        func wide(_ gap: Double) -> BridgeEvent {
            .usableArea(UsableArea(output: Size(width: 520, height: 844), bottomGap: gap))
        }
        Self.run(Self.wvkbdMeasuredInPortrait(laysOut: true) + [
            Line(ms: 1160, event: wide(300), actions: [], wake: 2010, readArea: 1210),
            Line(ms: 1210, event: wide(350), actions: [], wake: 2010, readArea: 1260),
            // Read every 50 ms still, to the end of `relayoutWait` (1660).
            Line(
                ms: 1260, event: wide(350),
                actions: Self.measured(widened),
                wake: 2010, readArea: 1310),
        ])
    }

    /// squeekboard's zone in sway's usable area: 228, so y 844 - 228 = 616.
    static let squeekboardFrame = Rect(x: 0, y: 616, width: 390, height: 228)

    /// squeekboard's zone read at `ms` and 50 ms later, both 228: measured at
    /// the second (its frame logged and reported), then watched every 100 ms.
    static func squeekboardSettles(at ms: Int64, wake: Int64) -> [Line] {
        [
            Line(ms: ms, event: Self.area(gap: 228), actions: [], wake: wake, readArea: ms + 50),
            Line(
                ms: ms + 50, event: Self.area(gap: 228),
                actions: [
                    .log("squeekboard's real frame: \(Self.squeekboardFrame) (from the usable area)"),
                    .reportFrame(Self.squeekboardFrame),
                ],
                wake: wake, readArea: ms + 150),
        ]
    }

    /// squeekboard's first show, measured: from its Visible (1030) the area is
    /// read every 16 ms until it has the zone (due at once: 10 + 16 = 26, the
    /// last reading being at 10), then its zone settles at 228 in readings
    /// 50 ms apart (1040, 1090), and it is hidden again at 1500.
    static let squeekboardMeasuredAndHidden: [Line] = [
        Line(ms: 0, event: .linkConnected(screen: Self.screen, keyboardShown: false, hardwareKeyboard: false), actions: []),
        Line(
            ms: 0, event: .oskAttached(name: "squeekboard", observable: true, configured: nil, measurable: true),
            actions: [.reportFrame(nil), .setHardwareKeyboard(false), .setOSKVisible(false)]),
        Line(ms: 0, event: .oskObserved(visible: false), actions: [], readArea: 0),
        Line(ms: 10, event: Self.area(gap: 0), actions: []),
        Line(ms: 1000, event: .keyboard(shown: true), actions: [.setOSKVisible(true)], wake: 1080, readArea: 60),
        Line(
            ms: 1030, event: .oskObserved(visible: true),
            actions: [.trace("squeekboard shown (confirmed at attempt 1)"), .checkFullscreen], wake: 2030, readArea: 26),
    ] + Self.squeekboardSettles(at: 1040, wake: 2030) + [
        // Shown: watched every 100 ms (an output that turns under it); hidden: not.
        Line(ms: 1190, event: Self.area(gap: 228), actions: [], wake: 2030, readArea: 1290),
        // Still seen up until squeekboard says otherwise: the read that was due (1290) is due now.
        Line(ms: 1500, event: .keyboard(shown: false), actions: [.setOSKVisible(false)], readArea: 1290),
        Line(ms: 1510, event: .oskObserved(visible: false), actions: [], readArea: 1510),
        Line(ms: 1510, event: Self.area(gap: 0), actions: []),
    ]

    /// squeekboard already up when the bridge attaches (it showed itself),
    /// insetd showing nothing: the bridge hides it, and the first reading
    /// (gap 228) is no baseline, the keyboard being in it. insetd shows the
    /// keyboard 1 ms later: the show waits until the hide is seen (20) and
    /// the area read without it (gap 0, the baseline), and goes then (a show
    /// sent at 1 would fold into the hide and squeekboard would stay as it
    /// was, never seen going, its frame never measured). Shown at 50 (the
    /// area read every 16 ms from then until it has the zone: due at 20 + 16),
    /// its zone settles at 228 in readings 50 ms apart (70, 120): y 844 - 228.
    @Test func aBusOSKUpAtAttachIsSeenHiddenBeforeTheFirstShowSoItsFrameIsMeasured() {
        Self.run([
            Line(ms: 0, event: .linkConnected(screen: Self.screen, keyboardShown: false, hardwareKeyboard: false), actions: []),
            Line(
                ms: 0, event: .oskAttached(name: "squeekboard", observable: true, configured: nil, measurable: true),
                actions: [.reportFrame(nil), .setHardwareKeyboard(false), .setOSKVisible(false)]),
            Line(ms: 0, event: .oskObserved(visible: true), actions: [], readArea: 0),
            Line(ms: 0, event: Self.area(gap: 228), actions: [], readArea: 50),
            Line(ms: 1, event: .keyboard(shown: true), actions: [.checkFullscreen], wake: 500, readArea: 50),
            Line(ms: 20, event: .oskObserved(visible: false), actions: [], wake: 500, readArea: 20),
            Line(ms: 20, event: Self.area(gap: 0), actions: [.setOSKVisible(true)], wake: 100, readArea: 70),
            Line(
                ms: 50, event: .oskObserved(visible: true),
                actions: [.trace("squeekboard shown (confirmed at attempt 1)"), .checkFullscreen], wake: 1050, readArea: 36),
        ] + Self.squeekboardSettles(at: 70, wake: 1050))
    }

    /// squeekboard says `Visible` (2030) but its zone never comes to the area
    /// read (on another output, or none over a full-screen view): the area is
    /// read every 16 ms for `confirmWindow` (1 s), then the show is confirmed
    /// on squeekboard's word (the known frame reported again at 3030), with
    /// the full-screen check due then too; the area is read at the measuring
    /// pace again (2031 + 50).
    @Test func aZoneThatNeverComesEndsTheFastReadingsAfterASecond() {
        let frame = Self.squeekboardFrame
        Self.run(Self.secondShowAwaitingItsZone + [
            Line(
                ms: 3030, event: .tick,
                actions: [
                    .trace("squeekboard's zone is not in the usable area: its show is taken on its word"),
                    .reportFrame(frame), .checkFullscreen,
                ],
                wake: 4030, readArea: 2081),
        ])
    }

    /// Under a compositor whose every configure is a whole arrangement (Mir's
    /// and phoc's layer-shell gauge: `.layerSurface`), the first show is measured at
    /// the first reading with the zone, 16 ms after one without it: the
    /// frame is reported (the confirmation insetd waits for) 16 ms after the
    /// Visible, not at the next 50 ms reading.
    @Test func aFirstShowUnderAWholeArrangementIsMeasuredAtTheFirstReadingWithItsZone() {
        func settled(_ gap: Double) -> BridgeEvent {
            .usableArea(UsableArea(output: Size(width: 390, height: 844), bottomGap: gap, source: .layerSurface))
        }
        Self.run(Array(Self.squeekboardMeasuredAndHidden.prefix(6)) + [
            Line(ms: 1030, event: settled(0), actions: [], wake: 2030, readArea: 1046),
            Line(
                ms: 1046, event: settled(228),
                actions: [
                    .log("squeekboard's real frame: \(Self.squeekboardFrame) (from the usable area)"),
                    .reportFrame(Self.squeekboardFrame),
                ],
                wake: 2030, readArea: 1146),
        ])
    }

    /// squeekboard says whether it is shown; sway's area is read once for the
    /// baseline when it is seen hidden, every 100 ms while it is up (an output
    /// turning under it), then every 50 ms while a show settles, until two
    /// readings agree.
    @Test func aBusOSKIsMeasuredWhileAShowSettlesThenWatchedWhileShown() {
        Self.run(Self.squeekboardMeasuredAndHidden)
    }

    /// squeekboard shown again at 2000 (the area read at once: the last reading,
    /// 1510, is more than 50 ms old), says `Visible` at 2030, and the area
    /// read at 2031 has no zone yet: read every 16 ms from then.
    static let secondShowAwaitingItsZone: [Line] = squeekboardMeasuredAndHidden + [
        Line(ms: 2000, event: .keyboard(shown: true), actions: [.setOSKVisible(true)], wake: 2080, readArea: 1560),
        Line(ms: 2000, event: area(gap: 0), actions: [], wake: 2080, readArea: 2050),
        Line(
            ms: 2030, event: .oskObserved(visible: true),
            actions: [.trace("squeekboard shown (confirmed at attempt 1)"), .checkFullscreen], wake: 3030, readArea: 2016),
        Line(ms: 2031, event: area(gap: 0), actions: [], wake: 3030, readArea: 2047),
    ]

    /// squeekboard says Visible before sway maps its surface. Shown again with
    /// its frame known, the show is confirmed to insetd (the frame reported
    /// again, which moves the views) when sway's usable area shows the zone,
    /// read every 16 ms from the Visible on: at the first reading that shows
    /// it (2047), not at the Visible (2030).
    @Test func aBusOSKsShowIsConfirmedWhenItsZoneIsInTheUsableArea() {
        let frame = Self.squeekboardFrame
        Self.run(Self.secondShowAwaitingItsZone + [
            Line(ms: 2047, event: Self.area(gap: 228), actions: [.reportFrame(frame)], wake: 3030, readArea: 2147),
        ])
    }
}
