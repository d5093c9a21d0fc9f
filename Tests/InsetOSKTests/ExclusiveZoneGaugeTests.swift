import InsetCore
import Testing

@testable import InsetOSK

/// sway's usable area read as an OSK's exclusive zone, with values derived by
/// hand: the frame's top is the output's height less the gap, its height the
/// gap less the baseline, both scaled from the output into insetd's screen.
@Suite struct ExclusiveZoneGaugeTests {
    struct Row: Sendable {
        var name: String
        var output: Size
        var screen: Size
        /// Bottom gaps read in order.
        var gaps: [Double]
        /// What `read` says of each.
        var covered: [Bool]
        /// What `settledFrame` gives after the last.
        var frame: Rect?
        /// The keyboard height insetd says is up before the first reading (`expect`), in `screen`.
        var expected: Double? = nil
        /// The output from the second reading on (a new mode, scale or turn), where it changes.
        var resized: Size? = nil
        /// The readings are a layer surface's configures (`UsableArea.Source.layerSurface`:
        /// settled in one, and its size only).
        var settled = false
    }

    static let portrait = Size(width: 390, height: 844)

    static let rows: [Row] = [
        Row(name: "hidden, then squeekboard's 228 twice", output: portrait, screen: portrait,
            gaps: [0, 228, 228], covered: [false, true, true], frame: Rect(x: 0, y: 616, width: 390, height: 228)),
        Row(name: "one reading is not settled", output: portrait, screen: portrait,
            gaps: [0, 228], covered: [false, true], frame: nil),
        Row(name: "a zone applied in steps settles on the second equal reading", output: portrait, screen: portrait,
            gaps: [0, 100, 300], covered: [false, true, true], frame: nil),
        Row(name: "a panel's 30 is in the baseline", output: portrait, screen: portrait,
            gaps: [30, 258, 258], covered: [false, true, true], frame: Rect(x: 0, y: 586, width: 390, height: 228)),
        Row(name: "first read with the OSK up: that is the baseline until a smaller gap", output: portrait, screen: portrait,
            gaps: [228, 0, 228, 228], covered: [false, false, true, true], frame: Rect(x: 0, y: 616, width: 390, height: 228)),
        Row(name: "half a point is no keyboard", output: portrait, screen: portrait,
            gaps: [0, 0.5, 0.5], covered: [false, false, false], frame: nil),
        Row(name: "an output twice insetd's screen is halved", output: Size(width: 780, height: 1688), screen: portrait,
            gaps: [0, 456, 456], covered: [false, true, true], frame: Rect(x: 0, y: 616, width: 390, height: 228)),
        Row(name: "landscape", output: Size(width: 844, height: 390), screen: Size(width: 844, height: 390),
            gaps: [0, 200, 200], covered: [false, true, true], frame: Rect(x: 0, y: 190, width: 844, height: 200)),
        Row(name: "no screen from insetd yet", output: portrait, screen: Size(width: 0, height: 0),
            gaps: [0, 228, 228], covered: [false, true, true], frame: nil),
        // insetd-osk restarted with wvkbd's 300 up, as insetd says: 300 - 300 = 0 is the baseline.
        Row(name: "up from before: the gap less insetd's keyboard is the baseline", output: portrait, screen: portrait,
            gaps: [300, 300], covered: [true, true], frame: Rect(x: 0, y: 544, width: 390, height: 300), expected: 300),
        // 330 - 300: a panel's 30 under it stays in the baseline.
        Row(name: "up from before over a panel", output: portrait, screen: portrait,
            gaps: [330, 330, 30], covered: [true, true, false], frame: nil, expected: 300),
        // Only a panel's 30: less than the 300 insetd says, so not the keyboard; 30 is the baseline.
        Row(name: "insetd says up, the gap says not", output: portrait, screen: portrait,
            gaps: [30, 330, 330], covered: [false, true, true], frame: Rect(x: 0, y: 514, width: 390, height: 300), expected: 300),
        // insetd's 150 on its 390x844 is 300 of a 780x1688 output: 340 - 300 = 40.
        Row(name: "insetd's keyboard scaled to the output", output: Size(width: 780, height: 1688), screen: portrait,
            gaps: [340, 340], covered: [true, true], frame: Rect(x: 0, y: 674, width: 390, height: 150), expected: 150),
        // A new mode 520 wide, as tall: insetd's screen grows with it (520x844), not 390 wide.
        Row(name: "an output widened is in a screen as wide", output: portrait, screen: portrait,
            gaps: [0, 304, 304], covered: [false, true, true], frame: Rect(x: 0, y: 540, width: 520, height: 304),
            resized: Size(width: 520, height: 844)),
        // Turned: insetd's screen turned with it (844x390), 390 - 200 = 190.
        Row(name: "an output turned is in the turned screen", output: portrait, screen: portrait,
            gaps: [0, 200, 200], covered: [false, true, true], frame: Rect(x: 0, y: 190, width: 844, height: 200),
            resized: Size(width: 844, height: 390)),
        // Two of the output's points are one of insetd's at the welcome: 1040x1688 is 520x844 of insetd's;
        // a 600 gap is 300 of them, at (1688 - 600) / 2 = 544.
        Row(name: "an output twice insetd's screen, widened", output: Size(width: 780, height: 1688), screen: portrait,
            gaps: [0, 600, 600], covered: [false, true, true], frame: Rect(x: 0, y: 544, width: 520, height: 300),
            resized: Size(width: 1040, height: 1688)),
        // Mir's configure of the gauge's layer surface with squeekboard's 150 zone: 960 - 150 = 810.
        Row(name: "one configure settles", output: Size(width: 540, height: 960), screen: Size(width: 540, height: 960),
            gaps: [0, 150], covered: [false, true], frame: Rect(x: 0, y: 810, width: 540, height: 150), settled: true),
        // Phosh's 32 px top bar and 40 px home bar: 72 with squeekboard hidden, 72 + 172 shown. A
        // surface's size cannot say which edge each is at: the keyboard (244 - 72 = 172) is docked at
        // 960 - 172 = 788, where a configured 172 put it (drawn at 748, above the home bar).
        Row(name: "zones at rest from a surface's size: the keyboard docked at the bottom", output: Size(width: 540, height: 960),
            screen: Size(width: 540, height: 960), gaps: [72, 244], covered: [false, true],
            frame: Rect(x: 0, y: 788, width: 540, height: 172), settled: true),
        Row(name: "a configure with the zone gone settles nothing", output: Size(width: 540, height: 960),
            screen: Size(width: 540, height: 960), gaps: [0, 150, 0], covered: [false, true, false], frame: nil, settled: true),
    ]

    @Test(arguments: rows.indices) func row(_ index: Int) {
        let row = Self.rows[index]
        var gauge = ExclusiveZoneGauge()
        if let expected = row.expected { gauge.expect(height: expected, screen: row.screen) }
        var frame: Rect?
        var covered: [Bool] = []
        for (n, gap) in row.gaps.enumerated() {
            let area = UsableArea(
                output: n > 0 ? row.resized ?? row.output : row.output, bottomGap: gap,
                source: row.settled ? .layerSurface : .swayIPC)
            covered.append(gauge.read(area))
            frame = gauge.settledFrame(area, screen: row.screen)
        }
        #expect(covered == row.covered, "\(row.name)")
        #expect(frame == row.frame, "\(row.name)")
    }
}
