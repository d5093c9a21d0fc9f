#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import CLibevdev
import Glibc
import InsetInput

/// Devices whose class depends on libinput's quirks, and the machines (DMI
/// modaliases) that make the quirks match.
extension FixtureCatalogue {
    /// A Surface Pro 4 type cover: a USB keyboard that is part of the tablet
    /// (libinput: `[Microsoft Surface Cover]`, `AttrKeyboardIntegration=internal`).
    public static let surfaceTypeCover = FixtureDevice(
        kind: "surface-type-cover",
        inputPath: "/devices/pci0000:00/0000:00:14.0/usb1/1-7/1-7:1.0/0003:045E:09C0.0005/input/input15",
        eventNumber: 15, name: "Microsoft Surface Type Cover Keyboard", bus: .usb, vendor: 0x045e, product: 0x09c0,
        keys: fullKeyboardKeys)

    /// An Asus VivoBook Flip 14's virtual buttons, whose tablet-mode switch always
    /// says "tablet" (libinput: `ModelTabletModeSwitchUnreliable=1`).
    public static let unreliableTabletSwitch = FixtureDevice(
        kind: "unreliable-tablet-switch", inputPath: "/devices/platform/INT33D6:00/input/input16", eventNumber: 16,
        name: "Intel Virtual Button driver", bus: .host, vendor: 0, product: 0,
        keys: [Int(KEY_VOLUMEDOWN), Int(KEY_VOLUMEUP), Int(KEY_POWER), Int(KEY_LEFTMETA), Int(KEY_ROTATE_LOCK_TOGGLE)],
        switches: [Int(SW_TABLET_MODE)], switchesOn: [Int(SW_TABLET_MODE)])

    /// A kiosk's USB keyboard that an administrator's override marks internal.
    public static let kioskDockKeyboard = FixtureDevice(
        kind: "kiosk-dock-keyboard",
        inputPath: "/devices/pci0000:00/0000:00:14.0/usb1/1-8/1-8:1.0/0003:04D9:1603.0006/input/input17",
        eventNumber: 17, name: "Holtek USB Keyboard", bus: .usb, vendor: 0x04d9, product: 0x1603,
        keys: fullKeyboardKeys)

    public static let quirkDevices: [FixtureDevice] = [surfaceTypeCover, unreliableTabletSwitch, kioskDockKeyboard]

    /// A Surface Pro 4's DMI modalias (`/sys/class/dmi/id/modalias`).
    public static let surfaceProDMI =
        "dmi:bvnMicrosoftCorporation:bvr108.2439.768:bd11/19/2018:br108.2439:svnMicrosoftCorporation:pnSurfacePro4:pvr124000000000000000000000D:rvnMicrosoftCorporation:rnSurfacePro4:rvr:cvnMicrosoftCorporation:ct9:cvr:"

    /// An Asus VivoBook Flip 14 TP412UA's DMI modalias.
    public static let asusFlipDMI =
        "dmi:bvnAmericanMegatrendsInc.:bvrTP412UA.306:bd08/05/2019:br5.12:svnASUSTeKCOMPUTERINC.:pnVivoBookFlip14_ASUSFlipTP412UA:pvr1.0:rvnASUSTeKCOMPUTERINC.:rnTP412UA:rvr1.0:cvnASUSTeKCOMPUTERINC.:ct31:cvr1.0:"

    /// A desktop PC's.
    public static let desktopDMI =
        "dmi:bvnDellInc.:bvr2.17.0:bd03/15/2022:br2.17:svnDellInc.:pnOptiPlex7090:pvr:rvnDellInc.:rn0J37D1:rvrA00:cvnDellInc.:ct3:cvr:"
}

/// A quirks directory in the form libinput installs, with sections taken from
/// libinput's own files (generic keyboards, Surface covers, the Asus switch)
/// plus an administrator's override file, for tests that must not depend on
/// the libinput version installed.
public enum FixtureQuirks {
    public static let files: [String: String] = [
        "10-generic-keyboard.quirks": """
            # Fixture after libinput's 10-generic-keyboard.quirks

            [Serial Keyboards]
            MatchUdevType=keyboard
            MatchBus=ps2
            AttrKeyboardIntegration=internal

            [Bluetooth Keyboards]
            MatchUdevType=keyboard
            MatchBus=bluetooth
            AttrKeyboardIntegration=external

            """,
        "30-vendor-microsoft.quirks": """
            [Microsoft Surface Keyboard]
            MatchName=*Microsoft Surface *Keyboard*
            MatchDMIModalias=dmi:*svnMicrosoftCorporation:*
            AttrKeyboardIntegration=internal

            [Microsoft Surface Cover]
            MatchName=*Microsoft Surface *Cover*
            MatchDMIModalias=dmi:*svnMicrosoftCorporation:*
            AttrKeyboardIntegration=internal  # the cover folds behind the screen

            """,
        "50-system-asus.quirks": """
            [Asus TP412UA Tablet Mode Switch]
            MatchName=*Intel Virtual Button*
            MatchDMIModalias=dmi:*svnASUSTeKCOMPUTERINC.:pnVivoBookFlip14_ASUSFlipTP412UA:*
            ModelTabletModeSwitchUnreliable=1

            """,
    ]

    public static let overrideFileName = "local-overrides.quirks"

    public static let overrides = """
        [Kiosk dock keyboard]
        MatchBus=usb
        MatchVendor=0x04D9
        MatchProduct=0x1603
        AttrKeyboardIntegration=internal

        """

    /// Writes the files into a new directory under `/tmp` and returns where
    /// libinput's paths would be: `data` (the `*.quirks`), `override` (the
    /// override file, in a sibling directory) and `dmi` (a modalias file).
    public static func write(dmi: String?) throws -> QuirksSources {
        var template = Array("/tmp/insetd-quirks-XXXXXX".utf8CString)
        guard let root = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }).map({ String(cString: $0) })
        else { throw FixtureQuirksError(what: "mkdtemp", errno: errno) }
        for directory in ["\(root)/data", "\(root)/etc"] where mkdir(directory, 0o755) != 0 {
            throw FixtureQuirksError(what: "mkdir \(directory)", errno: errno)
        }
        for (name, text) in files { try writeFile("\(root)/data/\(name)", text) }
        try writeFile("\(root)/etc/\(overrideFileName)", overrides)
        if let dmi { try writeFile("\(root)/dmi-modalias", dmi + "\n") }
        return QuirksSources(
            dataDirectory: "\(root)/data", overrideFile: "\(root)/etc/\(overrideFileName)",
            dmiModaliasPath: "\(root)/dmi-modalias", deviceTreePath: "\(root)/no-device-tree")
    }

    /// Removes what `write(dmi:)` wrote (its whole directory).
    public static func remove(_ sources: QuirksSources) {
        let root = String(sources.dataDirectory.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/"))
        guard root.hasPrefix("/tmp/insetd-quirks-") else { return }
        try? FileManager.default.removeItem(atPath: root)
    }

    public static func writeFile(_ path: String, _ text: String) throws {
        guard let file = fopen(path, "w") else { throw FixtureQuirksError(what: "fopen \(path)", errno: errno) }
        defer { fclose(file) }
        guard fputs(text, file) >= 0 else { throw FixtureQuirksError(what: "fputs \(path)", errno: errno) }
    }
}

public struct FixtureQuirksError: Error, CustomStringConvertible {
    public var what: String
    public var errno: Int32
    public var description: String { "\(what): \(String(cString: strerror(errno)))" }
}
