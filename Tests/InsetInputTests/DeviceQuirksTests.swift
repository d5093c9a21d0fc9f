import CLibevdev
import Glibc
import InputTestbed
import InsetCore
import Testing

@testable import InsetInput

/// Classification with libinput's quirks, udev's integration property and
/// placed allow entries. Expected reasons are written out by hand from the
/// fixture files in `FixtureQuirks` and the rules in `DeviceClassifier`.
@Suite struct DeviceQuirksTests {
    static let hotkeys = [try! Hotkey("LEFTMETA+K", action: .toggle), try! Hotkey("ROTATE_DISPLAY", action: .rotate)]

    /// The fixture files parsed, on a machine with the given DMI modalias.
    static func quirks(dmi: String?) throws -> DeviceQuirks {
        var sections: [QuirkSection] = []
        for name in FixtureQuirks.files.keys.sorted(by: versionOrder) {
            sections += try QuirksParser.parse(FixtureQuirks.files[name]!, path: name)
        }
        sections += try QuirksParser.parse(FixtureQuirks.overrides, path: FixtureQuirks.overrideFileName)
        return DeviceQuirks(sections: sections, dmiModalias: dmi)
    }

    static func config(dmi: String?) throws -> ClassifierConfiguration {
        ClassifierConfiguration(hotkeys: hotkeys, quirks: try quirks(dmi: dmi))
    }

    struct Case: Sendable, CustomTestStringConvertible {
        var device: FixtureDevice
        var dmi: String
        var label: String
        var reason: String
        var followsSwitch = false
        var testDescription: String { "\(device.kind) on \(dmi.prefix(30))" }
    }

    @Test(arguments: [
        // Both Surface sections match the name; the later one, the Cover, wins.
        Case(
            device: FixtureCatalogue.surfaceTypeCover, dmi: FixtureCatalogue.surfaceProDMI, label: "keyboard-internal",
            reason: "has the full ESC..D key block; built in (libinput quirk AttrKeyboardIntegration=internal, [Microsoft Surface Cover] in 30-vendor-microsoft.quirks)"),
        // The same cover on another maker's machine: the DMI match fails, the bus decides.
        Case(
            device: FixtureCatalogue.surfaceTypeCover, dmi: FixtureCatalogue.desktopDMI, label: "keyboard-external",
            reason: "has the full ESC..D key block; external (bus usb)"),
        Case(
            device: FixtureCatalogue.atKeyboard, dmi: FixtureCatalogue.desktopDMI, label: "keyboard-internal",
            reason: "has the full ESC..D key block; built in (libinput quirk AttrKeyboardIntegration=internal, [Serial Keyboards] in 10-generic-keyboard.quirks)"),
        Case(
            device: FixtureCatalogue.bluetoothKeyboard, dmi: FixtureCatalogue.desktopDMI, label: "keyboard-external",
            reason: "has the full ESC..D key block; external (libinput quirk AttrKeyboardIntegration=external, [Bluetooth Keyboards] in 10-generic-keyboard.quirks)"),
        Case(
            device: FixtureCatalogue.usbKeyboard, dmi: FixtureCatalogue.surfaceProDMI, label: "keyboard-external",
            reason: "has the full ESC..D key block; external (bus usb)"),
        // The administrator's override file.
        Case(
            device: FixtureCatalogue.kioskDockKeyboard, dmi: FixtureCatalogue.desktopDMI, label: "keyboard-internal",
            reason: "has the full ESC..D key block; built in (libinput quirk AttrKeyboardIntegration=internal, [Kiosk dock keyboard] in local-overrides.quirks)"),
        // On the Asus the switch is not followed, and nothing else of the device is wanted.
        Case(
            device: FixtureCatalogue.unreliableTabletSwitch, dmi: FixtureCatalogue.asusFlipDMI, label: "ignored",
            reason: "lacks keys of the ESC..D block udev requires of a keyboard; its SW_TABLET_MODE is not followed (libinput quirk ModelTabletModeSwitchUnreliable, [Asus TP412UA Tablet Mode Switch] in 50-system-asus.quirks); has no configured hotkey's keys"),
        Case(
            device: FixtureCatalogue.unreliableTabletSwitch, dmi: FixtureCatalogue.desktopDMI, label: "tablet-switch",
            reason: "lacks keys of the ESC..D block udev requires of a keyboard; reports SW_TABLET_MODE", followsSwitch: true),
        // Another switch on the Asus: the quirk names Intel Virtual Button only.
        Case(
            device: FixtureCatalogue.tabletSwitch, dmi: FixtureCatalogue.asusFlipDMI, label: "tablet-switch",
            reason: "has no keys; reports SW_TABLET_MODE", followsSwitch: true),
    ])
    func classificationNamesTheQuirk(_ c: Case) throws {
        let result = DeviceClassifier.classify(c.device.description, try Self.config(dmi: c.dmi))
        #expect(result.label == c.label)
        #expect(result.reason == c.reason)
        #expect(result.hasTabletModeSwitch == c.followsSwitch)
    }

    @Test func withoutADMIModaliasNoDMISectionMatches() throws {
        let result = DeviceClassifier.classify(FixtureCatalogue.surfaceTypeCover.description, try Self.config(dmi: nil))
        #expect(result.kind == .keyboard(.external))
    }

    @Test func anUnreliableSwitchOnAKeyboardIsNotFollowedEither() throws {
        var device = FixtureCatalogue.atKeyboard.description
        device.name = "Intel Virtual Button keyboard"
        device.eventTypes.insert(Int(EV_SW))
        device.switches = CapabilityBits(codes: [Int(SW_TABLET_MODE)])
        let result = DeviceClassifier.classify(device, try Self.config(dmi: FixtureCatalogue.asusFlipDMI))
        #expect(result.kind == .keyboard(.internal))
        #expect(!result.hasTabletModeSwitch)
        #expect(
            result.reason
                == "has the full ESC..D key block; built in (libinput quirk AttrKeyboardIntegration=internal, [Serial Keyboards] in 10-generic-keyboard.quirks); its SW_TABLET_MODE is not followed (libinput quirk ModelTabletModeSwitchUnreliable, [Asus TP412UA Tablet Mode Switch] in 50-system-asus.quirks)")
    }

    @Test func udevsIntegrationPropertyOutranksTheQuirk() throws {
        var cover = FixtureCatalogue.surfaceTypeCover.description
        cover.properties = ["ID_INPUT": "1", "ID_INPUT_KEYBOARD": "1", "ID_INPUT_KEYBOARD_INTEGRATION": "external"]
        let result = DeviceClassifier.classify(cover, try Self.config(dmi: FixtureCatalogue.surfaceProDMI))
        #expect(result.kind == .keyboard(.external))
        #expect(result.reason == "has the full ESC..D key block; external (udev property ID_INPUT_KEYBOARD_INTEGRATION=external)")

        var dock = FixtureCatalogue.usbKeyboard.description
        dock.properties = ["ID_INPUT_KEYBOARD_INTEGRATION": "internal"]
        #expect(DeviceClassifier.classify(dock, ClassifierConfiguration()).kind == .keyboard(.internal))
        // A value udev's convention does not know is not a placement.
        dock.properties = ["ID_INPUT_KEYBOARD_INTEGRATION": "builtin"]
        #expect(DeviceClassifier.classify(dock, ClassifierConfiguration()).kind == .keyboard(.external))
    }

    @Test func aPlacedAllowEntryOutranksEverything() throws {
        var config = try Self.config(dmi: FixtureCatalogue.surfaceProDMI)
        config.allow = [try DeviceMatch("external:name:*Surface*Cover*")]
        var cover = FixtureCatalogue.surfaceTypeCover.description
        cover.properties = ["ID_INPUT_KEYBOARD_INTEGRATION": "internal"]
        let result = DeviceClassifier.classify(cover, config)
        #expect(result == DeviceClassification(
            kind: .keyboard(.external), reason: "allowed by configuration entry 'external:name:*Surface*Cover*'"))

        config.allow = [try DeviceMatch("internal:413c:2113")]
        #expect(DeviceClassifier.classify(FixtureCatalogue.usbKeyboard.description, config).kind == .keyboard(.internal))
        // Without a prefix the usual placement applies to an allowed device.
        config.allow = [try DeviceMatch("045e:09c0")]
        #expect(DeviceClassifier.classify(FixtureCatalogue.surfaceTypeCover.description, config).kind == .keyboard(.internal))
    }

    @Test(arguments: [
        ("internal:045e:09c0", KeyboardPlacement.internal), ("external:bus:i8042", .external),
        ("internal:name:*Type Cover*", .internal), ("045e:*", nil),
    ])
    func allowEntriesMayBePlaced(text: String, placement: KeyboardPlacement?) throws {
        #expect(try DeviceMatch(text).placement == placement)
        #expect(try DeviceMatch(text).description == text)
    }

    @Test func aPlacedEntryStillMatchesOnlyItsDevices() throws {
        let match = try DeviceMatch("internal:045e:09c0")
        #expect(match.matches(FixtureCatalogue.surfaceTypeCover.description))
        #expect(!match.matches(FixtureCatalogue.usbKeyboard.description))
        #expect(throws: DeviceMatchError.self) { try DeviceMatch("internal:") }
        #expect(throws: DeviceMatchError.self) { try DeviceMatch("inside:045e:09c0") }
    }

    @Test func theLastSectionThatSetsAnAttributeWins() throws {
        let text = """
            [Unreliable]
            MatchName=*Intel Virtual Button*
            ModelTabletModeSwitchUnreliable=1

            [Fixed by the firmware update]
            MatchName=Intel Virtual Button driver
            MatchBus=usb
            ModelTabletModeSwitchUnreliable=0

            [Reliable again on this one]
            MatchName=Intel Virtual Button driver
            ModelTabletModeSwitchUnreliable=0

            """
        let quirks = DeviceQuirks(sections: try QuirksParser.parse(text, path: "t.quirks"))
        let matched = quirks.lookup(FixtureCatalogue.unreliableTabletSwitch.description)
        // The middle section wants bus usb; the switch is on the host bus.
        #expect(matched.tabletModeSwitchUnreliable == .init(value: false, section: "[Reliable again on this one] in t.quirks"))
        #expect(matched.keyboardIntegration == nil)
        let result = DeviceClassifier.classify(FixtureCatalogue.unreliableTabletSwitch.description, ClassifierConfiguration(quirks: quirks))
        #expect(result.kind == .tabletModeSwitch)
    }

    /// One `Match` key at a time against the Surface cover (usb 045e:09c0, udev
    /// type keyboard from its keys): every section wants exactly one thing.
    @Test(arguments: [
        ("MatchName=*Surface*", true), ("MatchName=*surface*", false), ("MatchName=Microsoft*", true),
        ("MatchBus=usb", true), ("MatchBus=bluetooth", false), ("MatchVendor=0x045E", true),
        ("MatchVendor=0x045F", false), ("MatchProduct=0x09C0", true), ("MatchProduct=0x09C1", false),
        ("MatchUdevType=keyboard", true), ("MatchUdevType=mouse", false), ("MatchUdevType=touchpad", false),
        ("MatchDMIModalias=dmi:*svnMicrosoftCorporation:*", true), ("MatchDMIModalias=dmi:*svnLENOVO:*", false),
        ("MatchDeviceTree=*pine64*", false), ("MatchVersion=0x0001", false),
    ])
    func eachMatchKey(line: String, matches: Bool) throws {
        let sections = try QuirksParser.parse("[S]\n\(line)\nAttrKeyboardIntegration=internal\n", path: "t.quirks")
        let quirks = DeviceQuirks(sections: sections, dmiModalias: FixtureCatalogue.surfaceProDMI)
        #expect((quirks.lookup(FixtureCatalogue.surfaceTypeCover.description).keyboardIntegration != nil) == matches)
    }

    @Test func udevTypesComeFromUdevWhenItRanAndFromTheBitsOtherwise() {
        var device = FixtureCatalogue.letterMouse.description
        #expect(QuirkMatch.Facts.udevTypes(of: device) == [.keyboard, .mouse])
        device.properties = ["ID_INPUT": "1", "ID_INPUT_MOUSE": "1"]
        #expect(QuirkMatch.Facts.udevTypes(of: device) == [.mouse])
        device.properties = ["ID_INPUT": "1", "ID_INPUT_KEY": "1", "ID_INPUT_TOUCHPAD": "1"]
        #expect(QuirkMatch.Facts.udevTypes(of: device) == [.keyboard, .touchpad])
        // A switch alone has no key below BTN_MISC: not a keyboard to libinput.
        #expect(QuirkMatch.Facts.udevTypes(of: FixtureCatalogue.tabletSwitch.description) == [])
    }
}
