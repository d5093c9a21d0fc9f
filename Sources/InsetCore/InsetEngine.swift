/// Holds one state per registered scroll view and turns each filtered keyboard
/// frame, view update, transition and scroll request into the adjustments clients
/// apply.
///
/// The arithmetic lives in `ViewLayout`; this type decides what to publish and
/// when: only changes are published (a registration always is), and every
/// adjustment says how to animate.
public struct InsetEngine: Sendable {
    private struct ViewState: Sendable {
        var description: ViewDescription
        var offset: Point
        var published: ViewAdjustment?
    }

    /// The keyboard frame the views are currently adjusted for; nil = hidden.
    public private(set) var keyboardFrame: Rect?
    public private(set) var screen: Size
    private var views: [ViewID: ViewState] = [:]

    public init(screen: Size) {
        self.screen = screen
    }

    public var viewIDs: [ViewID] { views.keys.sorted() }

    public func description(of id: ViewID) -> ViewDescription? { views[id]?.description }

    /// The last adjustment published for `id`.
    public func adjustment(of id: ViewID) -> ViewAdjustment? { views[id]?.published }

    /// Adds (or replaces) a view. It gets the current keyboard state at once,
    /// unanimated, as a view pushed while the keyboard is up must.
    public mutating func register(_ id: ViewID, _ description: ViewDescription) -> ViewAdjustment {
        views[id] = ViewState(description: description, offset: description.contentOffset)
        return publish(id, animation: .none, force: true)!
    }

    /// A client changed its view (layout, content, user scrolling). Returns the
    /// adjustment when the published state changes.
    public mutating func update(_ id: ViewID, _ description: ViewDescription, animation: Animation = .none)
        throws(UnknownViewError) -> ViewAdjustment?
    {
        guard views[id] != nil else { throw UnknownViewError(view: id) }
        views[id]!.description = description
        views[id]!.offset = description.contentOffset
        return publish(id, animation: animation)
    }

    /// A view changes size in a transition (rotation): the upper-left corner of the
    /// visible content stays pinned, `offset += oldInset.topLeft − newInset.topLeft`,
    /// then the offset is clamped to the new legal range.
    public mutating func resize(_ id: ViewID, _ description: ViewDescription, animation: Animation)
        throws(UnknownViewError) -> ViewAdjustment?
    {
        guard let state = views[id] else { throw UnknownViewError(view: id) }
        let old = state.published ?? layout(id, state, animation: animation)
        views[id]!.description = description
        let new = layout(id, views[id]!, animation: animation)
        views[id]!.offset = Point(
            x: state.offset.x + old.adjustedContentInset.left - new.adjustedContentInset.left,
            y: state.offset.y + old.adjustedContentInset.top - new.adjustedContentInset.top)
        return publish(id, animation: animation)
    }

    @discardableResult
    public mutating func unregister(_ id: ViewID) -> Bool {
        views.removeValue(forKey: id) != nil
    }

    /// Removes every view of a client (it disconnected).
    public mutating func unregisterAll(of client: ClientID) {
        views = views.filter { $0.key.client != client }
    }

    /// Adjusts every view for a new (filtered) keyboard frame.
    public mutating func apply(_ change: KeyboardFrameChange) -> [ViewAdjustment] {
        keyboardFrame = change.frame
        screen = change.screen
        return viewIDs.compactMap { publish($0, animation: change.animation) }
    }

    /// Scrolls `request.rect` into the visible area of its view, against the insets
    /// in force now (the filter delivers requests after their keyboard frame).
    public mutating func scrollToVisible(_ request: ScrollRequest, animation: Animation)
        throws(UnknownViewError) -> ViewAdjustment?
    {
        guard let state = views[request.view] else { throw UnknownViewError(view: request.view) }
        let current = layout(request.view, state, animation: animation)
        views[request.view]!.offset = ViewLayout.scrollToVisible(
            request.rect, margin: request.margin ?? state.description.options.visibilityScrollMargin,
            offset: current.contentOffset, contentSize: current.contentSize,
            bounds: state.description.frame.size, insets: current.adjustedContentInset)
        return publish(request.view, animation: animation)
    }

    private func layout(_ id: ViewID, _ state: ViewState, animation: Animation) -> ViewAdjustment {
        ViewLayout.adjust(
            id, state.description, offset: state.offset, keyboard: keyboardFrame, screen: screen,
            animation: animation)
    }

    /// Lays the view out; returns the adjustment when it differs from the last one
    /// published (or always, when forced). The clamped offset becomes the view's.
    private mutating func publish(_ id: ViewID, animation: Animation, force: Bool = false) -> ViewAdjustment? {
        let adjustment = layout(id, views[id]!, animation: animation)
        views[id]!.offset = adjustment.contentOffset
        if !force, let last = views[id]!.published, last.sameState(as: adjustment) { return nil }
        views[id]!.published = adjustment
        return adjustment
    }
}

/// A request named a view that is not registered; the server answers it with an
/// error and keeps the connection.
public struct UnknownViewError: Error, Hashable, Sendable, CustomStringConvertible {
    public var view: ViewID
    public var description: String { "no view \(view) is registered" }
}
