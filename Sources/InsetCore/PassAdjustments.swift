/// One pass's adjustments, one per view (its latest), in the order the views
/// were first adjusted.
///
/// Why not a dictionary from the start: most passes are one keyboard change,
/// whose adjustments name each view once already; hashing a thousand view ids
/// for nothing was a measurable part of a change's fan-out. The index is built
/// when a second batch joins.
struct PassAdjustments {
    private(set) var adjustments: [ViewAdjustment] = []
    private var index: [ViewID: Int]?

    /// A batch from one engine call: each view at most once.
    mutating func collect(_ batch: [ViewAdjustment]) {
        if adjustments.isEmpty { return adjustments = batch }
        adjustments.reserveCapacity(adjustments.count + batch.count)
        batch.forEach { collect($0) }
    }

    mutating func collect(_ adjustment: ViewAdjustment) {
        if index == nil {
            index = Dictionary(uniqueKeysWithValues: adjustments.enumerated().map { ($1.view, $0) })
        }
        if let at = index![adjustment.view] {
            adjustments[at] = adjustment
        } else {
            index![adjustment.view] = adjustments.count
            adjustments.append(adjustment)
        }
    }
}
