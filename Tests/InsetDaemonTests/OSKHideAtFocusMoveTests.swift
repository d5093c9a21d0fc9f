import InsetCore
import InsetProtocol
import Testing

/// An OSK that follows the app's text input (squeekboard) hides by itself when
/// the app moves its text input to another field, a moment after the app told
/// insetd of the new focus; insetd-osk reports that hide as it reports the
/// user's. Within `InsetPipeline.focusMoveGrace` (1 s) of a focus reported
/// while the keyboard was up (the focus moved) the keyboard stays: nothing reaches the app, and the bridge is told the
/// keyboard is shown, so it shows the OSK again. Later the hide is the user's.
extension DaemonCoreRoutingTests {
    /// The default 1280x800 screen's landscape keyboard (docs/insetd.yaml.5: 209).
    static let landscapeKeyboard = Rect(x: 0, y: 591, width: 1280, height: 209)

    /// An app whose form has a field focused (the keyboard up) and a bridge, both joined.
    func appFocusedBesideABridge() -> (app: ClientID, bridge: ClientID) {
        join(a)
        join(b)
        request(a, .register(Self.view))
        request(a, .focus(view: "form", field: Rect(x: 0, y: 100, width: 400, height: 40)))
        settle()
        return (a, b)
    }

    @Test(arguments: [(280, true), (999, true), (1000, false), (1500, false)])
    func anOSKsOwnHideRightAfterAFocusReportKeepsTheKeyboard(afterMs: Int64, kept: Bool) throws {
        let (app, bridge) = appFocusedBesideABridge()
        // The focus moves to another field with the keyboard up.
        clock.now = Instant.zero + .seconds(5)
        let focusedAt = clock.now
        request(app, .focus(view: "form", field: Rect(x: 0, y: 300, width: 400, height: 40)))
        settle()
        _ = try outbox.take(app)
        _ = try outbox.take(bridge)

        clock.now = focusedAt + .milliseconds(afterMs)
        request(bridge, .oskVisibility(bridge: "squeekboard", visible: false))
        settle()
        let toApp = try outbox.take(app), toBridge = try outbox.take(bridge)
        let appPhases = toApp.compactMap { if case .keyboard(let note, _) = $0 { note.phase } else { nil } }
        let bridgeNotes = toBridge.compactMap { if case .keyboard(let note, _) = $0 { note } else { nil } }
        if kept {
            #expect(toApp.isEmpty, "\(toApp)")
            #expect(bridgeNotes.map(\.phase) == [.didShow], "\(toBridge)")
            #expect(bridgeNotes.first?.endFrame == Self.landscapeKeyboard)
        } else {
            #expect(appPhases == [.willHide, .didHide], "\(toApp)")
            #expect(bridgeNotes.map(\.phase) == [.willHide, .didHide], "\(toBridge)")
        }
    }

    /// A bridge hears the keyboard restated (a didShow of it as it is) when the
    /// focus moves with the keyboard up, so that it takes its OSK's hide at
    /// the app's text-input change for a drop; the app hears nothing new, and
    /// a client that never reported as a bridge is not told.
    @Test func aFocusMovedWithTheKeyboardUpIsRestatedToBridgesOnly() throws {
        let app = a, bridge = b, other = ClientID("c3")
        for client in [app, bridge, other] { join(client) }
        request(bridge, .oskAnimation(bridge: "squeekboard", animation: nil))
        request(app, .register(Self.view))
        request(app, .focus(view: "form", field: Rect(x: 0, y: 100, width: 400, height: 40)))
        settle()
        for client in [app, bridge, other] { _ = try outbox.take(client) }
        request(app, .focus(view: "form", field: Rect(x: 0, y: 300, width: 400, height: 40)))
        settle()
        let toBridge = try outbox.take(bridge).compactMap { if case .keyboard(let note, _) = $0 { note } else { nil } }
        #expect(toBridge.map(\.phase) == [.didShow])
        #expect(toBridge.first.map { $0.beginFrame == $0.endFrame && $0.endFrame == Self.landscapeKeyboard } == true)
        #expect(try outbox.take(other).isEmpty)
        let toApp = try outbox.take(app).filter { if case .keyboard = $0 { true } else { false } }
        #expect(toApp.isEmpty)
    }

    /// The user's hide stands even right after a focus when no field is focused
    /// any more; and the OSK's own show is the user's show at any time.
    @Test func withNoFieldFocusedTheHideIsTakenAtOnceAndAShowAlways() throws {
        let app = a, bridge = b
        join(app)
        join(bridge)
        request(app, .register(Self.view))
        request(bridge, .oskVisibility(bridge: "squeekboard", visible: true))
        settle()
        let shown = try outbox.take(app).compactMap { if case .keyboard(let note, _) = $0 { note.phase } else { nil } }
        #expect(shown == [.willShow, .didShow])
        request(bridge, .oskVisibility(bridge: "squeekboard", visible: false))
        settle()
        let hidden = try outbox.take(app).compactMap { if case .keyboard(let note, _) = $0 { note.phase } else { nil } }
        #expect(hidden == [.willHide, .didHide])
    }
}
