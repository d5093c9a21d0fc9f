/// Holds one state per registered scroll view and turns each filtered keyboard
/// frame, view update, transition and scroll request into the adjustments clients
/// apply.
///
/// The arithmetic lives in `ViewLayout`; this type decides what to publish and
/// when: only changes are published (a registration always is), and every
/// adjustment says how to animate.
public struct InsetEngine: Sendable {
    private struct ViewState: Sendable {
        var id: ViewID
        var description: ViewDescription
        var offset: Point
        var published: ViewAdjustment?
        /// Offsets sent before `published`'s that the client has not stated.
        var inFlight = OffsetsInFlight()
        /// The step `published` was made in (nil: none yet).
        var publishedStep: UInt64?
    }

    /// The keyboard frame the views are currently adjusted for; nil = hidden.
    public private(set) var keyboardFrame: Rect?
    public private(set) var screen: Size
    /// Views sorted by id, so a keyboard change walks them in place, in a stable
    /// order, without hashing a single id (the per-view cost budget is 2 µs).
    private var states: [ViewState] = []
    private var positions: [ViewID: Int] = [:]
    /// The caller's step (`beginStep`): of the adjustments one step publishes
    /// for a view, only the last reaches its client.
    private var step: UInt64 = 0

    public init(screen: Size) {
        self.screen = screen
    }

    public var viewIDs: [ViewID] { states.map(\.id) }

    /// Starts a step whose outputs go to the clients together, one adjustment
    /// per view, the last the step published (`InsetPipeline` starts one per
    /// event, deadline or reload). An adjustment a later one replaces in its
    /// step was never sent: it is not recorded as on its way (rule 11). An
    /// engine whose steps are not marked records none.
    public mutating func beginStep() { step &+= 1 }

    public func description(of id: ViewID) -> ViewDescription? { positions[id].map { states[$0].description } }

    /// The last adjustment published for `id`.
    public func adjustment(of id: ViewID) -> ViewAdjustment? { positions[id].flatMap { states[$0].published } }

    /// Adds (or replaces) a view. It gets the current keyboard state at once,
    /// unanimated, as a view pushed while the keyboard is up must.
    public mutating func register(_ id: ViewID, _ description: ViewDescription) -> ViewAdjustment {
        let state = ViewState(id: id, description: description, offset: description.contentOffset)
        let index: Int
        if let existing = positions[id] {
            index = existing
            states[index] = state
        } else {
            index = states.partitioningIndex { $0.id >= id }
            states.insert(state, at: index)
            reindex(from: index)
        }
        return publish(at: index, animation: .none, force: true)!
    }

    /// A client changed its view (layout, content, user scrolling). Returns the
    /// adjustment when the published state changes. With
    /// `keepingPublishedOffset`, the offset the description states is not taken
    /// (see `statesStaleOffset`): the view stays where insetd last put it.
    public mutating func update(
        _ id: ViewID, _ description: ViewDescription, animation: Animation = .none,
        keepingPublishedOffset: Bool = false
    ) throws(UnknownViewError) -> ViewAdjustment? {
        let index = try position(of: id)
        stated(description.contentOffset, at: index, stale: keepingPublishedOffset)
        states[index].description = description
        if !keepingPublishedOffset || states[index].published == nil {
            states[index].offset = description.contentOffset
        }
        // An offset the client states (insetd's last, or the user's) leaves
        // nothing on its way; a stale one leaves insetd's last on its way.
        return publish(at: index, animation: animation, recording: keepingPublishedOffset)
    }

    /// Whether `description` states an offset older than insetd's last
    /// adjustment of the view, in an update that changes something else (frame,
    /// content, insets, options): the offset its client stated last time, or
    /// one insetd published before its last (the client applied an earlier
    /// adjustment), while the last is another. The client laid that change out
    /// before the last adjustment reached it; it applies that one when it
    /// arrives. An update that changes nothing but the offset is the user
    /// scrolling, even back to where the view was.
    public func statesStaleOffset(_ description: ViewDescription, of id: ViewID) -> Bool {
        guard let index = positions[id], let published = states[index].published else { return false }
        let last = states[index].description
        let offset = description.contentOffset
        guard offset != published.contentOffset,
            offset == last.contentOffset || states[index].inFlight.contains(offset)
        else { return false }
        var layoutOnly = description
        layoutOnly.contentOffset = last.contentOffset
        return layoutOnly != last
    }

    /// The client stated `offset`: what of insetd's adjustments is still on
    /// its way to it. Insetd's last offset, or an offset of the user's: none.
    private mutating func stated(_ offset: Point, at index: Int, stale: Bool) {
        if stale {
            states[index].inFlight.clear(through: offset)
        } else {
            states[index].inFlight.removeAll()
        }
    }

    /// A view changes size in a transition (rotation): the upper-left corner of the
    /// visible content stays pinned, `offset += oldInset.topLeft − newInset.topLeft`,
    /// then the offset is clamped to the new legal range.
    public mutating func resize(_ id: ViewID, _ description: ViewDescription, animation: Animation)
        throws(UnknownViewError) -> ViewAdjustment?
    {
        let index = try position(of: id)
        let old = states[index].published ?? layout(states[index], animation: animation)
        // The offset stated with a new size is replaced by the pinned one:
        // only insetd's last adjustment, when the client has not stated it,
        // is still on its way (`publish` records it); the ones before it are
        // the client's no more.
        states[index].inFlight.removeAll()
        states[index].description = description
        let new = layout(states[index], animation: animation)
        states[index].offset.x += old.adjustedContentInset.left - new.adjustedContentInset.left
        states[index].offset.y += old.adjustedContentInset.top - new.adjustedContentInset.top
        return publish(at: index, animation: animation)
    }

    @discardableResult
    public mutating func unregister(_ id: ViewID) -> Bool {
        guard let index = positions.removeValue(forKey: id) else { return false }
        states.remove(at: index)
        reindex(from: index)
        return true
    }

    /// Removes every view of a client (it disconnected).
    public mutating func unregisterAll(of client: ClientID) {
        states.removeAll { $0.id.client == client }
        positions = [:]
        reindex(from: 0)
    }

    /// Sets the keyboard frame and screen views are laid out against from now on,
    /// publishing nothing. A rotation announces its keyboard frame before the
    /// views report their new sizes: each view's `resize` is then computed once,
    /// against the new screen and the new keyboard, and `apply` later publishes
    /// only the views that did not report.
    public mutating func prepare(keyboard: Rect?, screen: Size) {
        keyboardFrame = keyboard
        self.screen = screen
    }

    /// Adjusts every view for a new (filtered) keyboard frame.
    public mutating func apply(_ change: KeyboardFrameChange) -> [ViewAdjustment] {
        keyboardFrame = change.frame
        screen = change.screen
        var changed: [ViewAdjustment] = []
        changed.reserveCapacity(states.count)
        for index in states.indices {
            if let adjustment = publish(at: index, animation: change.animation) { changed.append(adjustment) }
        }
        return changed
    }

    /// Scrolls `request.rect` into the visible area of its view, against the insets
    /// in force now (the filter delivers requests after their keyboard frame).
    public mutating func scrollToVisible(_ request: ScrollRequest, animation: Animation)
        throws(UnknownViewError) -> ViewAdjustment?
    {
        let index = try position(of: request.view)
        let state = states[index]
        let current = layout(state, animation: animation)
        states[index].offset = ViewLayout.scrollToVisible(
            request.rect, margin: request.margin ?? state.description.options.visibilityScrollMargin,
            offset: current.contentOffset, contentSize: current.contentSize,
            bounds: state.description.frame.size, insets: current.adjustedContentInset)
        return publish(at: index, animation: animation)
    }

    private func position(of id: ViewID) throws(UnknownViewError) -> Int {
        guard let index = positions[id] else { throw UnknownViewError(view: id) }
        return index
    }

    private mutating func reindex(from start: Int) {
        for index in start..<states.count { positions[states[index].id] = index }
    }

    private func layout(_ state: ViewState, animation: Animation) -> ViewAdjustment {
        ViewLayout.adjust(
            state.id, state.description, offset: state.offset, keyboard: keyboardFrame, screen: screen,
            animation: animation)
    }

    /// Lays the view out; returns the adjustment when it differs from the last one
    /// published (or always, when forced). The clamped offset becomes the view's.
    /// `recording`: the last published offset, when this one replaces it, was
    /// sent in an earlier step and the client has not stated it, is recorded
    /// as on its way.
    private mutating func publish(
        at index: Int, animation: Animation, force: Bool = false, recording: Bool = true
    ) -> ViewAdjustment? {
        let adjustment = layout(states[index], animation: animation)
        states[index].offset = adjustment.contentOffset
        if !force, let last = states[index].published, last.sameState(as: adjustment) { return nil }
        if recording, let last = states[index].published, last.contentOffset != adjustment.contentOffset,
            states[index].publishedStep != step, last.contentOffset != states[index].description.contentOffset
        {
            states[index].inFlight.record(last.contentOffset)
        }
        states[index].published = adjustment
        states[index].publishedStep = step
        return adjustment
    }
}

extension Array {
    /// The first index whose element satisfies `belongsInSecondPartition`, for an
    /// array already partitioned by it (binary search).
    fileprivate func partitioningIndex(where belongsInSecondPartition: (Element) -> Bool) -> Int {
        var low = 0
        var high = count
        while low < high {
            let middle = (low + high) / 2
            if belongsInSecondPartition(self[middle]) { high = middle } else { low = middle + 1 }
        }
        return low
    }
}

/// A request named a view that is not registered; the server answers it with an
/// error and keeps the connection.
public struct UnknownViewError: Error, Hashable, Sendable, CustomStringConvertible {
    public var view: ViewID
    public var description: String { "no view \(view) is registered" }
}
