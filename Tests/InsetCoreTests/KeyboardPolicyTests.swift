import Testing

@testable import InsetCore

@Suite struct KeyboardPolicyTests {
    static let phone = Size(width: 390, height: 844)
    static let app = ClientID("app")

    struct PresentationCase: Sendable, CustomTestStringConvertible {
        var mode: KeyboardMode
        var focused: Bool
        var keyboards: [String: KeyboardPlacement]
        var tablet: Bool
        var bar: Double = 44
        var ignoreExternal = false
        /// Expected keyboard height on screen; nil = hidden.
        var height: Double?
        var testDescription: String {
            "\(mode) focused=\(focused) keyboards=\(keyboards.values.map(\.rawValue).sorted()) tablet=\(tablet) bar=\(bar) ignoreExternal=\(ignoreExternal)"
        }
    }

    @Test(arguments: [
        PresentationCase(mode: .auto, focused: true, keyboards: [:], tablet: false, height: 336),
        PresentationCase(mode: .auto, focused: false, keyboards: [:], tablet: false, height: nil),
        PresentationCase(mode: .auto, focused: true, keyboards: ["usb": .external], tablet: false, height: 44),
        PresentationCase(mode: .auto, focused: true, keyboards: ["usb": .external], tablet: false, bar: 0, height: nil),
        PresentationCase(mode: .auto, focused: true, keyboards: ["at": .internal], tablet: false, height: 44),
        // Tablet mode folds the internal keyboard away: the full OSK is back.
        PresentationCase(mode: .auto, focused: true, keyboards: ["at": .internal], tablet: true, height: 336),
        // An external keyboard stays usable in tablet mode.
        PresentationCase(
            mode: .auto, focused: true, keyboards: ["at": .internal, "usb": .external], tablet: true, height: 44),
        PresentationCase(
            mode: .auto, focused: true, keyboards: ["usb": .external], tablet: false, ignoreExternal: true,
            height: 336),
        PresentationCase(mode: .always, focused: true, keyboards: ["usb": .external], tablet: false, height: 336),
        PresentationCase(mode: .always, focused: false, keyboards: [:], tablet: false, height: nil),
        PresentationCase(mode: .never, focused: true, keyboards: [:], tablet: false, height: nil),
    ])
    func presentation(_ c: PresentationCase) {
        let config = KeyboardPolicyConfiguration(
            mode: c.mode, accessoryBarHeight: c.bar, ignoreExternalKeyboards: c.ignoreExternal)
        var policy = KeyboardPolicy(configuration: config, screen: Self.phone, keyboards: c.keyboards, tabletMode: c.tablet)
        if c.focused { _ = policy.handle(.focus(owner: Self.app), now: .zero) }
        #expect(policy.frame?.height == c.height)
        if let height = c.height {
            #expect(policy.frame == Rect(x: 0, y: 844 - height, width: 390, height: height))
        }
    }

    @Test func showAnnouncesThenCompletesAfterTheAnimation() {
        var policy = KeyboardPolicy(screen: Self.phone)
        let step = policy.handle(.focus(owner: Self.app), now: .milliseconds(1000))
        let expectedEnd = Rect(x: 0, y: 508, width: 390, height: 336)
        #expect(
            step.notifications == [
                KeyboardNotification(
                    phase: .willShow, beginFrame: Rect(x: 0, y: 844, width: 390, height: 336), endFrame: expectedEnd,
                    animation: .keyboardDefault, focusOwner: Self.app)
            ])
        #expect(step.nextDeadline == .milliseconds(1250))
        #expect(policy.advance(to: .milliseconds(1249)).notifications.isEmpty)
        #expect(policy.advance(to: .milliseconds(1250)).notifications.map(\.phase) == [.didShow])
        #expect(step.notifications[0].isLocal(for: Self.app))
        #expect(!step.notifications[0].isLocal(for: ClientID("other")))
    }

    @Test func aNewMovementClosesTheUnfinishedOneFirst() {
        var policy = KeyboardPolicy(screen: Self.phone)
        _ = policy.handle(.focus(owner: Self.app), now: .zero)
        let step = policy.handle(.blur, now: .milliseconds(100))
        #expect(step.notifications.map(\.phase) == [.didShow, .willHide])
        // The hide is still about the client that had focus.
        #expect(step.notifications[1].focusOwner == Self.app)
    }

    @Test func hardwareFlapShorterThanTheHoldOffChangesNothing() {
        var policy = KeyboardPolicy(screen: Self.phone, keyboards: ["usb": .external])
        _ = policy.handle(.focus(owner: Self.app), now: .zero)
        _ = policy.advance(to: .milliseconds(250))
        #expect(policy.frame?.height == 44)
        #expect(policy.handle(.keyboardDetached(id: "usb"), now: .milliseconds(1000)).notifications.isEmpty)
        #expect(policy.nextDeadline == .milliseconds(1200))
        #expect(policy.handle(.keyboardAttached(id: "usb", placement: .external), now: .milliseconds(1015)).notifications.isEmpty)
        #expect(policy.nextDeadline == nil)
        #expect(policy.advance(to: .milliseconds(2000)).notifications.isEmpty)
        #expect(policy.frame?.height == 44)
    }

    @Test func hardwareChangeActsWhenTheHoldOffRunsOut() {
        var policy = KeyboardPolicy(screen: Self.phone, keyboards: ["usb": .external])
        _ = policy.handle(.focus(owner: Self.app), now: .zero)
        _ = policy.advance(to: .milliseconds(250))
        _ = policy.handle(.keyboardDetached(id: "usb"), now: .milliseconds(1000))
        #expect(policy.advance(to: .milliseconds(1199)).notifications.isEmpty)
        let step = policy.advance(to: .milliseconds(1200))
        #expect(step.notifications.map(\.phase) == [.willChangeFrame])
        #expect(step.notifications[0].beginFrame == Rect(x: 0, y: 800, width: 390, height: 44))
        #expect(step.notifications[0].endFrame == Rect(x: 0, y: 508, width: 390, height: 336))
    }

    @Test func commandsOverrideUntilTheNextFocusChange() {
        var policy = KeyboardPolicy(screen: Self.phone)
        #expect(policy.handle(.command(.show), now: .zero).notifications.map(\.phase) == [.willShow])
        #expect(policy.handle(.command(.toggle), now: .milliseconds(500)).notifications.map(\.phase) == [.didShow, .willHide])
        #expect(policy.handle(.command(.toggle), now: .milliseconds(1000)).notifications.map(\.phase) == [.didHide, .willShow])
        // Focus clears the override; the policy decides again (full keyboard).
        _ = policy.handle(.focus(owner: Self.app), now: .milliseconds(2000))
        #expect(policy.frame?.height == 336)
        _ = policy.handle(.command(.hide), now: .milliseconds(3000))
        #expect(policy.frame == nil)
        // "never" still honours an explicit show.
        _ = policy.handle(.mode(.never), now: .milliseconds(4000))
        _ = policy.handle(.command(.show), now: .milliseconds(5000))
        #expect(policy.frame?.height == 336)
    }

    @Test func rotationMovesTheKeyboardToTheLandscapeHeight() {
        var policy = KeyboardPolicy(screen: Self.phone)
        _ = policy.handle(.focus(owner: Self.app), now: .zero)
        let step = policy.handle(.screen(Size(width: 844, height: 390)), now: .milliseconds(1000))
        #expect(step.notifications.map(\.phase) == [.didShow, .willChangeFrame])
        #expect(step.notifications[1].endFrame == Rect(x: 0, y: 181, width: 844, height: 209))
    }

    @Test func floatingFrameIsUsedForTheFullKeyboard() {
        var policy = KeyboardPolicy(screen: Self.phone)
        let floating = Rect(x: 40, y: 300, width: 310, height: 250)
        _ = policy.handle(.floatingFrame(floating), now: .zero)
        _ = policy.handle(.focus(owner: Self.app), now: .zero)
        #expect(policy.frame == floating)
    }
}
