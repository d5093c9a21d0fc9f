/// How a view makes room for the keyboard.
public enum KeyboardAdjustmentBehavior: String, Hashable, Sendable, Codable, CaseIterable {
    /// Grow the view's additional bottom safe-area inset (the reference default).
    case safeAreaInsets
    /// Grow the scroll view's content and indicator bottom insets instead, leaving
    /// the safe area (and so the top inset) untouched.
    case contentSize
    /// Adjust nothing; the client only wants keyboard notifications.
    case none
}

/// How the user can dismiss the keyboard by dragging the view (as UIKit's
/// `keyboardDismissMode`); anything but `none` makes the view bounce while it is up.
public enum KeyboardDismissMode: String, Hashable, Sendable, Codable, CaseIterable {
    case none
    case onDrag
    case interactive
}

/// Per-view choices a client makes once, at registration.
public struct ViewOptions: Hashable, Sendable, Codable {
    public var behavior: KeyboardAdjustmentBehavior
    /// Shrink the content to the visible area above the keyboard (as far as its
    /// minimum allows) instead of holding its height.
    public var resizesContentForKeyboard: Bool
    /// Vertical margin kept around a rectangle scrolled into view.
    public var visibilityScrollMargin: Double
    public var keyboardDismissMode: KeyboardDismissMode
    /// The view's own bounce setting, restored when the keyboard hides.
    public var alwaysBounceVertical: Bool

    public init(
        behavior: KeyboardAdjustmentBehavior = .safeAreaInsets,
        resizesContentForKeyboard: Bool = false,
        visibilityScrollMargin: Double = 0,
        keyboardDismissMode: KeyboardDismissMode = .none,
        alwaysBounceVertical: Bool = false
    ) {
        self.behavior = behavior
        self.resizesContentForKeyboard = resizesContentForKeyboard
        self.visibilityScrollMargin = visibilityScrollMargin
        self.keyboardDismissMode = keyboardDismissMode
        self.alwaysBounceVertical = alwaysBounceVertical
    }
}

/// A scroll view as its client lays it out *without* insetd's adjustments.
///
/// Clients always describe their own values (their own additional inset, their own
/// content insets, their natural content size); insetd publishes the adjusted
/// values. Because the originals are never overwritten, hiding the keyboard
/// restores them exactly.
public struct ViewDescription: Hashable, Sendable, Codable {
    /// The scroll view's frame in screen space.
    public var frame: Rect
    /// Safe-area insets as the view reports them, including its own additional
    /// bottom inset (status bar, home indicator, toolbars, ...).
    public var safeAreaInsets: EdgeInsets
    /// The part of `safeAreaInsets.bottom` that the client itself added.
    public var additionalBottomInset: Double
    /// The scroll view's own content inset.
    public var contentInset: EdgeInsets
    /// The scroll view's own scroll-indicator inset.
    public var indicatorInsets: EdgeInsets
    /// The content's natural size.
    public var contentSize: Size
    /// The smallest size the content's layout allows (clamped to `contentSize`).
    public var minimumContentSize: Size
    /// Whether the content may grow to fill the safe area (the reference's
    /// priority-500 "at least the safe area" constraint).
    public var contentStretches: Bool
    public var contentOffset: Point
    public var options: ViewOptions

    public init(
        frame: Rect,
        safeAreaInsets: EdgeInsets = .zero,
        additionalBottomInset: Double = 0,
        contentInset: EdgeInsets = .zero,
        indicatorInsets: EdgeInsets = .zero,
        contentSize: Size,
        minimumContentSize: Size? = nil,
        contentStretches: Bool = true,
        contentOffset: Point = .zero,
        options: ViewOptions = ViewOptions()
    ) {
        self.frame = frame
        self.safeAreaInsets = safeAreaInsets
        self.additionalBottomInset = additionalBottomInset
        self.contentInset = contentInset
        self.indicatorInsets = indicatorInsets
        self.contentSize = contentSize
        self.minimumContentSize = minimumContentSize ?? contentSize
        self.contentStretches = contentStretches
        self.contentOffset = contentOffset
        self.options = options
    }
}

/// What a client applies to one view: the complete adjusted state, so a client that
/// missed an update (or just connected) is right after the next one.
public struct ViewAdjustment: Hashable, Sendable, Codable, CustomStringConvertible {
    public var view: ViewID
    /// The additional bottom safe-area inset to set (the client's own value when
    /// the keyboard is hidden or the behavior is not `safeAreaInsets`).
    public var additionalBottomInset: Double
    public var contentInset: EdgeInsets
    public var indicatorInsets: EdgeInsets
    /// Total insets the scroll view ends up with (safe area plus content inset);
    /// every published offset is legal for these.
    public var adjustedContentInset: EdgeInsets
    public var contentSize: Size
    public var contentOffset: Point
    public var alwaysBounceVertical: Bool
    public var animation: Animation

    public init(
        view: ViewID, additionalBottomInset: Double, contentInset: EdgeInsets, indicatorInsets: EdgeInsets,
        adjustedContentInset: EdgeInsets, contentSize: Size, contentOffset: Point, alwaysBounceVertical: Bool,
        animation: Animation
    ) {
        self.view = view
        self.additionalBottomInset = additionalBottomInset
        self.contentInset = contentInset
        self.indicatorInsets = indicatorInsets
        self.adjustedContentInset = adjustedContentInset
        self.contentSize = contentSize
        self.contentOffset = contentOffset
        self.alwaysBounceVertical = alwaysBounceVertical
        self.animation = animation
    }

    public var description: String {
        "\(view) bottom=\(formatPoints(additionalBottomInset))"
            + " content-inset=\(contentInset) indicators=\(indicatorInsets)"
            + " adjusted=\(adjustedContentInset) size=\(contentSize)"
            + " offset=\(formatPoints(contentOffset.x)),\(formatPoints(contentOffset.y))"
            + " bounce=\(alwaysBounceVertical ? "yes" : "no") animate=\(animation)"
    }

    /// Equal in everything a client applies, ignoring how to animate it.
    func sameState(as other: ViewAdjustment) -> Bool {
        var copy = other
        copy.animation = animation
        return copy == self
    }
}
