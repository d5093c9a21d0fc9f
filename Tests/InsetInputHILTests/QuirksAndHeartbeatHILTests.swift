import CLibevdev
import Glibc
import InputTestbed
import InsetInput
import Synchronization
import Testing

/// libinput's quirks applied to emulated devices found through real libudev,
/// and the reader heartbeat that systemd's watchdog depends on.
extension HardwareInTheLoop {
@Suite struct QuirksAndHeartbeatHILTests {
    static func monitor(quirks: QuirksSources?, logs: LogCapture) -> InputMonitor {
        InputMonitor(
            configuration: .init(
                source: .udev, classifier: ClassifierConfiguration(hotkeys: EmulatedMachine.hotkeys), quirks: quirks),
            logger: logs.logger())
    }

    @Test func aSurfaceCoverIsInternalAndAnUnreliableSwitchIsNotFollowed() async throws {
        let testbed = Testbed()
        for device in [FixtureCatalogue.surfaceTypeCover, FixtureCatalogue.unreliableTabletSwitch, FixtureCatalogue.kioskDockKeyboard] {
            try testbed.add(device)
        }
        let logs = LogCapture()
        // The fixture machine is a Surface whose Asus-style switch quirk does not
        // match; then the same devices on the Asus.
        let surfaceQuirks = try FixtureQuirks.write(dmi: FixtureCatalogue.surfaceProDMI)
        defer { FixtureQuirks.remove(surfaceQuirks) }
        let onSurface = Self.monitor(quirks: surfaceQuirks, logs: logs)
        let collector = EventCollector(onSurface.events)
        try onSurface.start()
        defer { onSurface.stop() }
        let byName = Dictionary(uniqueKeysWithValues: onSurface.devices.map { ($0.description.name, $0) })
        #expect(byName["Microsoft Surface Type Cover Keyboard"]?.classification.kind == .keyboard(.internal))
        #expect(byName["Microsoft Surface Type Cover Keyboard"]?.placement == .internal)
        #expect(byName["Holtek USB Keyboard"]?.classification.kind == .keyboard(.internal))
        #expect(byName["Intel Virtual Button driver"]?.classification.label == "tablet-switch")
        // Its switch starts "on" and is followed here.
        #expect(await collector.wait { $0 == .tabletMode(true) }.count == 1)
        #expect(logs.lines.contains { $0.contains("libinput quirks read") && $0.contains("sections=6") })

        let asusQuirks = try FixtureQuirks.write(dmi: FixtureCatalogue.asusFlipDMI)
        defer { FixtureQuirks.remove(asusQuirks) }
        let onAsus = Self.monitor(quirks: asusQuirks, logs: logs)
        let asusEvents = EventCollector(onAsus.events)
        try onAsus.start()
        defer { onAsus.stop() }
        let asus = Dictionary(uniqueKeysWithValues: onAsus.devices.map { ($0.description.name, $0) })
        #expect(asus["Microsoft Surface Type Cover Keyboard"]?.classification.kind == .keyboard(.external))
        #expect(
            asus["Intel Virtual Button driver"]?.classification.reason
                == "lacks keys of the ESC..D block udev requires of a keyboard; its SW_TABLET_MODE is not followed (libinput quirk ModelTabletModeSwitchUnreliable, [Asus TP412UA Tablet Mode Switch] in 50-system-asus.quirks); has no configured hotkey's keys")
        // Never opened, so its "tablet" state is never reported.
        let events = await asusEvents.settle()
        #expect(!events.contains(.tabletMode(true)))
    }

    /// Holds the reader thread inside its delivery callback, as a consumer that
    /// blocks would; released by the test.
    final class Gate: Sendable {
        let armed = Atomic<Bool>(false)
        let entered = Atomic<Bool>(false)
        let released = Atomic<Bool>(false)

        func pass() {
            guard armed.load(ordering: .acquiring) else { return }
            entered.store(true, ordering: .releasing)
            while !released.load(ordering: .acquiring) { usleep(1000) }
        }
    }

    static func eventually(_ condition: () -> Bool) async -> Bool {
        for _ in 0..<200 {
            if condition() { return true }
            try? await Task.sleep(for: .milliseconds(25))
        }
        return false
    }

    @Test func aStuckReaderStopsAnsweringTheHeartbeatAndAnswersOnceFree() async throws {
        let testbed = Testbed()
        let logs = LogCapture()
        let monitor = Self.monitor(quirks: nil, logs: logs)
        let gate = Gate()
        try monitor.start(delivering: { _ in gate.pass() })
        defer {
            gate.released.store(true, ordering: .releasing)
            monitor.stop()
        }
        #expect(monitor.readerHeartbeat(), "nothing was asked before: alive")
        #expect(await Self.eventually { monitor.readerHeartbeat() }, "an idle reader answers")

        // A keyboard arrives; its attach is delivered on the reader thread, which stays in the callback.
        gate.armed.store(true, ordering: .releasing)
        try testbed.add(FixtureCatalogue.usbKeyboard)
        #expect(await Self.eventually { gate.entered.load(ordering: .acquiring) })
        _ = monitor.readerHeartbeat()  // whatever was outstanding, a new request now
        try await Task.sleep(for: .milliseconds(300))
        #expect(!monitor.readerHeartbeat(), "stuck: the request made 300 ms ago is unanswered")
        try await Task.sleep(for: .milliseconds(300))
        #expect(!monitor.readerHeartbeat(), "still stuck")

        gate.released.store(true, ordering: .releasing)
        #expect(await Self.eventually { monitor.readerHeartbeat() }, "free again: it answers")
        #expect(monitor.devices.map(\.description.name) == ["Dell KB216 Wired Keyboard"])
    }
}
}
