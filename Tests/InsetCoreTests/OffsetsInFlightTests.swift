import Testing

@testable import InsetCore

/// The offsets of insetd's still travelling adjustments a view keeps (ENGINE.md
/// rule 11): four at most, the oldest dropped first; a stated one clears itself
/// and everything older.
@Suite struct OffsetsInFlightTests {
    static func y(_ value: Double) -> Point { Point(x: 0, y: value) }

    struct Case: Sendable, CustomStringConvertible {
        var recorded: [Double]
        var clearedThrough: Double?
        var kept: [Double]
        var description: String { "\(recorded) cleared through \(clearedThrough.map { "\($0)" } ?? "-") -> \(kept)" }
    }

    @Test(arguments: [
        Case(recorded: [], clearedThrough: nil, kept: []),
        Case(recorded: [10, 20], clearedThrough: nil, kept: [10, 20]),
        // A fifth pushes the oldest out.
        Case(recorded: [10, 20, 30, 40, 50], clearedThrough: nil, kept: [20, 30, 40, 50]),
        Case(recorded: [10, 20, 30, 40, 50, 60], clearedThrough: nil, kept: [30, 40, 50, 60]),
        // The client applied 20: 10 and 20 are behind it, 30 still on its way.
        Case(recorded: [10, 20, 30], clearedThrough: 20, kept: [30]),
        Case(recorded: [10, 20, 30], clearedThrough: 30, kept: []),
        // Cleared through the newest of five: nothing left.
        Case(recorded: [10, 20, 30, 40, 50], clearedThrough: 50, kept: []),
        // An offset that is none of them (the client's own, restated) clears nothing.
        Case(recorded: [10, 20, 30], clearedThrough: 25, kept: [10, 20, 30]),
        // An offset sent again is on its way once, as the newest.
        Case(recorded: [10, 20, 10], clearedThrough: 10, kept: []),
        Case(recorded: [10, 20, 10], clearedThrough: 20, kept: [10]),
        // One pushed out already: clearing through it clears nothing.
        Case(recorded: [10, 20, 30, 40, 50], clearedThrough: 10, kept: [20, 30, 40, 50]),
    ])
    func keepsTheNewestFourUntilStated(_ rule: Case) {
        var offsets = OffsetsInFlight()
        for value in rule.recorded { offsets.record(Self.y(value)) }
        if let through = rule.clearedThrough { offsets.clear(through: Self.y(through)) }
        let probed: [Double] = [10, 20, 30, 40, 50, 60]
        #expect(probed.filter { offsets.contains(Self.y($0)) } == rule.kept)
    }

    @Test func removeAllForgetsEverything() {
        var offsets = OffsetsInFlight()
        offsets.record(Self.y(10))
        offsets.removeAll()
        #expect(offsets == OffsetsInFlight())
        #expect(!offsets.contains(Self.y(10)))
    }
}
