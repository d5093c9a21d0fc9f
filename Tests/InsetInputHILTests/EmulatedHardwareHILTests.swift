import CLibevdev
import InputTestbed
import InsetInput
import Testing

/// `EmulatedHardware`, the code behind `insetd-testbed`, read by the real
/// `InputMonitor`: what a tester's plug, press, tablet and unplug do is what
/// the monitor sees.
extension HardwareInTheLoop {
    @Suite struct EmulatedHardwareHILTests {
        @Test func plugPressTabletUnplug() async throws {
            let hardware = EmulatedHardware()
            try hardware.plug(kind: "tablet-switch", name: "hinge")
            let logs = LogCapture()
            let classifier = ClassifierConfiguration(hotkeys: EmulatedMachine.hotkeys)
            let monitor = InputMonitor(configuration: .init(source: .udev, classifier: classifier), logger: logs.logger())
            let collector = EventCollector(monitor.events)
            try monitor.start()
            defer { monitor.stop() }
            // The testbed's switch starts unfolded (the catalogue's starts folded).
            #expect(monitor.tabletMode == false)

            let desk = try hardware.plug(kind: "usb-keyboard", name: "desk")
            let attached = await collector.wait { $0.isAttach }
            #expect(attached.map(\.syspath) == ["/sys" + desk.device.syspath])

            try hardware.press(KeyChord("LEFTMETA+K"))
            #expect(await collector.wait { $0 == .hotkey(.toggle) }.count == 1)

            try hardware.tablet(on: true)
            #expect(await collector.wait { $0 == .tabletMode(true) }.count == 1)

            try hardware.unplug("desk")
            let detached = await collector.wait { $0.isDetach }
            #expect(detached.map(\.syspath) == ["/sys/devices/pci0000:00/0000:00:14.0/usb1/1-2/1-2:1.0/0003:413C:2113.0001/input/input10/event10"])
            #expect(hardware.inventory.listing == "hinge\ttablet-switch\t/dev/input/event13\ttablet on")
        }

        @Test func aRecordingIsClassifiedLikeTheDeviceItCameFrom() async throws {
            let hardware = EmulatedHardware()
            let logs = LogCapture()
            let classifier = ClassifierConfiguration(hotkeys: EmulatedMachine.hotkeys)
            let monitor = InputMonitor(configuration: .init(source: .udev, classifier: classifier), logger: logs.logger())
            let collector = EventCollector(monitor.events)
            try monitor.start()
            defer { monitor.stop() }
            let recording = """
                P: /devices/pci0000:00/0000:00:14.0/usb1/1-4/1-4:1.0/0003:046A:0001.0007/input/input7/event7
                N: input/event7
                E: DEVNAME=/dev/input/event7
                E: ID_INPUT_KEYBOARD=1
                E: SUBSYSTEM=input

                P: /devices/pci0000:00/0000:00:14.0/usb1/1-4/1-4:1.0/0003:046A:0001.0007/input/input7
                E: EV=120013
                E: KEY=80000000000000 e0b0ffdf01cfffff fffffffffffffffe
                E: NAME="Cherry USB keyboard"
                E: PRODUCT=3/46a/1/111

                """
            try hardware.plug(recording: recording, kind: "cherry")
            let attached = await collector.wait { $0.isAttach }
            guard case .keyboardAttached(let device)? = attached.first else {
                Issue.record("the recorded keyboard was not attached; log: \(logs.lines)")
                return
            }
            #expect(device.description.name == "Cherry USB keyboard")
            #expect(device.classification.label == "keyboard-external")
            #expect(device.description.vendorProduct == "046a:0001")
            // Typed on, as a real one: libevdev read the generated ioctl record.
            try hardware.press(KeyChord("LEFTMETA+K"), on: "cherry")
            #expect(await collector.wait { $0 == .hotkey(.toggle) }.count == 1)
        }
    }
}
