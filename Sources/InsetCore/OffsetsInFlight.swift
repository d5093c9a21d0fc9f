/// The offsets insetd sent for a view before its latest adjustment, that the
/// view's client has not stated since: adjustments still on their way to
/// the client, or applied by it while a later one is on its way. An update
/// stating one of them with a layout change was laid out before the latest
/// adjustment arrived (ENGINE.md rule 11).
///
/// Held inline, four at most (the oldest goes first): a keyboard change that
/// moves every view's offset records one per view, and an array would be an
/// allocation per view per change.
struct OffsetsInFlight: Sendable, Equatable {
    private var first: Point?
    private var second: Point?
    private var third: Point?
    private var fourth: Point?

    init() {}

    /// Records an offset insetd sent, now superseded by a later one; the
    /// newest, once (an offset sent again is on its way once, as the last).
    mutating func record(_ offset: Point) {
        if contains(offset) { remove(offset) }
        guard first != nil else { return first = offset }
        guard second != nil else { return second = offset }
        guard third != nil else { return third = offset }
        if fourth != nil { (first, second, third) = (second, third, fourth) }
        fourth = offset
    }

    private mutating func remove(_ offset: Point) {
        let kept = [first, second, third, fourth]
        self = OffsetsInFlight()
        for case let other? in kept where other != offset { record(other) }
    }

    func contains(_ offset: Point) -> Bool {
        first == offset || second == offset || third == offset || fourth == offset
    }

    /// The client stated `offset`: when it is one of these, the client applied
    /// that adjustment, so it and the ones before it are no longer on their
    /// way. Any other offset leaves them all.
    mutating func clear(through offset: Point) {
        guard contains(offset) else { return }
        while let oldest = first {
            (first, second, third, fourth) = (second, third, fourth, nil)
            if oldest == offset { return }
        }
    }

    mutating func removeAll() { self = OffsetsInFlight() }
}
