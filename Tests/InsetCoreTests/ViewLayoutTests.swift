import Testing

@testable import InsetCore

/// The engine rules of DESIGN.md, each with worked numbers.
@Suite struct ViewLayoutTests {
    static let screen = Size(width: 390, height: 844)
    /// The docked 336 pt keyboard of a 390x844 phone.
    static let keyboard = Rect(x: 0, y: 508, width: 390, height: 336)
    static let id = ViewID(client: ClientID("app"), name: "view")

    static func phoneView(
        frame: Rect = Rect(x: 0, y: 0, width: 390, height: 844), bottomSafe: Double = 34,
        additional: Double = 0, content: Size = Size(width: 390, height: 2000),
        options: ViewOptions = ViewOptions()
    ) -> ViewDescription {
        ViewDescription(
            frame: frame, safeAreaInsets: EdgeInsets(top: 47, bottom: bottomSafe),
            additionalBottomInset: additional, contentSize: content, options: options)
    }

    struct OverlapCase: Sendable, CustomTestStringConvertible {
        var name: String
        var frame: Rect
        var keyboard: Rect?
        var expectedInset: Double
        var testDescription: String { name }
    }

    @Test(arguments: [
        OverlapCase(
            name: "full-screen view under the docked keyboard: 336 - 34",
            frame: Rect(x: 0, y: 0, width: 390, height: 844), keyboard: keyboard, expectedInset: 302),
        OverlapCase(
            name: "view ending 100 pt above the keyboard's top",
            frame: Rect(x: 0, y: 0, width: 390, height: 408), keyboard: keyboard, expectedInset: 0),
        OverlapCase(
            name: "view ending exactly at the keyboard's top edge",
            frame: Rect(x: 0, y: 0, width: 390, height: 508), keyboard: keyboard, expectedInset: 0),
        OverlapCase(
            name: "half-covered view: bottom 168 of it overlapped, minus the 34 base",
            frame: Rect(x: 0, y: 0, width: 390, height: 676), keyboard: keyboard, expectedInset: 134),
        OverlapCase(
            name: "floating keyboard that leaves the bottom edge",
            frame: Rect(x: 0, y: 0, width: 390, height: 844),
            keyboard: Rect(x: 40, y: 300, width: 310, height: 250), expectedInset: 0),
        OverlapCase(
            name: "keyboard hidden", frame: Rect(x: 0, y: 0, width: 390, height: 844), keyboard: nil,
            expectedInset: 0),
        OverlapCase(
            name: "side-by-side view only partly wide still counts full height",
            frame: Rect(x: 195, y: 0, width: 195, height: 844), keyboard: keyboard, expectedInset: 302),
    ])
    func keyboardInset(_ c: OverlapCase) {
        let view = Self.phoneView(frame: c.frame)
        #expect(ViewLayout.keyboardInset(view, keyboard: c.keyboard, screen: Self.screen) == c.expectedInset)
    }

    @Test func baseExcludesTheViewsOwnAdditionalInset() {
        // Safe area bottom 84 = 34 home indicator + 50 of the client's own toolbar.
        let view = Self.phoneView(bottomSafe: 84, additional: 50)
        #expect(ViewLayout.baseBottomInset(view) == 34)
        #expect(ViewLayout.keyboardInset(view, keyboard: Self.keyboard, screen: Self.screen) == 302)
    }

    @Test func safeAreaBehaviourPublishesMaxOfInsetAndOriginal() {
        let small = Self.phoneView(bottomSafe: 84, additional: 50)
        let shown = ViewLayout.adjust(
            Self.id, small, offset: .zero, keyboard: Self.keyboard, screen: Self.screen, animation: .none)
        #expect(shown.additionalBottomInset == 302)
        #expect(shown.adjustedContentInset == EdgeInsets(top: 47, bottom: 336))

        // An own inset larger than the keyboard's wins.
        let large = Self.phoneView(bottomSafe: 434, additional: 400)
        let kept = ViewLayout.adjust(
            Self.id, large, offset: .zero, keyboard: Self.keyboard, screen: Self.screen, animation: .none)
        #expect(kept.additionalBottomInset == 400)

        let hidden = ViewLayout.adjust(
            Self.id, small, offset: .zero, keyboard: nil, screen: Self.screen, animation: .none)
        #expect(hidden.additionalBottomInset == 50)
        #expect(hidden.adjustedContentInset == EdgeInsets(top: 47, bottom: 84))
    }

    @Test func contentSizeBehaviourGrowsBottomInsetsAndKeepsTop() {
        var view = Self.phoneView(options: ViewOptions(behavior: .contentSize))
        view.contentInset = EdgeInsets(top: 10, bottom: 20)
        view.indicatorInsets = EdgeInsets(top: 5, bottom: 20)
        let shown = ViewLayout.adjust(
            Self.id, view, offset: .zero, keyboard: Self.keyboard, screen: Self.screen, animation: .none)
        #expect(shown.additionalBottomInset == 0)
        #expect(shown.contentInset == EdgeInsets(top: 10, bottom: 322))
        #expect(shown.indicatorInsets == EdgeInsets(top: 5, bottom: 322))
        // 34 safe + 322 content inset: the overlap (336) plus the view's own 20.
        #expect(shown.adjustedContentInset == EdgeInsets(top: 57, bottom: 356))
    }

    @Test func noneBehaviourChangesNothingButBounce() {
        let view = Self.phoneView(options: ViewOptions(behavior: .none, keyboardDismissMode: .onDrag))
        let shown = ViewLayout.adjust(
            Self.id, view, offset: .zero, keyboard: Self.keyboard, screen: Self.screen, animation: .none)
        #expect(shown.additionalBottomInset == 0)
        #expect(shown.adjustedContentInset == EdgeInsets(top: 47, bottom: 34))
        #expect(shown.alwaysBounceVertical)
    }

    struct ContentCase: Sendable, CustomTestStringConvertible {
        var name: String
        var natural: Size
        var minimum: Size
        var stretches: Bool
        var resize: Bool
        var keyboard: Rect?
        var expected: Size
        var testDescription: String { name }
    }

    // Safe area of the 390x844 view: 844 - 47 - 34 = 763 tall. With the keyboard
    // up: 844 - 47 - 336 = 461 visible.
    @Test(arguments: [
        ContentCase(
            name: "short stretchable content fills the safe area", natural: Size(width: 300, height: 400),
            minimum: Size(width: 300, height: 400), stretches: true, resize: false, keyboard: nil,
            expected: Size(width: 390, height: 763)),
        ContentCase(
            name: "short rigid content keeps its size", natural: Size(width: 300, height: 400),
            minimum: Size(width: 300, height: 400), stretches: false, resize: false, keyboard: nil,
            expected: Size(width: 300, height: 400)),
        ContentCase(
            name: "held: height stays at the pre-keyboard 763", natural: Size(width: 390, height: 400),
            minimum: Size(width: 390, height: 300), stretches: true, resize: false, keyboard: keyboard,
            expected: Size(width: 390, height: 763)),
        ContentCase(
            name: "resized: shrinks to the 461 visible above the keyboard",
            natural: Size(width: 390, height: 400), minimum: Size(width: 390, height: 300), stretches: true,
            resize: true, keyboard: keyboard, expected: Size(width: 390, height: 461)),
        ContentCase(
            name: "resized: no further than its minimum", natural: Size(width: 390, height: 700),
            minimum: Size(width: 390, height: 600), stretches: true, resize: true, keyboard: keyboard,
            expected: Size(width: 390, height: 600)),
        ContentCase(
            name: "resized rigid content never grows past natural", natural: Size(width: 390, height: 400),
            minimum: Size(width: 390, height: 300), stretches: false, resize: true, keyboard: keyboard,
            expected: Size(width: 390, height: 400)),
        ContentCase(
            name: "resized rigid content shrinks toward visible", natural: Size(width: 390, height: 700),
            minimum: Size(width: 390, height: 300), stretches: false, resize: true, keyboard: keyboard,
            expected: Size(width: 390, height: 461)),
    ])
    func contentSize(_ c: ContentCase) {
        var view = Self.phoneView(content: c.natural, options: ViewOptions(resizesContentForKeyboard: c.resize))
        view.minimumContentSize = c.minimum
        view.contentStretches = c.stretches
        let adjustment = ViewLayout.adjust(
            Self.id, view, offset: .zero, keyboard: c.keyboard, screen: Self.screen, animation: .none)
        #expect(adjustment.contentSize == c.expected)
    }

    // SCVC: content is "greater than or equal to the size of the scroll view's
    // safe area": 763 tall without the keyboard, 461 above it (resized), whatever
    // content insets (8 top, 16 bottom) the client keeps inside that.
    @Test func stretchFillsTheSafeAreaNotTheAreaInsideOwnContentInsets() {
        var view = Self.phoneView(
            content: Size(width: 390, height: 400), options: ViewOptions(resizesContentForKeyboard: true))
        view.minimumContentSize = Size(width: 390, height: 300)
        view.contentInset = EdgeInsets(top: 8, bottom: 16)
        let resting = ViewLayout.adjust(Self.id, view, offset: .zero, keyboard: nil, screen: Self.screen, animation: .none)
        let up = ViewLayout.adjust(
            Self.id, view, offset: .zero, keyboard: Self.keyboard, screen: Self.screen, animation: .none)
        #expect(resting.contentSize == Size(width: 390, height: 763))
        #expect(up.contentSize == Size(width: 390, height: 461))
        // So the view scrolls by its own insets: y from -55 to 763 - 844 + 50 = -31.
        #expect(resting.contentOffset == Point(x: 0, y: -31))
    }

    struct ClampCase: Sendable {
        var offset: Point
        var content: Size
        var expected: Point
    }

    // Bounds 390x844, insets top 47, bottom 336: y ∈ [-47, content - 844 + 336].
    @Test(arguments: [
        ClampCase(offset: Point(x: 0, y: 0), content: Size(width: 390, height: 2000), expected: Point(x: 0, y: 0)),
        ClampCase(
            offset: Point(x: 0, y: 5000), content: Size(width: 390, height: 2000), expected: Point(x: 0, y: 1492)),
        ClampCase(
            offset: Point(x: 0, y: -300), content: Size(width: 390, height: 2000), expected: Point(x: 0, y: -47)),
        // Content shorter than the visible area rests at the top.
        ClampCase(
            offset: Point(x: 0, y: 100), content: Size(width: 390, height: 300), expected: Point(x: 0, y: -47)),
        ClampCase(
            offset: Point(x: 900, y: 0), content: Size(width: 600, height: 2000), expected: Point(x: 210, y: 0)),
        ClampCase(
            offset: Point(x: -10, y: 0), content: Size(width: 600, height: 2000), expected: Point(x: 0, y: 0)),
    ])
    func clamp(_ c: ClampCase) {
        let result = ViewLayout.clamp(
            c.offset, contentSize: c.content, bounds: Size(width: 390, height: 844),
            insets: EdgeInsets(top: 47, bottom: 336))
        #expect(result == c.expected)
    }

    struct ScrollCase: Sendable {
        var rect: Rect
        var margin: Double
        var offset: Point
        var expected: Point
    }

    // Visible with the keyboard: content y from offset+47 to offset+508.
    @Test(arguments: [
        // Field below the keyboard's top: bottom edge 764 aligns with 508.
        ScrollCase(
            rect: Rect(x: 16, y: 720, width: 358, height: 44), margin: 0, offset: .zero,
            expected: Point(x: 0, y: 256)),
        // Margin 20 adds room below: 784 - 508 = 276.
        ScrollCase(
            rect: Rect(x: 16, y: 720, width: 358, height: 44), margin: 20, offset: .zero,
            expected: Point(x: 0, y: 276)),
        // Already visible: no movement.
        ScrollCase(
            rect: Rect(x: 16, y: 200, width: 358, height: 44), margin: 0, offset: .zero, expected: .zero),
        // Above the visible area: top edge 100 - 10 aligns with the 47 top inset.
        ScrollCase(
            rect: Rect(x: 16, y: 100, width: 358, height: 44), margin: 10, offset: Point(x: 0, y: 400),
            expected: Point(x: 0, y: 43)),
        // Near the end: the target is clamped to the legal maximum 2000 - 508 = 1492.
        ScrollCase(
            rect: Rect(x: 16, y: 1980, width: 358, height: 20), margin: 40, offset: .zero,
            expected: Point(x: 0, y: 1492)),
        // Taller than the 461 visible: its top is aligned.
        ScrollCase(
            rect: Rect(x: 0, y: 600, width: 390, height: 600), margin: 0, offset: .zero,
            expected: Point(x: 0, y: 553)),
        // A 400 pt field fits the 461 visible, its 100 pt margins do not: the margin
        // shrinks to (461 - 400) / 2 = 30.5, so 1000 + 30.5 - 508 = 522.5 and the
        // whole field shows (aligning the 600 pt target's top would cut it at 961).
        ScrollCase(
            rect: Rect(x: 0, y: 600, width: 390, height: 400), margin: 100, offset: .zero,
            expected: Point(x: 0, y: 522.5)),
    ])
    func scrollToVisible(_ c: ScrollCase) {
        let result = ViewLayout.scrollToVisible(
            c.rect, margin: c.margin, offset: c.offset, contentSize: Size(width: 390, height: 2000),
            bounds: Size(width: 390, height: 844), insets: EdgeInsets(top: 47, bottom: 336))
        #expect(result == c.expected)
    }

    @Test(arguments: KeyboardDismissMode.allCases)
    func bounceWhileUpUnlessDismissModeIsNone(_ mode: KeyboardDismissMode) {
        let view = Self.phoneView(options: ViewOptions(keyboardDismissMode: mode, alwaysBounceVertical: false))
        let up = ViewLayout.adjust(
            Self.id, view, offset: .zero, keyboard: Self.keyboard, screen: Self.screen, animation: .none)
        let down = ViewLayout.adjust(Self.id, view, offset: .zero, keyboard: nil, screen: Self.screen, animation: .none)
        #expect(up.alwaysBounceVertical == (mode != .none))
        #expect(down.alwaysBounceVertical == false)
    }
}
