import InsetCore
import InsetProtocol
import Testing

@testable import InsetDaemon

/// A client's `window`: its views are measured against the keyboard where the
/// window is on the screen. The default configuration's screen is 1280x800
/// (landscape), so the keyboard shows at (0, 591, 1280, 209): 800 − 209 = 591.
extension DaemonCoreRoutingTests {
    static func view(height: Double) -> WireView {
        WireView(
            view: "form",
            description: ViewDescription(
                frame: Rect(x: 0, y: 0, width: 1280, height: height), contentSize: Size(width: 1280, height: 2000)))
    }

    /// The bottom inset of the last adjustment `client` received (nil: none).
    func lastInset(_ client: ClientID) throws -> Double? {
        try outbox.take(client).compactMap { message -> Double? in
            if case .adjustment(_, let adjustment) = message { adjustment.additionalBottomInset } else { nil }
        }.last
    }

    func focusAndSettle(_ client: ClientID) {
        request(client, .focus(view: "form", field: Rect(x: 0, y: 10, width: 300, height: 44)))
        settle()
    }

    @Test func aWindowTheCompositorShrankForTheKeyboardIsCoveredByNothing() throws {
        // Below a 56 pt info bar, shrunk to end where the keyboard starts: 56 + 535 = 591.
        join(a)
        request(a, .window(frame: Rect(x: 0, y: 56, width: 1280, height: 535)), id: .number(1))
        #expect(try outbox.take(a).last == .ok(id: .number(1)))
        request(a, .register(Self.view(height: 535)))
        focusAndSettle(a)
        #expect(try lastInset(a) ?? 0 == 0)
    }

    @Test func aWindowAtAnOffsetGetsExactlyWhatTheKeyboardCovers() throws {
        // Screen 100...700 against the keyboard's 591...800: 109 covered (not the
        // 9 that the view's own 0...600 would say).
        join(a)
        request(a, .window(frame: Rect(x: 0, y: 100, width: 1280, height: 600)))
        request(a, .register(Self.view(height: 600)))
        focusAndSettle(a)
        #expect(try lastInset(a) == 109)
    }

    @Test func aFullScreenWindowGetsTheKeyboardsHeight() throws {
        join(a)
        request(a, .window(frame: Rect(x: 0, y: 0, width: 1280, height: 800)))
        request(a, .register(Self.view(height: 800)))
        focusAndSettle(a)
        #expect(try lastInset(a) == 209)
    }

    @Test func movingTheWindowMovesItsRegisteredViewsAndOnlyThose() throws {
        join(a)
        join(b)
        request(a, .register(Self.view(height: 600)))
        request(b, .register(Self.view(height: 600)))
        focusAndSettle(a)
        // No window said: at 0,0; 0...600 against 591...800 is 9.
        #expect(try lastInset(a) == 9)
        _ = try outbox.take(b)
        request(a, .window(frame: Rect(x: 0, y: 100, width: 1280, height: 600)), id: .number(4))
        let moved = try outbox.take(a)
        #expect(moved.last == .ok(id: .number(4)), "the move's adjustment before its ok")
        let insets = moved.compactMap { message -> Double? in
            if case .adjustment(_, let adjustment) = message { adjustment.additionalBottomInset } else { nil }
        }
        #expect(insets == [109])
        #expect(try lastInset(b) == nil, "another client's view stays where its client put it")
        // Back to the top-left; a view registered now is placed there too.
        request(a, .window(frame: Rect(x: 0, y: 0, width: 1280, height: 600)))
        #expect(try lastInset(a) == 9)
    }

    @Test func aClientsWindowIsForgottenWhenItLeaves() throws {
        join(a)
        request(a, .window(frame: Rect(x: 0, y: 100, width: 1280, height: 600)))
        core.handle(.server(.left(a)))
        // The same id again (a test's shortcut; the server never reuses one) starts at 0,0.
        join(a)
        request(a, .register(Self.view(height: 600)))
        focusAndSettle(a)
        #expect(try lastInset(a) == 9)
    }
}
