import InsetCore

/// What sway's usable area says about an OSK on the layer shell: its exclusive
/// zone shrinks the visible workspace from the bottom, so the bottom gap beyond
/// the gap with no OSK (the baseline, a panel's own zone included) is the
/// keyboard. Pure, so the readings' rules (the baseline, when the zone is the
/// OSK's, when a reading has settled, how sway's coordinates map to insetd's
/// screen) are tested with exact numbers; `BridgeMachine` owns one.
package struct ExclusiveZoneGauge: Hashable, Sendable {
    /// The smallest bottom gap seen: the gap with the OSK hidden.
    package private(set) var baseline: Double?
    /// The last reading that showed the OSK's zone, for `settledFrame`.
    private var lastCovered: Double?
    /// The keyboard insetd says is up, as a share of insetd's screen height (`expect`).
    private var expectedShare: Double?

    /// A gap within this of the baseline is no keyboard (sway's rects are whole points).
    static let tolerance = 0.5

    package init() {}

    /// insetd says a keyboard `height` tall (in its `screen`) is up: the OSK
    /// may be on the screen before any reading with it hidden (insetd-osk
    /// restarted while it was shown). The next reading whose gap holds that
    /// height takes the gap less it as the baseline; a reading with less gap
    /// than the height says the keyboard is not there, and changes nothing.
    package mutating func expect(height: Double, screen: Size) {
        expectedShare = screen.height > 0 ? height / screen.height : nil
    }

    /// Takes a reading into the baseline; whether the OSK's zone is in it.
    package mutating func read(_ area: SwayUsableArea) -> Bool {
        let gap = area.bottomGap
        var withoutKeyboard = gap
        if let share = expectedShare {
            expectedShare = nil
            let height = share * area.output.height
            if gap + Self.tolerance >= height { withoutKeyboard = max(0, gap - height) }
        }
        if baseline.map({ withoutKeyboard < $0 }) ?? true { baseline = withoutKeyboard }
        return gap > baseline! + Self.tolerance
    }

    /// After `read`: the OSK's frame in insetd's `screen` coordinates once two
    /// readings in a row show the same zone (a loaded compositor applies it in
    /// steps); nil until then, or without a screen or an output.
    package mutating func settledFrame(_ area: SwayUsableArea, screen: Size) -> Rect? {
        let gap = area.bottomGap
        guard let baseline, gap > baseline + Self.tolerance else { return nil }
        defer { lastCovered = gap }
        guard gap == lastCovered, screen.width > 0, area.output.width > 0, area.output.height > 0 else { return nil }
        let scaleX = screen.width / area.output.width
        let scaleY = screen.height / area.output.height
        return Rect(
            x: 0, y: (area.output.height - gap) * scaleY, width: area.output.width * scaleX, height: (gap - baseline) * scaleY)
    }
}
