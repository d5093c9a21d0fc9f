import InsetCore
import InsetProtocol
import Testing

@testable import InsetDaemon

/// A client that cannot know where its window is (`window` with `toplevel`)
/// is placed where a bridge says the compositor draws the focused window.
/// The default screen is 1280x800 with the keyboard at (0, 591, 1280, 209).
/// The window is maximized under a 32 pt top bar, as GNOME Shell draws it:
/// 1280x768 at y 32, covered 800 − 591 = 209 by the keyboard; taken to be at
/// 0,0 it would end at 768, covered 768 − 591 = 177.
extension DaemonCoreRoutingTests {
    static let underTopBar = Rect(x: 0, y: 32, width: 1280, height: 768)
    static let unplaced = ClientMessage.window(frame: Rect(x: 0, y: 0, width: 1280, height: 768), toplevel: Size(width: 1280, height: 768))

    /// `a` registers a 768 pt tall view in its window, said as `window`.
    func unplacedClient(_ window: ClientMessage = unplaced) {
        join(a)
        request(a, window)
        request(a, .register(Self.view(height: 768)))
    }

    /// `unplacedClient`, and `b`, a bridge, says the focused window is under the top bar.
    func unplacedClientUnderTopBar() {
        unplacedClient()
        join(b)
        request(b, .focusedWindow(bridge: "gnome", frame: Self.underTopBar))
    }

    @Test func theFocusedClientIsPlacedWhereTheCompositorDrawsItsWindow() throws {
        unplacedClient()
        join(b)
        request(b, .focusedWindow(bridge: "gnome", frame: Self.underTopBar), id: .number(2))
        #expect(try outbox.take(b).last == .ok(id: .number(2)))
        focusAndSettle(a)
        #expect(try lastInset(a) == 209)
    }

    @Test func withoutTheCompositorsWordTheWindowStaysAtTheTopLeft() throws {
        unplacedClient()
        focusAndSettle(a)
        #expect(try lastInset(a) == 177)
    }

    @Test func aReportAfterTheFocusMovesTheViewsWithTheKeyboardUp() throws {
        unplacedClient()
        join(b)
        focusAndSettle(a)
        #expect(try lastInset(a) == 177)
        request(b, .focusedWindow(bridge: "gnome", frame: Self.underTopBar))
        #expect(try lastInset(a) == 209)
        // The compositor has no focused window now: back to the top-left.
        request(b, .focusedWindow(bridge: "gnome", frame: nil))
        #expect(try lastInset(a) == 177)
    }

    @Test(arguments: [
        // Another window's size: not this client's window.
        Rect(x: 0, y: 32, width: 1280, height: 700),
        Rect(x: 0, y: 32, width: 1000, height: 768),
    ])
    func aFocusedWindowOfAnotherSizeIsNotTheClients(_ drawn: Rect) throws {
        unplacedClient()
        join(b)
        request(b, .focusedWindow(bridge: "gnome", frame: drawn))
        focusAndSettle(a)
        #expect(try lastInset(a) == 177)
    }

    @Test func sizesWithinAPointAreTheSameWindow() throws {
        unplacedClient()
        join(b)
        request(b, .focusedWindow(bridge: "gnome", frame: Rect(x: 0, y: 32, width: 1280.5, height: 767)))
        focusAndSettle(a)
        #expect(try lastInset(a) == 209)
    }

    @Test func aClientThatKnowsItsPlaceKeepsIt() throws {
        // No toplevel: the frame is where the client knows its window is.
        unplacedClient(.window(frame: Rect(x: 0, y: 0, width: 1280, height: 768)))
        join(b)
        request(b, .focusedWindow(bridge: "gnome", frame: Self.underTopBar))
        focusAndSettle(a)
        #expect(try lastInset(a) == 177)
    }

    @Test func theWindowsOwnOffsetAddsToWhereItIsDrawn() throws {
        // A browser's 56 pt bar inside the window: its viewport starts at 32 + 56 = 88,
        // 712 tall, ends at 800: covered 209. Taken at 0,0: 56...768, covered 177.
        join(a)
        request(a, .window(frame: Rect(x: 0, y: 56, width: 1280, height: 712), toplevel: Size(width: 1280, height: 768)))
        request(a, .register(Self.view(height: 712)))
        join(b)
        request(b, .focusedWindow(bridge: "gnome", frame: Self.underTopBar))
        focusAndSettle(a)
        #expect(try lastInset(a) == 209)
    }

    @Test func onlyTheClientHoldingTheFocusIsPlaced() throws {
        unplacedClientUnderTopBar()
        // c, another window of the same size, takes the focus: the compositor's
        // focused window is c's now, and a is back at its own word, 0,0.
        let c = ClientID("c3")
        join(c)
        request(c, .window(frame: Rect(x: 0, y: 0, width: 1280, height: 768), toplevel: Size(width: 1280, height: 768)))
        request(c, .register(Self.view(height: 768)))
        focusAndSettle(a)
        #expect(try lastInset(a) == 209)
        request(c, .focus(view: "form", field: Rect(x: 0, y: 10, width: 300, height: 44)))
        settle()
        #expect(try lastInset(c) == 209)
        #expect(core.placedOrigin(of: a) == Point(x: 0, y: 0))
        #expect(core.placedOrigin(of: c) == Point(x: 0, y: 32))
    }

    @Test func theBridgeLeavingTakesItsReadingWithIt() throws {
        unplacedClientUnderTopBar()
        focusAndSettle(a)
        #expect(try lastInset(a) == 209)
        core.handle(.server(.left(b)))
        #expect(try lastInset(a) == 177)
    }

    /// The `placed` messages `client` received, in order.
    func placements(_ client: ClientID) throws -> [Point] {
        try outbox.take(client).compactMap { message -> Point? in
            if case .placed(let origin) = message { origin } else { nil }
        }
    }

    @Test func theClientHearsWhereItsWindowIsMeasured() throws {
        unplacedClientUnderTopBar()
        #expect(try placements(a) == [], "not placed before it holds the focus")
        request(a, .focus(view: "form", field: Rect(x: 0, y: 10, width: 300, height: 44)))
        #expect(try placements(a) == [Point(x: 0, y: 32)])
        // The same place again says nothing new; a window that moved does.
        request(b, .focusedWindow(bridge: "gnome", frame: Self.underTopBar))
        #expect(try placements(a) == [])
        request(b, .focusedWindow(bridge: "gnome", frame: Rect(x: 0, y: 40, width: 1280, height: 768)))
        #expect(try placements(a) == [Point(x: 0, y: 40)])
        core.handle(.server(.left(b)))
        #expect(try placements(a) == [Point(x: 0, y: 0)])
    }

    @Test func aClientThatKnowsItsPlaceIsNeverToldOne() throws {
        unplacedClient(.window(frame: Rect(x: 0, y: 0, width: 1280, height: 768)))
        join(b)
        request(b, .focusedWindow(bridge: "gnome", frame: Self.underTopBar))
        focusAndSettle(a)
        #expect(try placements(a) == [])
    }

    @Test func aFocusInsetdRefusesMovesNoWindow() throws {
        unplacedClientUnderTopBar()
        focusAndSettle(a)
        #expect(try lastInset(a) == 209)
        // c focuses a view it never registered: refused, and a stays placed.
        let c = ClientID("c3")
        join(c)
        request(c, .window(frame: Rect(x: 0, y: 0, width: 1280, height: 768), toplevel: Size(width: 1280, height: 768)))
        request(c, .focus(view: "never", field: Rect(x: 0, y: 10, width: 300, height: 44)))
        #expect(core.placedOrigin(of: a) == Point(x: 0, y: 32))
        #expect(try placements(a) == [])
    }

    @Test func aWindowOfANewSizeIsNoLongerTheOneTheCompositorDraws() throws {
        unplacedClientUnderTopBar()
        focusAndSettle(a)
        #expect(try placements(a) == [Point(x: 0, y: 32)])
        // Restored from maximized: 1000x600, until the bridge says where it is now.
        request(a, .window(frame: Rect(x: 0, y: 0, width: 1000, height: 600), toplevel: Size(width: 1000, height: 600)))
        #expect(try placements(a) == [Point(x: 0, y: 0)])
        request(b, .focusedWindow(bridge: "gnome", frame: Rect(x: 140, y: 180, width: 1000, height: 600)))
        #expect(try placements(a) == [Point(x: 140, y: 180)])
    }
}
