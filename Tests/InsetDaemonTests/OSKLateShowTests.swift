import InsetCore
import InsetProtocol
import Testing

/// insetd-osk gives a show up after its four asks (1.48 s): it reports the
/// problem, then hides insetd's keyboard. maliit's first show after it starts
/// can answer the asks later than that, and the bridge reports it as shown.
/// The show was asked for a field: it stays while a field is still focused,
/// and with none (the app blurred meanwhile) it is refused and the bridge told
/// the keyboard is hidden, so it hides the OSK. 5 s after giving up, a show
/// is the user's again, focused field or not.
extension DaemonCoreRoutingTests {
    @Test(arguments: [(true, 1000, true), (false, 1000, false), (false, 4999, false), (false, 5000, true)])
    func aShowAfterTheBridgeGaveUpStaysOnlyForAFocusedField(focused: Bool, afterMs: Int64, kept: Bool) throws {
        let (app, bridge) = appFocusedBesideABridge()
        // Four asks, no show: the problem, then the hide.
        clock.now = Instant.zero + .seconds(2)
        let gaveUpAt = clock.now
        request(bridge, .oskProblem(bridge: "kwin", problem: "kwin did not show after 4 attempts"))
        request(bridge, .oskVisibility(bridge: "kwin", visible: false))
        settle()
        if !focused {
            request(app, .blur(view: "form"))
            settle()
        }
        _ = try outbox.take(app)
        _ = try outbox.take(bridge)

        clock.now = gaveUpAt + .milliseconds(afterMs)
        request(bridge, .oskVisibility(bridge: "kwin", visible: true))
        settle()
        let appPhases = try outbox.take(app).compactMap { if case .keyboard(let note, _) = $0 { note.phase } else { nil } }
        let bridgePhases = try outbox.take(bridge).compactMap { if case .keyboard(let note, _) = $0 { note.phase } else { nil } }
        if kept {
            #expect(appPhases == [.willShow, .didShow])
            #expect(bridgePhases == [.willShow, .didShow])
        } else {
            #expect(appPhases.isEmpty)
            #expect(bridgePhases == [.didHide])
        }
    }

    /// Only the hide that follows the bridge's own problem is a show given up:
    /// the user's hide (no problem reported) leaves the OSK's next show the
    /// user's, kept with nothing focused.
    @Test func theUsersHideIsNoShowGivenUp() throws {
        let (app, bridge) = appFocusedBesideABridge()
        clock.now = Instant.zero + .seconds(2)
        request(bridge, .oskVisibility(bridge: "kwin", visible: false))
        settle()
        request(app, .blur(view: "form"))
        settle()
        _ = try outbox.take(app)
        clock.now = Instant.zero + .seconds(3)
        request(bridge, .oskVisibility(bridge: "kwin", visible: true))
        settle()
        let appPhases = try outbox.take(app).compactMap { if case .keyboard(let note, _) = $0 { note.phase } else { nil } }
        #expect(appPhases == [.willShow, .didShow])
    }
}

/// A client that joins while a show waits for the OSK bridge's confirmation
/// is welcomed with the keyboard as apps were told it: none yet, as nothing
/// is on the screen; once the bridge confirms, the keyboard. `status` says
/// the decision all along.
extension DaemonCoreRoutingTests {
    @Test func aClientWelcomedWhileAShowWaitsForTheOSKSeesNoKeyboardYet() throws {
        let (app, bridge) = (a, b)
        join(app)
        join(bridge)
        request(bridge, .oskFrame(bridge: "squeekboard", frame: nil))
        request(app, .register(Self.view))
        request(app, .focus(view: "form", field: Rect(x: 0, y: 100, width: 400, height: 40)))
        join(ClientID("c3"))
        guard case .welcome(_, _, let waiting, _)? = try outbox.take(ClientID("c3")).first else {
            Issue.record("no welcome")
            return
        }
        #expect(waiting.keyboard == nil)
        request(ClientID("c3"), .status, id: .number(1))
        guard case .status(_, let decided, _, _)? = try outbox.take(ClientID("c3")).first else {
            Issue.record("no status")
            return
        }
        // The configured 1280x800 landscape keyboard, 209 high (docs/insetd.yaml.5).
        #expect(decided.keyboard == WireRect(Self.landscapeKeyboard))
        // The bridge measures squeekboard 1280 wide and 180 high: the show is on the screen.
        let real = Rect(x: 0, y: 620, width: 1280, height: 180)
        request(bridge, .oskFrame(bridge: "squeekboard", frame: real))
        join(ClientID("c4"))
        guard case .welcome(_, _, let shown, _)? = try outbox.take(ClientID("c4")).first else {
            Issue.record("no welcome")
            return
        }
        #expect(shown.keyboard == WireRect(real))
    }
}
