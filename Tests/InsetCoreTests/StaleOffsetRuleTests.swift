import Testing

@testable import InsetCore

/// ENGINE.md rule 11's stale offset, at the pipeline's API (scenarios 38 and 39
/// have the focused-field cases): an update that restates the client's previous
/// offset, or an offset insetd published before its last one, while changing
/// something else was laid out before insetd's last adjustment reached the
/// client, so insetd's offset stands; any other moved offset is the user's.
@Suite struct StaleOffsetRuleTests {
    static let view = ViewID(client: ClientID("kiosk"), name: "page")
    static let registered = ViewDescription(
        frame: Rect(x: 0, y: 0, width: 390, height: 844), contentSize: Size(width: 390, height: 2000))

    /// One client update: what changes in the view's description. Or, with
    /// `request`, insetd scrolling again before the client says anything: a
    /// request for `request`..`request` + 44 (margin 0).
    struct Change: Sendable, CustomStringConvertible {
        var height: Double? = nil
        var content: Double? = nil
        var offset: Double = 0
        var request: Double? = nil
        var description: String {
            if let request { return "insetd scrolls to \(request)" }
            return "offset \(offset)" + (height.map { " height \($0)" } ?? "") + (content.map { " content \($0)" } ?? "")
        }
    }

    /// Registered at 0 with no keyboard; a request for 1000..1044 (margin 0)
    /// publishes 1044 - 844 = 200 before the client has said anything else.
    static func scrolledByInsetd() throws -> (InsetPipeline, ViewDescription) {
        var pipeline = InsetPipeline(screen: Size(width: 390, height: 844))
        _ = try pipeline.handle(.register(view, registered), now: .zero)
        _ = try pipeline.handle(
            .scrollToVisible(ScrollRequest(view: view, rect: Rect(x: 0, y: 1000, width: 390, height: 44), margin: 0)),
            now: .milliseconds(10))
        #expect(pipeline.engine.adjustment(of: view)?.contentOffset == Point(x: 0, y: 200))
        return (pipeline, registered)
    }

    /// Updates in order, and the offset insetd publishes after them.
    struct Case: Sendable, CustomStringConvertible {
        var changes: [Change]
        var expected: Double
        var description: String { changes.map(\.description).joined(separator: ", ") + " -> \(expected)" }
        init(_ changes: [Change], _ expected: Double) {
            self.changes = changes
            self.expected = expected
        }
    }

    static let cases: [Case] = [
        // The window shrinks to 600 before the scroll arrives: 0 is stale.
        Case([Change(height: 600, offset: 0)], 200),
        // The content grows before the scroll arrives: 0 is stale.
        Case([Change(content: 2500, offset: 0)], 200),
        // Two layout changes before it arrives: both stale.
        Case([Change(height: 600, offset: 0), Change(content: 2500, offset: 0)], 200),
        // Nothing but the offset, back to 0: the user's.
        Case([Change(offset: 0)], 0),
        // A new frame with an offset of its own: the user's.
        Case([Change(height: 600, offset: 50)], 50),
        // The client applied 200 and said so; later a new frame at 0 is the user's.
        Case([Change(offset: 200), Change(height: 600, offset: 0)], 0),
        // The user scrolled to 70 after 200 arrived; a new frame restating 70 is.
        Case([Change(offset: 70), Change(height: 600, offset: 70)], 70),
        // insetd scrolls again (1344 - 844 = 500) before the client has said
        // anything: 200 is on its way, then 500.
        // The client applied 200 and its window shrank: 200 is stale, 500 stands.
        Case([Change(request: 1300), Change(height: 600, offset: 200)], 500),
        // It applied nothing yet: 0, its own last offset, is stale too.
        Case([Change(request: 1300), Change(height: 600, offset: 0)], 500),
        // Stale at 0 first, then 200 applied with the content grown: still
        // stale (200 stays on its way while the client restates 0).
        Case([Change(request: 1300), Change(height: 600, offset: 0), Change(content: 2500, offset: 200)], 500),
        // 200 with a new frame, then the content grows, still at 200: both stale.
        Case([Change(request: 1300), Change(height: 600, offset: 200), Change(content: 2500, offset: 200)], 500),
        // Nothing but the offset, to 200: the user's, even to insetd's earlier offset.
        Case([Change(request: 1300), Change(offset: 200)], 200),
        // The client applied 500; a new frame at 200 later is the user's.
        Case([Change(request: 1300), Change(offset: 500), Change(height: 600, offset: 200)], 200),
        // The client applied 200, the user scrolled to 70, then a new frame
        // back at 200: the user's (200 reached the client long ago).
        Case([Change(offset: 200), Change(offset: 70), Change(height: 600, offset: 200)], 200),
        // The user scrolled to 70 before 200 arrived: 200 is the user's no
        // more either; a new frame at 200 later is the user's.
        Case([Change(offset: 70), Change(height: 600, offset: 200)], 200),
    ]

    @Test(arguments: cases)
    func anUpdateRestatingTheOffsetBeforeInsetdsAdjustmentKeepsInsetds(_ rule: Case) throws {
        var (pipeline, view) = try Self.scrolledByInsetd()
        for (index, change) in rule.changes.enumerated() {
            let now = Instant.milliseconds(100 + 50 * Int64(index))
            if let request = change.request {
                let rect = Rect(x: 0, y: request, width: 390, height: 44)
                _ = try pipeline.handle(.scrollToVisible(ScrollRequest(view: Self.view, rect: rect, margin: 0)), now: now)
                continue
            }
            if let height = change.height { view.frame.size.height = height }
            if let content = change.content { view.contentSize.height = content }
            view.contentOffset = Point(x: 0, y: change.offset)
            _ = try pipeline.handle(.update(Self.view, view), now: now)
        }
        #expect(pipeline.engine.adjustment(of: Self.view)?.contentOffset == Point(x: 0, y: rule.expected))
    }

    /// An adjustment a later one replaces within the same step is never sent:
    /// an offset the client states later that only it had is the user's.
    ///
    /// Page 390x844, content 2000, no safe area. A field at 100..144 focused,
    /// keyboard up (336): the user scrolls to the bottom, 2000 + 336 - 844 = 1492. A USB keyboard counts
    /// after its 200 ms hold-off (500 ms) and shrinks the keyboard to its 44 pt
    /// bar, with a request for 100..144 queued behind it: in one pass (600 ms)
    /// the bar clamps the offset to 2000 + 44 - 844 = 1200, then the request
    /// scrolls to 100 (the focused field's scroll keeps it); only 100 is sent. A new content size stated at 1200 is
    /// then the user's.
    @Test func anOffsetNeverSentIsNotOnItsWay() throws {
        var pipeline = InsetPipeline(screen: Size(width: 390, height: 844))
        var view = Self.registered
        _ = try pipeline.handle(.register(Self.view, view), now: .zero)
        _ = try pipeline.handle(.focus(Self.view, field: Rect(x: 0, y: 100, width: 390, height: 44)), now: .zero)
        _ = pipeline.advance(to: .milliseconds(100))
        view.contentOffset = Point(x: 0, y: 1492)
        _ = try pipeline.handle(.update(Self.view, view), now: .milliseconds(200))
        #expect(pipeline.engine.adjustment(of: Self.view)?.contentOffset == Point(x: 0, y: 1492))
        _ = try pipeline.handle(.keyboardAttached(id: "usb", placement: .external), now: .milliseconds(300))
        _ = pipeline.advance(to: .milliseconds(500))
        let request = ScrollRequest(view: Self.view, rect: Rect(x: 0, y: 100, width: 390, height: 44), margin: 0)
        _ = try pipeline.handle(.scrollToVisible(request), now: .milliseconds(510))
        let pass = pipeline.advance(to: .milliseconds(600)).outputs.compactMap { timed -> Point? in
            if case .adjustment(let adjustment) = timed.output { return adjustment.contentOffset }
            return nil
        }
        #expect(pass == [Point(x: 0, y: 100)])
        view.contentOffset = Point(x: 0, y: 1200)
        view.contentSize.height = 2500
        _ = try pipeline.handle(.update(Self.view, view), now: .milliseconds(700))
        #expect(pipeline.engine.adjustment(of: Self.view)?.contentOffset == Point(x: 0, y: 1200))
    }
}
