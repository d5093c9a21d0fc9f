import Glibc
import InputTestbed
import InsetCore
import Testing

@testable import InsetInput

/// Reading quirks from directories: the test's own fixture directory, and the
/// files libinput installed on this machine.
@Suite struct QuirksLoaderTests {
    @Test func theFixtureDirectoryAndItsOverrideFile() throws {
        let sources = try FixtureQuirks.write(dmi: FixtureCatalogue.surfaceProDMI)
        defer { FixtureQuirks.remove(sources) }
        let (quirks, problems) = DeviceQuirks.load(sources)
        #expect(problems.isEmpty)
        // 2 generic + 2 Microsoft + 1 Asus, in version order, then the override.
        #expect(
            quirks.sections.map(\.label) == [
                "[Serial Keyboards] in 10-generic-keyboard.quirks", "[Bluetooth Keyboards] in 10-generic-keyboard.quirks",
                "[Microsoft Surface Keyboard] in 30-vendor-microsoft.quirks",
                "[Microsoft Surface Cover] in 30-vendor-microsoft.quirks",
                "[Asus TP412UA Tablet Mode Switch] in 50-system-asus.quirks",
                "[Kiosk dock keyboard] in local-overrides.quirks",
            ])
        #expect(quirks.dmiModalias == FixtureCatalogue.surfaceProDMI)
        #expect(quirks.deviceTree == nil)
        #expect(
            quirks.lookup(FixtureCatalogue.surfaceTypeCover.description).keyboardIntegration
                == .init(value: .internal, section: "[Microsoft Surface Cover] in 30-vendor-microsoft.quirks"))
    }

    @Test func versionOrderAndTheOverrideDecideWhichSectionIsLast() throws {
        let sources = try FixtureQuirks.write(dmi: nil)
        defer { FixtureQuirks.remove(sources) }
        let section = { (name: String, placement: String) in
            "[\(name)]\nMatchVendor=0x04D9\nMatchProduct=0x1603\nAttrKeyboardIntegration=\(placement)\n"
        }
        // Plain string order would read 9-... last; libinput's version order reads it first.
        try FixtureQuirks.writeFile("\(sources.dataDirectory)/9-early.quirks", section("Early", "external"))
        try FixtureQuirks.writeFile("\(sources.dataDirectory)/60-late.quirks", section("Late", "external"))
        var (quirks, _) = DeviceQuirks.load(sources)
        // The override file (internal) comes after every data file.
        #expect(
            quirks.lookup(FixtureCatalogue.kioskDockKeyboard.description).keyboardIntegration
                == .init(value: .internal, section: "[Kiosk dock keyboard] in local-overrides.quirks"))

        var withoutOverride = sources
        withoutOverride.overrideFile = nil
        (quirks, _) = DeviceQuirks.load(withoutOverride)
        #expect(quirks.sections.first?.label == "[Early] in 9-early.quirks")
        #expect(
            quirks.lookup(FixtureCatalogue.kioskDockKeyboard.description).keyboardIntegration
                == .init(value: .external, section: "[Late] in 60-late.quirks"))
    }

    @Test func aBrokenFileIsLeftOutAndNamedTheOthersStillCount() throws {
        let sources = try FixtureQuirks.write(dmi: FixtureCatalogue.asusFlipDMI)
        defer { FixtureQuirks.remove(sources) }
        let broken = "\(sources.dataDirectory)/40-broken.quirks"
        try FixtureQuirks.writeFile(broken, "[Broken]\nMatchBus=usb\t\nAttrKeyboardIntegration=internal\n")
        let (quirks, problems) = DeviceQuirks.load(sources)
        #expect(problems.map(\.description) == ["\(broken):2: trailing whitespace"])
        #expect(quirks.sections.count == 6)
        #expect(
            quirks.lookup(FixtureCatalogue.unreliableTabletSwitch.description).tabletModeSwitchUnreliable
                == .init(value: true, section: "[Asus TP412UA Tablet Mode Switch] in 50-system-asus.quirks"))
    }

    @Test func missingFilesAndDirectories() throws {
        let written = try FixtureQuirks.write(dmi: nil)
        defer { FixtureQuirks.remove(written) }
        var sources = written
        sources.overrideFile = sources.dataDirectory + "/../etc/absent.quirks"
        var (quirks, problems) = DeviceQuirks.load(sources)
        // A missing override file is normal (libinput's usually is).
        #expect(problems.isEmpty)
        #expect(quirks.sections.count == 5)
        #expect(quirks.dmiModalias == nil)

        // No libinput installed (a minimal system): no quirks and nothing to warn about.
        sources.dataDirectory = "/nonexistent/libinput"
        (quirks, problems) = DeviceQuirks.load(sources)
        #expect(quirks.sections.isEmpty)
        #expect(problems.isEmpty)

        // A directory that exists but cannot be read is a fault worth a warning.
        sources.dataDirectory = "/proc/self/fd/0/not-a-directory"
        (quirks, problems) = DeviceQuirks.load(sources)
        #expect(quirks.sections.isEmpty)
        #expect(problems.count == 1)
    }

    /// The files Debian's libinput-bin installed: every one parses (as libinput
    /// itself requires), and known entries decide the fixture devices.
    @Test func theInstalledLibinputFiles() throws {
        let fixture = try FixtureQuirks.write(dmi: FixtureCatalogue.surfaceProDMI)
        defer { FixtureQuirks.remove(fixture) }
        var sources = QuirksSources.libinput
        sources.overrideFile = nil
        sources.dmiModaliasPath = fixture.dmiModaliasPath
        let (quirks, problems) = DeviceQuirks.load(sources)
        #expect(problems.isEmpty, "libinput's own files must parse: \(problems)")
        #expect(quirks.sections.contains { $0.label == "[Serial Keyboards] in 10-generic-keyboard.quirks" })
        #expect(
            quirks.lookup(FixtureCatalogue.surfaceTypeCover.description).keyboardIntegration
                == .init(value: .internal, section: "[Microsoft Surface Cover] in 30-vendor-microsoft.quirks"))
        let razer = InputDeviceDescription(
            syspath: "/sys/devices/pci0000:00/usb1/1-5/input/input30/event30", name: "Razer Razer Blade Stealth",
            bus: .usb, vendor: 0x1532, product: 0x0205, properties: ["ID_INPUT": "1", "ID_INPUT_KEYBOARD": "1"])
        #expect(
            quirks.lookup(razer).keyboardIntegration
                == .init(value: .internal, section: "[RazerBladeStealth Keyboard] in 30-vendor-razer.quirks"))

        var asus = sources
        try FixtureQuirks.writeFile(fixture.dmiModaliasPath, FixtureCatalogue.asusFlipDMI + "\n")
        asus.dmiModaliasPath = fixture.dmiModaliasPath
        let onAsus = DeviceQuirks.load(asus).quirks
        #expect(
            onAsus.lookup(FixtureCatalogue.unreliableTabletSwitch.description).tabletModeSwitchUnreliable
                == .init(value: true, section: "[Asus TP412UA Tablet Mode Switch] in 50-system-asus.quirks"))
    }
}
