import Foundation
import InsetCore
import InsetProtocol
import Logging
import Testing

@testable import InsetDaemon

/// A bridge's word on how its keyboard moves (`oskAnimation`) reaches every
/// client in the keyboard's notifications, instead of the configured
/// animation; "not known" brings the configured one back, and a bridge that
/// leaves does not take its word with it (the OSK it drove still moves so).
extension OSKBridgeReportTests {
    /// The defaults' animation (docs/insetd.yaml.5: 250 ms, easeInOut).
    static let configured = Animation(duration: .milliseconds(250), curve: .easeInOut)
    var app: ClientID { other }

    /// The animations of the keyboard notifications `app` gets for a show (the
    /// clock stands still: an earlier movement's completion comes first, then
    /// the show's `will`, and its `did` too when it does not animate).
    func showNotifications() throws -> [KeyboardNotification] {
        _ = try request(app, .command(.keyboard(.hide)), id: nil)
        let notes = try request(app, .command(.keyboard(.show)), id: nil).compactMap {
            if case .keyboard(let note, _) = $0 { return note } else { return nil }
        }
        _ = try outbox.take(bridge)  // the same notifications
        return notes
    }

    /// The show's own animation (its `will`).
    func showAnimations() throws -> [Animation] {
        try showNotifications().filter { $0.phase == .willShow }.map(\.animation)
    }

    @Test func theBridgesAnimationReplacesTheConfiguredOne() throws {
        #expect(try showAnimations() == [Self.configured])
        let atOnce = Animation(duration: .zero, curve: .linear)
        let replies = try request(bridge, .oskAnimation(bridge: "squeekboard", animation: atOnce))
        #expect(replies == [.ok(id: .number(1))], "\(replies)")
        // An animation of none ends where it starts: the will and its did together.
        let shown = try showNotifications().suffix(2)
        #expect(shown.map(\.phase) == [.willShow, .didShow])
        #expect(shown.map(\.animation) == [atOnce, atOnce])
        let slide = Animation(duration: .milliseconds(150), curve: .easeOut)
        _ = try request(bridge, .oskAnimation(bridge: "gnome", animation: slide))
        #expect(try showAnimations() == [slide])
        _ = try request(bridge, .oskAnimation(bridge: "gnome", animation: nil))
        #expect(try showAnimations() == [Self.configured])
    }

    @Test func itStaysWhenItsBridgeLeaves() throws {
        let atOnce = Animation(duration: .zero, curve: .linear)
        _ = try request(bridge, .oskAnimation(bridge: "wvkbd", animation: atOnce))
        outbox.leave(bridge)
        core.handle(.server(.left(bridge)))
        #expect(try showAnimations() == [atOnce])
    }
}
