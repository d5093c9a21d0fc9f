import CLibevdev
import InputTestbed
import InsetCore
import PropertyBased
import Testing

@testable import InsetInput

/// What quirks may change, over random devices on random machines: a keyboard's
/// placement, and whether a tablet-mode switch is followed. Never whether a
/// device is a keyboard, and never silently.
@Suite struct QuirksPropertyTests {
    static let names = [
        "Microsoft Surface Type Cover Keyboard", "Microsoft Surface Keyboard", "Intel Virtual Button driver",
        "AT Translated Set 2 keyboard", "Holtek USB Keyboard", "Keychron K2", "Power Button", "Razer Blade",
    ]
    static let buses: [BusType] = [.usb, .bluetooth, .i8042, .host, .i2c, .spi, .virtual]
    static let ids: [(UInt16, UInt16)] = [(0x045e, 0x09c0), (0x04d9, 0x1603), (0x1532, 0x0205), (0, 0), (0x413c, 0x2113)]
    static let keySets: [[Int]] = [
        [], FixtureCatalogue.fullKeyboardKeys, [Int(KEY_VOLUMEUP), Int(KEY_VOLUMEDOWN), Int(KEY_POWER)],
        [Int(KEY_LEFTMETA), Int(KEY_K)], [Int(BTN_LEFT), Int(BTN_RIGHT)],
    ]
    static let machines: [String?] = [
        nil, FixtureCatalogue.surfaceProDMI, FixtureCatalogue.asusFlipDMI, FixtureCatalogue.desktopDMI,
    ]

    struct Sample: Sendable, CustomStringConvertible {
        var device: InputDeviceDescription
        var machine: String?
        var description: String {
            "\(device.name) bus \(device.bus) \(device.vendorProduct) keys \(device.keys.codes.count) sw \(device.switches.codes) on \(machine?.prefix(24) ?? "no DMI")"
        }
    }

    static let samples = zip(
        Gen.int(in: 0...(names.count - 1)), Gen.int(in: 0...(buses.count - 1)), Gen.int(in: 0...(ids.count - 1)),
        Gen.int(in: 0...(keySets.count - 1)), Gen.bool(), Gen.int(in: 0...(machines.count - 1))
    ).map { name, bus, id, keys, hasSwitch, machine in
        var types = [Int(EV_SYN)]
        if !keySets[keys].isEmpty { types.append(Int(EV_KEY)) }
        if hasSwitch { types.append(Int(EV_SW)) }
        let device = InputDeviceDescription(
            syspath: "/sys/devices/platform/x/input/input1/event1", name: names[name], bus: buses[bus],
            vendor: ids[id].0, product: ids[id].1, eventTypes: CapabilityBits(codes: types),
            keys: CapabilityBits(codes: keySets[keys]),
            switches: CapabilityBits(codes: hasSwitch ? [Int(SW_TABLET_MODE)] : []))
        return Sample(device: device, machine: machines[machine])
    }

    static let hotkeys = [try! Hotkey("LEFTMETA+K", action: .toggle)]

    @Test func quirksChangeOnlyPlacementAndSwitchesAndSaySo() async throws {
        let sections = try DeviceQuirksTests.quirks(dmi: nil).sections
        await propertyCheck(count: 400, input: Self.samples) { sample in
            let plain = DeviceClassifier.classify(sample.device, ClassifierConfiguration(hotkeys: Self.hotkeys))
            let quirks = DeviceQuirks(sections: sections, dmiModalias: sample.machine)
            let quirked = DeviceClassifier.classify(
                sample.device, ClassifierConfiguration(hotkeys: Self.hotkeys, quirks: quirks))
            switch (plain.kind, quirked.kind) {
            case (.keyboard, .keyboard):
                break  // placement may differ
            case (.tabletModeSwitch, let kind):
                #expect(kind == .tabletModeSwitch || kind == .hotkeySource || kind == .ignored)
            case (let before, let after):
                #expect(before == after, "\(sample): \(plain.reason) became \(quirked.reason)")
            }
            if plain != quirked {
                #expect(quirked.reason.contains("libinput quirk"), "\(sample): \(quirked.reason)")
            }
            // A switch is followed only where the capability is there.
            if quirked.hasTabletModeSwitch { #expect(plain.hasTabletModeSwitch) }
        }
    }
}
