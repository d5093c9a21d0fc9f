import CLibevdev
import Testing

@testable import InsetInput

@Suite struct HotkeyTests {
    @Test(arguments: [
        ("LEFTMETA+K", [Set([Int(KEY_LEFTMETA)])], Int(KEY_K)),
        ("meta + k", [Set([Int(KEY_LEFTMETA), Int(KEY_RIGHTMETA)])], Int(KEY_K)),
        ("KEY_ROTATE_DISPLAY", [], Int(KEY_ROTATE_DISPLAY)),
        ("CTRL+ALT+F1", [Set([Int(KEY_LEFTCTRL), Int(KEY_RIGHTCTRL)]), Set([Int(KEY_LEFTALT), Int(KEY_RIGHTALT)])], Int(KEY_F1)),
    ])
    func parses(text: String, modifiers: [Set<Int>], key: Int) throws {
        let hotkey = try Hotkey(text, action: .toggle)
        #expect(hotkey.modifiers == modifiers)
        #expect(hotkey.key == key)
    }

    @Test(arguments: [
        ("LEFTMETA+KAY", "invalid hotkey 'LEFTMETA+KAY': unknown key name 'KAY'"),
        ("K+LEFTMETA", "invalid hotkey 'K+LEFTMETA': 'K' is not a modifier key"),
        ("LEFTMETA+", "invalid hotkey 'LEFTMETA+': empty key name"),
        ("CTRL+SHIFT", "invalid hotkey 'CTRL+SHIFT': the last key must not be a modifier"),
        ("CTRL+LEFTSHIFT", "invalid hotkey 'CTRL+LEFTSHIFT': the last key must not be a modifier"),
        ("SHIFT", "invalid hotkey 'SHIFT': 'SHIFT' names two keys; use LEFTSHIFT or RIGHTSHIFT"),
    ])
    func rejectsWithAClearError(text: String, message: String) {
        #expect(throws: HotkeyError.self) { try Hotkey(text, action: .show) }
        do { _ = try Hotkey(text, action: .show) } catch { #expect(error.description == message) }
    }

    static func matcher() -> HotkeyMatcher {
        HotkeyMatcher(hotkeys: [
            try! Hotkey("LEFTMETA+K", action: .toggle), try! Hotkey("META+H", action: .hide),
            try! Hotkey("ROTATE_DISPLAY", action: .rotate),
        ])
    }

    @Test func firesOnThePressWithExactlyTheRequiredModifiers() {
        var matcher = Self.matcher()
        #expect(matcher.keyEvent(code: Int(KEY_K), value: 1) == nil)
        #expect(matcher.keyEvent(code: Int(KEY_K), value: 0) == nil)
        #expect(matcher.keyEvent(code: Int(KEY_LEFTMETA), value: 1) == nil)
        #expect(matcher.keyEvent(code: Int(KEY_K), value: 1) == .toggle)
        #expect(matcher.keyEvent(code: Int(KEY_K), value: 2) == nil, "autorepeat never fires")
        #expect(matcher.keyEvent(code: Int(KEY_K), value: 0) == nil)
        #expect(matcher.keyEvent(code: Int(KEY_LEFTSHIFT), value: 1) == nil)
        #expect(matcher.keyEvent(code: Int(KEY_K), value: 1) == nil, "an extra modifier is a different combination")
        #expect(matcher.heldModifierCount == 2)
    }

    @Test func genericModifiersMatchEitherSide() {
        var matcher = Self.matcher()
        _ = matcher.keyEvent(code: Int(KEY_RIGHTMETA), value: 1)
        #expect(matcher.keyEvent(code: Int(KEY_H), value: 1) == .hide)
        #expect(matcher.keyEvent(code: Int(KEY_K), value: 1) == nil, "LEFTMETA+K wants the left one")
    }

    @Test func singleKeyHotkeys() {
        var matcher = Self.matcher()
        #expect(matcher.keyEvent(code: Int(KEY_ROTATE_DISPLAY), value: 1) == .rotate)
    }

    @Test func resyncChangesModifiersButNeverFires() {
        var matcher = Self.matcher()
        _ = matcher.keyEvent(code: Int(KEY_LEFTMETA), value: 1)
        matcher.resync(code: Int(KEY_LEFTMETA), value: 0)
        #expect(matcher.heldModifierCount == 0)
        matcher.resync(code: Int(KEY_ROTATE_DISPLAY), value: 1)
        #expect(matcher.keyEvent(code: Int(KEY_K), value: 1) == nil)
    }

    @Test func canBeTypedNeedsEveryKey() throws {
        let hotkey = try Hotkey("META+K", action: .toggle)
        #expect(hotkey.canBeTyped(on: CapabilityBits(codes: [Int(KEY_RIGHTMETA), Int(KEY_K)])))
        #expect(!hotkey.canBeTyped(on: CapabilityBits(codes: [Int(KEY_K)])))
    }
}

@Suite struct CapabilityBitsTests {
    @Test func parsesTheSysfsFormOfARealKeyboard() throws {
        // KEY= of a real USB keyboard (umockdev's usbkbd recording).
        let bits = try #require(CapabilityBits(sysfs: "80000000000000 e0b0ffdf01cfffff fffffffffffffffe"))
        #expect(bits.containsAll(DeviceClassifier.alphanumericBlock))
        #expect(!bits.contains(0))
        #expect(bits.contains(Int(KEY_LEFTMETA)))
        #expect(bits.contains(183))  // bit 55 of the third word
        #expect(!bits.contains(184))
        #expect(bits.description == "80000000000000 e0b0ffdf01cfffff fffffffffffffffe")
    }

    @Test func roundTripsAndRejectsGarbage() {
        let bits = CapabilityBits(codes: [0, 1, 17, 64, 200])
        #expect(CapabilityBits(sysfs: bits.description) == bits)
        #expect(bits.codes == [0, 1, 17, 64, 200])
        #expect(CapabilityBits(sysfs: "12 zz") == nil)
        #expect(CapabilityBits(sysfs: "0") == .empty)
    }
}

@Suite struct TabletModeTrackerTests {
    @Test func onWhileAnySwitchSaysSo() {
        var tracker = TabletModeTracker()
        #expect(tracker.set(true, for: "a") == true)
        #expect(tracker.set(true, for: "b") == nil)
        #expect(tracker.set(false, for: "a") == nil)
        #expect(tracker.remove("b") == false)
        #expect(tracker.remove("missing") == nil)
        #expect(!tracker.isOn)
    }
}
