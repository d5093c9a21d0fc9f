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
    ]

    @Test(arguments: rows.indices) func row(_ index: Int) {
        let row = Self.rows[index]
        var gauge = ExclusiveZoneGauge()
        var frame: Rect?
        var covered: [Bool] = []
        for gap in row.gaps {
            let area = SwayUsableArea(output: row.output, bottomGap: gap)
            covered.append(gauge.read(area))
            frame = gauge.settledFrame(area, screen: row.screen)
        }
        #expect(covered == row.covered, "\(row.name)")
        #expect(frame == row.frame, "\(row.name)")
    }
}
