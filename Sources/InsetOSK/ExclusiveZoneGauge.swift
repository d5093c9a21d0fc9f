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

    /// A gap within this of the baseline is no keyboard (sway's rects are whole points).
    static let tolerance = 0.5

    package init() {}

    /// Takes a reading into the baseline; whether the OSK's zone is in it.
    package mutating func read(_ area: SwayUsableArea) -> Bool {
        let gap = area.bottomGap
        if baseline.map({ gap < $0 }) ?? true { baseline = gap }
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
