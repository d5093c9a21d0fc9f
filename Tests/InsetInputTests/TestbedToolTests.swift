import CLibevdev
import InputTestbed
import InsetInput
import Testing

/// The parts of `insetd-testbed` that need no umockdev: key chords, the device
/// inventory (names, node numbers, which device a press goes to) and recordings.
@Suite struct KeyChordTests {
    // Codes from linux/input-event-codes.h.
    @Test(arguments: [
        ("LEFTMETA+K", [125, 37]),
        ("leftmeta + k", [125, 37]),
        ("KEY_F5", [63]),
        ("ROTATE_DISPLAY", [153]),
        ("LEFTCTRL+LEFTALT+DELETE", [29, 56, 111]),
        ("BTN_LEFT", [272]),
    ])
    func parses(text: String, codes: [Int]) throws {
        #expect(try KeyChord(text).codes == codes)
    }

    @Test(arguments: [
        ("LEFTMETA+FOO", "unknown key name 'FOO' in 'LEFTMETA+FOO' (kernel names without KEY_, e.g. LEFTMETA, K, F5, ROTATE_DISPLAY)"),
        ("CTRL+K", "unknown key name 'CTRL' in 'CTRL+K' (kernel names without KEY_, e.g. LEFTMETA, K, F5, ROTATE_DISPLAY)"),
        ("A++B", "empty key name in 'A++B' (write keys as LEFTMETA+K)"),
        ("", "empty key name in '' (write keys as LEFTMETA+K)"),
        ("K+k", "'K' appears twice in 'K+k'"),
    ])
    func rejects(text: String, message: String) {
        #expect(throws: KeyChordError(message: message)) { try KeyChord(text) }
    }

    @Test func describesItselfWithoutThePrefix() throws {
        #expect(try KeyChord("key_leftmeta+KEY_K").description == "LEFTMETA+K")
    }
}

@Suite struct TestbedInventoryTests {
    @Test func namesAndNumbersAreNeverReused() throws {
        var inventory = TestbedInventory()
        let first = try inventory.plug(TestbedKinds.fixture(for: "usb-keyboard"), name: nil)
        let second = try inventory.plug(TestbedKinds.fixture(for: "usb-keyboard"), name: nil)
        #expect(first.name == "usb-keyboard" && first.device.devnode == "/dev/input/event10")
        #expect(second.name == "usb-keyboard-2" && second.device.devnode == "/dev/input/event100")
        _ = try inventory.unplug("usb-keyboard")
        // The name is free again; node 10 is not (umockdev cannot reuse it), nor 100.
        let third = try inventory.plug(TestbedKinds.fixture(for: "usb-keyboard"), name: nil)
        #expect(third.name == "usb-keyboard" && third.device.devnode == "/dev/input/event101")
        #expect(third.device.syspath.hasSuffix("/input/input101/event101"))
        #expect(inventory.plugged.map(\.name) == ["usb-keyboard-2", "usb-keyboard"])
    }

    @Test func internalKeyboardIsTheBuiltInATKeyboard() throws {
        let fixture = try TestbedKinds.fixture(for: "internal-keyboard")
        #expect(fixture.name == "AT Translated Set 2 keyboard")
        #expect(fixture.devnode == "/dev/input/event3")
        #expect(fixture.kind == "internal-keyboard")
    }

    @Test func tabletSwitchStartsUnfolded() throws {
        #expect(FixtureCatalogue.tabletSwitch.switchesOn == [Int(SW_TABLET_MODE)])
        #expect(try TestbedKinds.fixture(for: "tablet-switch").switchesOn == [])
    }

    @Test func everyDocumentedKindExists() throws {
        #expect(TestbedKinds.documented.count == 7)
        for kind in TestbedKinds.documented { #expect(try TestbedKinds.fixture(for: kind).kind == kind) }
        #expect(TestbedKinds.all.starts(with: TestbedKinds.documented))
        #expect(!TestbedKinds.all.contains("at-keyboard"))
    }

    @Test func errorsSayWhatToDo() throws {
        var inventory = TestbedInventory()
        #expect(throws: TestbedError.self) { try TestbedKinds.fixture(for: "mouse") }
        do {
            _ = try TestbedKinds.fixture(for: "mouse")
        } catch {
            #expect(error.message.hasPrefix("unknown device kind 'mouse' (kinds: usb-keyboard, bluetooth-keyboard, internal-keyboard,"))
        }
        #expect(message { _ = try inventory.unplug("desk") } == "no device named 'desk' is plugged (nothing is plugged)")
        _ = try inventory.plug(TestbedKinds.fixture(for: "power-button"), name: "desk")
        #expect(
            message { _ = try inventory.plug(TestbedKinds.fixture(for: "usb-keyboard"), name: "desk") }
                == "a device named 'desk' is already plugged (pick another --name)")
        #expect(
            message { _ = try inventory.plug(TestbedKinds.fixture(for: "usb-keyboard"), name: "my desk") }
                == "invalid device name 'my desk' (use up to 64 letters, digits, '.', '_' or '-')")
        #expect(
            message { _ = try inventory.flipTablet(on: true, name: nil) }
                == "no tablet switch is plugged (insetd-testbed plug tablet-switch)")
        #expect(
            message { _ = try inventory.keyboard(for: KeyChord("LEFTMETA+K"), on: nil) }
                == "no plugged device has the keys LEFTMETA+K (plug a keyboard first: insetd-testbed plug usb-keyboard)")
        #expect(message { _ = try inventory.keyboard(for: KeyChord("K"), on: "desk") } == "'desk' has no key K")
    }

    @Test func pressesGoToTheFirstDeviceWithEveryKey() throws {
        var inventory = TestbedInventory()
        _ = try inventory.plug(TestbedKinds.fixture(for: "power-button"), name: nil)
        _ = try inventory.plug(TestbedKinds.fixture(for: "usb-keyboard"), name: "desk")
        _ = try inventory.plug(TestbedKinds.fixture(for: "remapper-keyboard"), name: nil)
        #expect(try inventory.keyboard(for: KeyChord("POWER"), on: nil).name == "power-button")
        #expect(try inventory.keyboard(for: KeyChord("LEFTMETA+K"), on: nil).name == "desk")
        // Only keyd's virtual keyboard declares the rotate key.
        #expect(try inventory.keyboard(for: KeyChord("ROTATE_DISPLAY"), on: nil).name == "remapper-keyboard")
        #expect(try inventory.keyboard(for: KeyChord("LEFTMETA+K"), on: "remapper-keyboard").name == "remapper-keyboard")
    }

    @Test func listsNameKindNodeAndSwitchPosition() throws {
        var inventory = TestbedInventory()
        _ = try inventory.plug(TestbedKinds.fixture(for: "usb-keyboard"), name: nil)
        _ = try inventory.plug(TestbedKinds.fixture(for: "tablet-switch"), name: "hinge")
        _ = try inventory.flipTablet(on: true, name: "hinge")
        #expect(inventory.listing == "usb-keyboard\tusb-keyboard\t/dev/input/event10\nhinge\ttablet-switch\t/dev/input/event13\ttablet on")
        #expect(message { _ = try inventory.flipTablet(on: false, name: "usb-keyboard") }
            == "no tablet switch named 'usb-keyboard' is plugged (plugged: usb-keyboard, hinge)")
    }

    private func message(_ body: () throws -> Void) -> String? {
        do { try body() } catch let error as TestbedError { return error.message } catch let error as KeyChordError {
            return error.message
        } catch { return "\(error)" }
        return nil
    }
}

@Suite struct RecordedDeviceTests {
    /// The shape `umockdev-record /dev/input/event7` writes for a USB keyboard
    /// (the parents above `input7` cut). KEY= is a real keyboard's bitmask.
    static let recording = """
        P: /devices/pci0000:00/0000:00:14.0/usb1/1-4/1-4:1.0/0003:046A:0001.0007/input/input7/event7
        N: input/event7
        S: input/by-id/usb-Cherry_USB_keyboard-event-kbd
        E: DEVLINKS=/dev/input/by-id/usb-Cherry_USB_keyboard-event-kbd
        E: DEVNAME=/dev/input/event7
        E: ID_BUS=usb
        E: ID_INPUT=1
        E: ID_INPUT_KEY=1
        E: ID_INPUT_KEYBOARD=1
        E: ID_VENDOR_ID=046a
        E: MAJOR=13
        E: MINOR=71
        E: SUBSYSTEM=input
        A: dev=13:71
        L: device=../../input7

        P: /devices/pci0000:00/0000:00:14.0/usb1/1-4/1-4:1.0/0003:046A:0001.0007/input/input7
        E: EV=120013
        E: KEY=80000000000000 e0b0ffdf01cfffff fffffffffffffffe
        E: MSC=10
        E: NAME="Cherry USB keyboard"
        E: PRODUCT=3/46a/1/111
        E: SUBSYSTEM=input
        A: name=Cherry USB keyboard

        P: /devices/pci0000:00/0000:00:14.0/usb1/1-4/1-4:1.0
        E: DEVTYPE=usb_interface
        E: SUBSYSTEM=usb

        """

    @Test func readsIdentityAndCapabilities() throws {
        let device = try RecordedDevice.parse(Self.recording, kind: "cherry")
        #expect(device.name == "Cherry USB keyboard")
        #expect(device.bus == .usb && device.vendor == 0x046a && device.product == 0x0001)
        #expect(device.eventNumber == 7)
        #expect(device.inputPath == "/devices/pci0000:00/0000:00:14.0/usb1/1-4/1-4:1.0/0003:046A:0001.0007/input/input7")
        // Word 0 (…fffe): codes 1–63. Word 1 (e0b0ffdf01cfffff): 64–83, 86–88,
        // 96–100, 102–111, 116, 117, 119, 125–127. Word 2 (bit 55): 183 (F13).
        var expected = Array(1...63) + Array(64...83) + [86, 87, 88] + Array(96...100) + Array(102...111)
        expected += [116, 117, 119, 125, 126, 127, 183]
        #expect(device.keys == expected)
        #expect(device.switches.isEmpty && device.relativeAxes.isEmpty)
        #expect(device.properties["ID_VENDOR_ID"] == "046a")
        #expect(device.properties["DEVNAME"] == nil && device.properties["MINOR"] == nil)
    }

    @Test func ioctlRecordUsesLibevdevSizes() throws {
        let record = try RecordedDevice.parse(Self.recording, kind: "cherry").ioctlRecord
        // "Cherry USB keyboard" is 19 bytes; the kernel counts the NUL.
        #expect(record.contains("EVIOCGNAME(0) 20 436865727279"))
        #expect(record.contains("EVIOCGID 0 03006A0401000100\n"))
        let keyBits = record.split(separator: "\n").first { $0.hasPrefix("EVIOCGBIT(1) 96 ") }
        #expect(keyBits.map { ($0.count - "EVIOCGBIT(1) 96 ".count) / 2 } == 96)
    }

    @Test(arguments: [
        ("P: /devices/virtual/input/input1\nE: NAME=\"x\"\n", "no input event node (N: input/eventN) in the recording; record one with umockdev-record /dev/input/eventN"),
        ("P: /devices/virtual/input/input1/event1\nN: input/event1\n", "the recording lacks the input device /devices/virtual/input/input1 above input/event1"),
        (
            "P: /devices/virtual/input/input1/event1\nN: input/event1\n\nP: /devices/virtual/input/input1\nE: NAME=\"x\"\n",
            "/devices/virtual/input/input1 has no PRODUCT=bus/vendor/product/version property"
        ),
        (
            "P: /devices/virtual/input/input1/event1\nN: input/event1\n\nP: /devices/virtual/input/input1\nE: PRODUCT=6/1/1/1\n",
            "/devices/virtual/input/input1 declares no keys, switches or axes (no KEY=, SW=, REL=, ABS=)"
        ),
    ])
    func rejectsWhatCannotBeEmulated(text: String, message: String) {
        #expect(throws: RecordingError(message: message)) { try RecordedDevice.parse(text, kind: "x") }
    }
}
