import Foundation
import InputTestbed
import InsetCore
import InsetInput
import Testing

@testable import InsetDaemon

/// `input.allow` entries may say where the keyboard sits; `input.deny` entries
/// may not (a denied device is never a keyboard).
@Suite struct AllowPlacementConfigTests {
    @Test func allowEntriesCarryTheirPlacement() async throws {
        let path = try temporaryConfig("""
            input:
              allow: ["internal:045e:09c0", "external:name:*Dock*", "bus:i2c"]
            """)
        let config = try await DaemonConfigurationLoader.load(path: path)
        #expect(config.classifier.allow.map(\.description) == ["internal:045e:09c0", "external:name:*Dock*", "bus:i2c"])
        #expect(config.classifier.allow.map(\.placement) == [.internal, .external, nil])
    }

    @Test func aDenyEntryCannotBePlaced() async throws {
        let path = try temporaryConfig("""
            input:
              deny: ["internal:1050:*"]
            """)
        do {
            _ = try await DaemonConfigurationLoader.load(path: path)
            Issue.record("a placed deny entry was accepted")
        } catch {
            let line = try #require(error.description.split(separator: "\n").first { $0.contains("input.deny") })
            #expect(
                line.contains(
                    "'internal:1050:*' cannot say internal: or external: (only input.allow entries place a keyboard)"),
                "\(line)")
        }
    }
}

/// What `insetctl devices` and the `devices` topic say about placement is what
/// classification decided (a Surface cover on USB is internal), not the bus.
@Suite struct WirePlacementTests {
    @Test func theWireCarriesTheClassifiedPlacement() {
        let cover = InputDevice(
            description: FixtureCatalogue.surfaceTypeCover.description,
            classification: DeviceClassification(kind: .keyboard(.internal), reason: "quirk"))
        #expect(DaemonCore.wire(cover).external == false)
        let usb = InputDevice(
            description: FixtureCatalogue.usbKeyboard.description,
            classification: DeviceClassification(kind: .keyboard(.external), reason: "bus"))
        #expect(DaemonCore.wire(usb).external == true)
        // Not a keyboard: the bus answers (host bus: internal).
        let hinge = InputDevice(
            description: FixtureCatalogue.tabletSwitch.description,
            classification: DeviceClassification(kind: .tabletModeSwitch, reason: "switch", hasTabletModeSwitch: true))
        #expect(DaemonCore.wire(hinge).external == false)
    }
}
