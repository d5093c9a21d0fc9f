import CLibevdev
import Foundation
import InputTestbed
import Testing

extension HardwareInTheLoop {
    /// A keyboard plugged in and out a thousand times while insetd runs: every
    /// plug and unplug is reported, no descriptor is left behind, the daemon ends
    /// where it started and goes back to sleep.
    @Suite struct HotplugChurnTests {
        static let cycles = 1000

        @Test func aThousandPlugsAndUnplugsLeaveNothingBehind() async throws {
            let testbed = Testbed()
            try testbed.add(FixtureCatalogue.atKeyboard)
            let daemon = try DaemonProcess(config: DaemonEndToEndTests.phone)
            let client = try await daemon.connect()
            client.sendLine(#"{"type":"subscribe","topics":["devices"]}"#)
            client.sendLine(#"{"type":"status","id":"before"}"#)
            let before = try #require(await client.next("status"))
            #expect(before.state?.hardwareKeyboard == true)
            let probe = ProcessFacts(pid: daemon.process.processIdentifier)
            let descriptorsBefore = probe.openDescriptors

            var attached = 0
            var removed = 0
            for cycle in 0..<Self.cycles {
                // umockdev cannot reuse a removed node's name: each plug is a new node.
                let keyboard = FixtureCatalogue.usbKeyboard.renumbered(100 + cycle)
                try testbed.add(keyboard)
                if await client.next("device", where: { $0.deviceEvent == "attached" }) != nil { attached += 1 }
                testbed.remove(keyboard)
                if await client.next("device", where: { $0.deviceEvent == "detached" }) != nil { removed += 1 }
            }
            #expect(attached == Self.cycles)
            #expect(removed == Self.cycles)

            client.sendLine(#"{"type":"devices","id":"after"}"#)
            let devices = try #require(await client.next("devices")?.devices)
            #expect(devices.map(\.name) == ["AT Translated Set 2 keyboard"])
            #expect(probe.openDescriptors == descriptorsBefore, "every unplugged device's descriptor is closed")
            let ticks = probe.cpuTicks
            try await Task.sleep(for: .seconds(1))
            #expect(probe.cpuTicks - ticks <= 2, "the daemon is idle again after the churn")
            #expect(await daemon.terminate() == 0)
            #expect(!daemon.logText.contains("error"), "log: \(daemon.logText.suffix(2000))")
        }
    }
}
