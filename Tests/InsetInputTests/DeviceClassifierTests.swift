import CLibevdev
import InputTestbed
import InsetCore
import Testing

@testable import InsetInput

@Suite struct DeviceClassifierTests {
    static let hotkeys = [
        try! Hotkey("LEFTMETA+K", action: .toggle), try! Hotkey("ROTATE_DISPLAY", action: .rotate),
    ]
    static let config = ClassifierConfiguration(hotkeys: hotkeys)

    struct KindCase: Sendable, CustomTestStringConvertible {
        var device: FixtureDevice
        var label: String
        var reason: String
        var testDescription: String { device.kind }
    }

    @Test(arguments: [
        KindCase(
            device: FixtureCatalogue.usbKeyboard, label: "keyboard-external",
            reason: "has the full ESC..D key block; external (bus usb)"),
        KindCase(
            device: FixtureCatalogue.bluetoothKeyboard, label: "keyboard-external",
            reason: "has the full ESC..D key block; external (bus bluetooth)"),
        KindCase(
            device: FixtureCatalogue.atKeyboard, label: "keyboard-internal",
            reason: "has the full ESC..D key block; built in (bus i8042)"),
        KindCase(
            device: FixtureCatalogue.yubiKey, label: "ignored",
            reason: "a Yubico security key (1050:*) types one-time passwords, it is not a keyboard"),
        KindCase(
            device: FixtureCatalogue.powerButton, label: "ignored",
            reason: "named 'Power Button' (matches *Power Button*), never a typing keyboard; has no configured hotkey's keys"),
        KindCase(
            device: FixtureCatalogue.videoBus, label: "ignored",
            reason: "named 'Video Bus' (matches *Video Bus*), never a typing keyboard; has no configured hotkey's keys"),
        KindCase(
            device: FixtureCatalogue.tabletSwitch, label: "tablet-switch",
            reason: "has no keys; reports SW_TABLET_MODE"),
        KindCase(
            device: FixtureCatalogue.remapperKeyboard, label: "hotkeys",
            reason: "virtual device (a remapper's or on-screen keyboard), not counted as physical; read for hotkeys only"),
        KindCase(
            device: FixtureCatalogue.touchpad, label: "ignored",
            reason: "lacks keys of the ESC..D block udev requires of a keyboard; has no configured hotkey's keys"),
        KindCase(
            device: FixtureCatalogue.letterMouse, label: "ignored",
            reason: "the Logitech M720 mouse (046d:405e) exposes letter keys but is not a keyboard"),
    ])
    func everyFixtureKind(_ c: KindCase) {
        let result = DeviceClassifier.classify(c.device.description, Self.config)
        #expect(result.label == c.label)
        #expect(result.reason == c.reason)
        #expect(result.hasTabletModeSwitch == (c.device.kind == "tablet-switch"))
    }

    @Test func udevPropertiesAreNotNeeded() {
        // Where no udevd runs there are no ID_INPUT_* properties: the capability
        // bits alone decide.
        var description = FixtureCatalogue.atKeyboard.description
        description.properties = [:]
        #expect(DeviceClassifier.classify(description, Self.config).kind == .keyboard(.internal))
    }

    @Test func udevIgnorePropertyAndTagWin() {
        var byProperty = FixtureCatalogue.usbKeyboard.description
        byProperty.properties["INSETD_IGNORE"] = "1"
        #expect(DeviceClassifier.classify(byProperty, Self.config).reason == "udev property INSETD_IGNORE=1")
        var byTag = FixtureCatalogue.usbKeyboard.description
        byTag.tags = ["seat", "insetd-ignore"]
        #expect(DeviceClassifier.classify(byTag, Self.config).reason == "udev tag insetd-ignore")
    }

    @Test func configuredDenyAndAllow() throws {
        var config = Self.config
        config.deny = [try DeviceMatch("name:dell*")]
        let denied = DeviceClassifier.classify(FixtureCatalogue.usbKeyboard.description, config)
        #expect(denied == DeviceClassification(kind: .ignored, reason: "denied by configuration entry 'name:dell*'"))

        // Allowing overrides the built-in denials (a user who does type on it).
        config.allow = [try DeviceMatch("1050:0407")]
        let allowed = DeviceClassifier.classify(FixtureCatalogue.yubiKey.description, config)
        #expect(allowed.kind == .keyboard(.external))
        #expect(allowed.reason == "allowed by configuration entry '1050:0407'")

        config.deny = [try DeviceMatch("bus:bluetooth")]
        #expect(DeviceClassifier.classify(FixtureCatalogue.bluetoothKeyboard.description, config).kind == .ignored)
    }

    @Test func virtualKeyboardsCountWhenConfigured() {
        var config = Self.config
        config.countVirtualKeyboards = true
        #expect(DeviceClassifier.classify(FixtureCatalogue.remapperKeyboard.description, config).kind == .keyboard(.external))
    }

    @Test func bluetoothThroughUhidIsNotVirtual() {
        #expect(!FixtureCatalogue.bluetoothKeyboard.description.isVirtual)
        #expect(FixtureCatalogue.remapperKeyboard.description.isVirtual)
    }

    @Test func anUnlistedPointerWithLettersIsNotAKeyboard() {
        var mouse = FixtureCatalogue.letterMouse.description
        mouse.vendor = 0x1234
        mouse.product = 0x5678
        let result = DeviceClassifier.classify(mouse, Self.config)
        #expect(result.kind == .hotkeySource)
        #expect(result.reason == "a pointer (REL_X, REL_Y, BTN_LEFT) that also has keys; read for hotkeys only")
    }

    @Test func aHotkeyOnlyDeviceIsReadWhenItHasAConfiguredHotkeysKeys() {
        let rotateButton = InputDeviceDescription(
            syspath: "/sys/devices/platform/INT33D5:00/input/input9/event9", name: "Convertible rotate button",
            bus: .host, eventTypes: CapabilityBits(codes: [Int(EV_SYN), Int(EV_KEY)]),
            keys: CapabilityBits(codes: [Int(KEY_ROTATE_DISPLAY)]))
        let result = DeviceClassifier.classify(rotateButton, Self.config)
        #expect(result.kind == .hotkeySource)
        #expect(
            DeviceClassifier.classify(rotateButton, ClassifierConfiguration()).kind == .ignored,
            "without a rotate hotkey nothing needs reading it")
    }

    @Test(arguments: [
        (BusType.usb, "/sys/devices/platform/soc/xhci/usb1/1-1/input/input1/event1", KeyboardPlacement.external),
        (BusType.bluetooth, "/sys/devices/virtual/misc/uhid/x/input/input2/event2", .external),
        (BusType.i8042, "/sys/devices/platform/i8042/serio0/input/input3/event3", .internal),
        (BusType.i2c, "/sys/devices/pci0000:00/i2c-1/input/input4/event4", .internal),
        (BusType(rawValue: 0x99), "/sys/devices/platform/gpio-keys/input/input5/event5", .internal),
        (BusType(rawValue: 0x99), "/sys/devices/pci0000:00/x/input/input6/event6", .external),
    ])
    func placement(bus: BusType, syspath: String, expected: KeyboardPlacement) {
        let device = InputDeviceDescription(syspath: syspath, name: "kbd", bus: bus)
        #expect(DeviceClassifier.placement(of: device) == expected)
    }

    @Test(arguments: [
        ("105", "invalid device match '105': expected vvvv:pppp or vvvv:* (hex), name:GLOB or bus:NAME"),
        ("1050:04", "invalid device match '1050:04': the product must be four hex digits or *"),
        ("bus:firewire", "invalid device match 'bus:firewire': unknown bus 'firewire' (known: bluetooth, host, i2c, i8042, spi, usb, virtual)"),
        ("name:", "invalid device match 'name:': the name glob is empty"),
    ])
    func badMatchEntriesAreRejected(text: String, message: String) {
        #expect(throws: DeviceMatchError.self) { try DeviceMatch(text) }
        do { _ = try DeviceMatch(text) } catch { #expect(error.description == message) }
    }
}
