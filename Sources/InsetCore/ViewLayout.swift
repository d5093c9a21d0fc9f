/// The engine's rules as pure functions of one view and one keyboard frame.
///
/// Kept apart from `InsetEngine` (which only holds per-view state and decides when
/// to publish) so each rule can be tested on its own with worked numbers.
public enum ViewLayout {
    /// Height of `view ∩ keyboard`; 0 when the keyboard is hidden, does not reach
    /// the view, or floats (does not touch the screen's bottom edge).
    public static func keyboardOverlap(viewFrame: Rect, keyboard: Rect?, screen: Size) -> Double {
        guard let keyboard, keyboard.maxY >= screen.height else { return 0 }
        return viewFrame.intersection(keyboard)?.height ?? 0
    }

    /// The system's part of the bottom safe area: what the keyboard already covers
    /// without any additional inset (the home indicator, for instance).
    public static func baseBottomInset(_ view: ViewDescription) -> Double {
        max(0, view.safeAreaInsets.bottom - view.additionalBottomInset)
    }

    /// How far the keyboard reaches past the system safe area: the extra bottom
    /// inset the view needs, `max(0, overlap − base)`.
    public static func keyboardInset(_ view: ViewDescription, keyboard: Rect?, screen: Size) -> Double {
        let overlap = keyboardOverlap(viewFrame: view.frame, keyboard: keyboard, screen: screen)
        return max(0, overlap - baseBottomInset(view))
    }

    /// The adjusted state of `view` under `keyboard` (nil: hidden), with the
    /// offset clamped. `heldContentHeight` is the pre-keyboard content height kept
    /// while the keyboard is up and content is not resized for it.
    public static func adjust(
        _ id: ViewID, _ view: ViewDescription, offset: Point, keyboard: Rect?, screen: Size,
        animation: Animation
    ) -> ViewAdjustment {
        let up = keyboard != nil
        let inset = keyboardInset(view, keyboard: keyboard, screen: screen)
        var additional = view.additionalBottomInset
        var contentInset = view.contentInset
        var indicators = view.indicatorInsets
        switch view.options.behavior {
        case .safeAreaInsets:
            if up { additional = max(inset, view.additionalBottomInset) }
        case .contentSize:
            if up {
                let extra = max(0, inset - view.additionalBottomInset)
                contentInset.bottom += extra
                indicators.bottom += extra
            }
        case .none:
            break
        }
        let safe = view.safeAreaInsets.withBottom(baseBottomInset(view) + additional)
        let adjusted = safe + contentInset
        let size = contentSize(view, adjustedInsets: adjusted, keyboardUp: up)
        let legal = clamp(offset, contentSize: size, bounds: view.frame.size, insets: adjusted)
        let bounce = up && view.options.keyboardDismissMode != .none ? true : view.options.alwaysBounceVertical
        return ViewAdjustment(
            view: id, additionalBottomInset: additional, contentInset: contentInset,
            indicatorInsets: indicators, adjustedContentInset: adjusted, contentSize: size,
            contentOffset: legal, alwaysBounceVertical: bounce, animation: animation)
    }

    /// The laid-out content size. Without a keyboard, content that may stretch
    /// fills at least the scroll view's safe area (SCVC: the content view is
    /// "greater than or equal to the size of the scroll view's safe area"): the
    /// frame inside its safe-area insets, the client's own content insets not
    /// subtracted, as the reference's constraint does not see them. With the
    /// keyboard up it either shrinks toward the safe area the keyboard leaves
    /// (down to its minimum) or keeps its pre-keyboard height.
    public static func contentSize(_ view: ViewDescription, adjustedInsets: EdgeInsets, keyboardUp: Bool)
        -> Size
    {
        let natural = view.contentSize
        let minimum = Size(
            width: min(view.minimumContentSize.width, natural.width),
            height: min(view.minimumContentSize.height, natural.height))
        let safeArea = view.frame.inset(by: view.safeAreaInsets).size
        let width = view.contentStretches ? max(natural.width, safeArea.width) : natural.width
        let restingHeight = view.contentStretches ? max(natural.height, safeArea.height) : natural.height
        guard keyboardUp, view.options.resizesContentForKeyboard, view.options.behavior != .none else {
            return Size(width: width, height: restingHeight)
        }
        // The adjusted insets less the client's own content insets: the safe area
        // with the keyboard's part added, whichever inset the behaviour grew.
        let top = adjustedInsets.top - view.contentInset.top
        let bottom = adjustedInsets.bottom - view.contentInset.bottom
        let visible = max(0, view.frame.height - top - bottom)
        let height =
            view.contentStretches
            ? max(minimum.height, visible)
            : max(minimum.height, min(natural.height, visible))
        return Size(width: width, height: height)
    }

    /// The nearest legal offset: `y ≤ contentH − visibleH − inset.top`, then
    /// `y ≥ −inset.top` (so short content rests at the top); the same for x.
    public static func clamp(_ offset: Point, contentSize: Size, bounds: Size, insets: EdgeInsets) -> Point {
        Point(
            x: clampAxis(
                offset.x, content: contentSize.width, length: bounds.width,
                leading: insets.left, trailing: insets.right),
            y: clampAxis(
                offset.y, content: contentSize.height, length: bounds.height,
                leading: insets.top, trailing: insets.bottom))
    }

    /// The legal range of one axis, `−leading ... max(−leading, content − length + trailing)`.
    public static func legalRange(content: Double, length: Double, leading: Double, trailing: Double)
        -> ClosedRange<Double>
    {
        let low = -leading
        return low...max(low, content - length + trailing)
    }

    private static func clampAxis(
        _ value: Double, content: Double, length: Double, leading: Double, trailing: Double
    ) -> Double {
        let range = legalRange(content: content, length: length, leading: leading, trailing: trailing)
        return min(max(value, range.lowerBound), range.upperBound)
    }

    /// The offset that brings `rect` (grown vertically by `margin`) into the visible
    /// area with the least movement, then clamped. A rectangle taller or wider than
    /// the visible area aligns its top / leading edge. The margin shrinks to what
    /// the visible height leaves around `rect`, so a field that fits is never
    /// pushed half out of view by its own margin.
    public static func scrollToVisible(
        _ rect: Rect, margin: Double, offset: Point, contentSize: Size, bounds: Size, insets: EdgeInsets
    ) -> Point {
        let room = (bounds.height - insets.top - insets.bottom - rect.height) / 2
        let margin = min(margin, max(0, room))
        let target = Rect(x: rect.minX, y: rect.minY - margin, width: rect.width, height: rect.height + 2 * margin)
        let x = axisToVisible(
            low: target.minX, high: target.maxX, offset: offset.x, length: bounds.width,
            leading: insets.left, trailing: insets.right)
        let y = axisToVisible(
            low: target.minY, high: target.maxY, offset: offset.y, length: bounds.height,
            leading: insets.top, trailing: insets.bottom)
        return clamp(Point(x: x, y: y), contentSize: contentSize, bounds: bounds, insets: insets)
    }

    private static func axisToVisible(
        low: Double, high: Double, offset: Double, length: Double, leading: Double, trailing: Double
    ) -> Double {
        let visibleLow = offset + leading
        let visibleHigh = offset + length - trailing
        if high - low > visibleHigh - visibleLow || low < visibleLow { return low - leading }
        if high > visibleHigh { return high - length + trailing }
        return offset
    }
}
