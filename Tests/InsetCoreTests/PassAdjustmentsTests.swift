import Testing

@testable import InsetCore

/// One engine pass publishes each view once, its latest adjustment, in the
/// order views were first adjusted (ENGINE.md: a scroll queued behind a
/// keyboard frame moves with it instead of starting a second animation).
@Suite struct PassAdjustmentsTests {
    static func view(_ name: String) -> ViewID { ViewID(client: ClientID("c1"), name: name) }

    /// An adjustment for `name` whose offset tells the adjustments apart.
    static func adjustment(_ name: String, offset: Double) -> ViewAdjustment {
        ViewAdjustment(
            view: view(name), additionalBottomInset: 0, contentInset: .zero, indicatorInsets: .zero,
            adjustedContentInset: .zero, contentSize: Size(width: 100, height: 1000),
            contentOffset: Point(x: 0, y: offset), alwaysBounceVertical: false, animation: .scrollDefault)
    }

    static func published(_ pass: PassAdjustments) -> [String] {
        pass.adjustments.map { "\($0.view.name)@\(Int($0.contentOffset.y))" }
    }

    @Test func aKeyboardChangeAloneIsPublishedAsTheEngineGaveIt() {
        var pass = PassAdjustments()
        pass.collect([Self.adjustment("a", offset: 1), Self.adjustment("b", offset: 2), Self.adjustment("c", offset: 3)])
        #expect(Self.published(pass) == ["a@1", "b@2", "c@3"])
    }

    /// (batches: each a list of (view, offset); expected: what is published)
    @Test(arguments: [
        // A scroll after the keyboard change replaces its view's adjustment in place.
        ([[("a", 1), ("b", 2)], [("b", 20)]], ["a@1", "b@20"]),
        // A scroll of a view the change did not adjust comes after.
        ([[("a", 1)], [("c", 30)]], ["a@1", "c@30"]),
        // Two keyboard changes in one pass: the second's adjustments win, first order kept.
        ([[("a", 1), ("b", 2)], [("b", 22), ("a", 11)]], ["a@11", "b@22"]),
        // The focused field's scroll last, after a scroll of the same view.
        ([[("a", 1), ("b", 2)], [("a", 5)], [("a", 7)]], ["a@7", "b@2"]),
        // Nothing from the engine, then a scroll.
        ([[], [("a", 4)]], ["a@4"]),
    ] as [([[(String, Int)]], [String])])
    func laterAdjustmentsReplaceEarlierOnesOfTheirView(batches: [[(String, Int)]], expected: [String]) {
        var pass = PassAdjustments()
        for (number, batch) in batches.enumerated() {
            let adjustments = batch.map { Self.adjustment($0.0, offset: Double($0.1)) }
            // The first batch as a keyboard change gives it; later single ones as scrolls do.
            if number == 0 || adjustments.count != 1 {
                pass.collect(adjustments)
            } else {
                pass.collect(adjustments[0])
            }
        }
        #expect(Self.published(pass) == expected)
    }
}
