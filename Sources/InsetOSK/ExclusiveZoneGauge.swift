import InsetCore

/// What the usable area (sway's IPC, or a layer surface's size) says about an
/// OSK on the layer shell: its exclusive zone shrinks the area from the
/// bottom, so the gap beyond the gap with no OSK (the baseline, a panel's own
/// zone included) is the keyboard. Pure, so the readings' rules (the
/// baseline, when the zone is the OSK's, when a reading has settled, how the
/// output's coordinates map to insetd's screen) are tested with exact
/// numbers; `BridgeMachine` owns one.
package struct ExclusiveZoneGauge: Hashable, Sendable {
    /// The smallest bottom gap seen: the gap with the OSK hidden.
    package private(set) var baseline: Double?
    /// The last reading that showed the OSK's zone, for `settledFrame`.
    private var lastCovered: Double?
    /// The keyboard insetd says is up, as a share of insetd's screen height (`expect`).
    private var expectedShare: Double?
    /// The output's size at the first reading since insetd's welcome
    /// (`linked`): with the welcome's screen, how many of insetd's points
    /// make one of sway's.
    private var linkedOutput: Size?

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

    /// insetd's welcome (a first link or a new insetd): its screen goes with
    /// the output as the next reading finds it.
    package mutating func linked() {
        linkedOutput = nil
    }

    /// Takes a reading into the baseline; whether the OSK's zone is in it.
    package mutating func read(_ area: UsableArea) -> Bool {
        if linkedOutput == nil { linkedOutput = area.output }
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

    /// After `read`: the OSK's frame in insetd's coordinates once two readings
    /// in a row show the same zone (a loaded compositor applies it in steps),
    /// or one that is an arrangement whole (`settled`); nil until then, or
    /// without a screen or an output. `screen` is insetd's
    /// as its welcome gave it, taken as it is for the output now
    /// (`screen(_:like:)`).
    package mutating func settledFrame(_ area: UsableArea, screen welcomed: Size) -> Rect? {
        let gap = area.bottomGap
        guard let baseline, gap > baseline + Self.tolerance else { return nil }
        defer { lastCovered = gap }
        let screen = screen(welcomed, like: area.output)
        guard gap == lastCovered || area.settled, screen.width > 0, area.output.width > 0, area.output.height > 0 else { return nil }
        let scaleX = screen.width / area.output.width
        let scaleY = screen.height / area.output.height
        // Where the area's place is not known, the zones with the OSK hidden
        // are taken to be away from the keyboard, which is docked at the
        // bottom: exact with none (Mir, phoc), and under Phosh's top bar and
        // home bar 40 px lower than drawn but docked, so a window it covers
        // is padded by its height (a frame short of the bottom is a floating
        // keyboard, which pads nothing).
        let top = area.edgesKnown ? area.output.height - gap : area.output.height - (gap - baseline)
        return Rect(x: 0, y: top * scaleY, width: area.output.width * scaleX, height: (gap - baseline) * scaleY)
    }

    /// insetd's `screen` as it is when sway's output is `output`. Turned as the
    /// output is: a turn reaches insetd from its clients (a page's
    /// `transition`), not from the bridge, whose copy is the welcome's, and
    /// sway's output turns with the display. Grown or shrunk with the output
    /// (a new mode or scale; squeekboard sizes itself from the output's
    /// width), at the ratio of points at the welcome: a frame measured on an
    /// output of a new size is in a screen of that size, which insetd refuses
    /// until its clients say the screen has it, rather than the keyboard of
    /// the old screen (insetd keeps one frame per screen size and would pad a
    /// screen of the new size for the old keyboard).
    func screen(_ screen: Size, like output: Size) -> Size {
        let outputWide = output.width > output.height, screenWide = screen.width > screen.height
        let turns = output.width != output.height && screen.width != screen.height && outputWide != screenWide
        let turned = turns ? Size(width: screen.height, height: screen.width) : screen
        guard var linked = linkedOutput, linked.width > 0, linked.height > 0 else { return turned }
        if linked.width != linked.height, (linked.width > linked.height) != outputWide {
            linked = Size(width: linked.height, height: linked.width)
        }
        guard linked != output else { return turned }
        return Size(width: output.width * turned.width / linked.width, height: output.height * turned.height / linked.height)
    }
}
