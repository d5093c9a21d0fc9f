import CLibevdev
import InputTestbed
import InsetInput
import Testing

/// Reading devices end to end: hotkeys, tablet mode, SYN_DROPPED, unplug, privacy.
extension HardwareInTheLoop {
@Suite struct ReadingHILTests {
    @Test(arguments: [FixtureCatalogue.usbKeyboard, FixtureCatalogue.remapperKeyboard])
    func hotkeyOnAPhysicalAndOnAVirtualKeyboard(_ device: FixtureDevice) async throws {
        let machine = try EmulatedMachine([device])
        try machine.start()
        machine.testbed.tap(device, [Int32(KEY_LEFTMETA), Int32(KEY_K)])
        machine.testbed.tap(device, [Int32(KEY_K)])  // K alone: nothing
        machine.testbed.tap(device, [Int32(KEY_LEFTSHIFT), Int32(KEY_LEFTMETA), Int32(KEY_K)])  // extra modifier: nothing
        machine.testbed.tap(device, [Int32(KEY_LEFTMETA), Int32(KEY_R)])
        let hotkeys = await machine.collector.wait(for: 2) { if case .hotkey = $0 { true } else { false } }
        #expect(hotkeys == [.hotkey(.toggle), .hotkey(.rotateRight)])
        #expect(await machine.collector.settle().filter { if case .hotkey = $0 { true } else { false } }.count == 2)
    }

    @Test func tabletModeIsReadAtOpenAndFollowed() async throws {
        let device = FixtureCatalogue.tabletSwitch
        let machine = try EmulatedMachine([device, FixtureCatalogue.atKeyboard])
        try machine.start()
        #expect(await machine.collector.wait { $0 == .tabletMode(true) }.count == 1)
        machine.testbed.switchState(device, Int32(SW_TABLET_MODE), on: false)
        #expect(await machine.collector.wait { $0 == .tabletMode(false) }.count == 1)
        machine.testbed.switchState(device, Int32(SW_TABLET_MODE), on: true)
        #expect(await machine.collector.wait(for: 2) { $0 == .tabletMode(true) }.count == 2)
        // Unplugging the only switch ends tablet mode.
        machine.testbed.remove(device)
        #expect(await machine.collector.wait(for: 2) { $0 == .tabletMode(false) }.count == 2)
    }

    @Test func synDroppedResyncsTheSwitchFromTheKernelState() async throws {
        // The kernel state (EVIOCGSW) says tablet mode is on.
        let device = FixtureCatalogue.tabletSwitch
        let machine = try EmulatedMachine([device])
        try machine.start()
        await machine.collector.wait { $0 == .tabletMode(true) }
        machine.testbed.switchState(device, Int32(SW_TABLET_MODE), on: false)
        await machine.collector.wait { $0 == .tabletMode(false) }
        // Events were lost; libevdev asks the kernel and replays the difference.
        machine.testbed.emit(device, type: Int32(EV_SYN), code: Int32(SYN_DROPPED), value: 0)
        machine.testbed.emit(device, type: Int32(EV_SYN), code: Int32(SYN_REPORT), value: 0)
        #expect(await machine.collector.wait(for: 2) { $0 == .tabletMode(true) }.count == 2)
    }

    @Test func synDroppedReleasesAModifierTheKernelNoLongerHolds() async throws {
        let device = FixtureCatalogue.usbKeyboard
        let machine = try EmulatedMachine([device])
        try machine.start()
        machine.testbed.key(device, Int32(KEY_LEFTMETA), 1)
        // The release was lost; the kernel's key state (EVIOCGKEY) has no key down.
        machine.testbed.emit(device, type: Int32(EV_SYN), code: Int32(SYN_DROPPED), value: 0)
        machine.testbed.emit(device, type: Int32(EV_SYN), code: Int32(SYN_REPORT), value: 0)
        // libevdev discards whatever is queued when it resyncs (it is stale after
        // a drop), so the next keys must come after the reader has resynced. No
        // event marks that moment; 200 ms is thousands of times what it takes.
        try await Task.sleep(for: .milliseconds(200))
        machine.testbed.tap(device, [Int32(KEY_K)])
        machine.testbed.tap(device, [Int32(KEY_LEFTMETA), Int32(KEY_R)])
        // The later hotkey proves the K press was read; K fired nothing.
        #expect(await machine.collector.wait { $0 == .hotkey(.rotateRight) }.count == 1)
        #expect(!machine.collector.events.contains(.hotkey(.toggle)))
    }

    @Test func unplugOfAnOpenDeviceEndsItWithoutSpinning() async throws {
        let device = FixtureCatalogue.usbKeyboard
        let machine = try EmulatedMachine([device])
        try machine.start()
        await machine.collector.wait { $0.isAttach }
        let before = try #require(machine.monitor.readerCPUTime())
        // The node hangs up with no uevent: the reader must notice by itself.
        machine.testbed.hangUp(device)
        #expect(await machine.collector.wait { $0.isDetach }.count == 1)
        try await Task.sleep(for: .milliseconds(500))
        let used = try #require(machine.monitor.readerCPUTime()) - before
        // A spinning reader would burn the whole 500 ms.
        #expect(used < .milliseconds(25), "reader used \(used) of CPU after the unplug")
        print("HIL measurement: reader CPU in the 500 ms after an unplug: \(used)")
    }

    @Test func anIdleMonitorNeverWakesUp() async throws {
        let machine = try EmulatedMachine([
            FixtureCatalogue.usbKeyboard, FixtureCatalogue.atKeyboard, FixtureCatalogue.tabletSwitch,
            FixtureCatalogue.remapperKeyboard,
        ])
        try machine.start()
        await machine.collector.wait { $0 == .tabletMode(true) }
        let wakeupsBefore = machine.monitor.readerWakeups
        let cpuBefore = try #require(machine.monitor.readerCPUTime())
        try await Task.sleep(for: .seconds(1))
        #expect(machine.monitor.readerWakeups == wakeupsBefore)
        let cpu = try #require(machine.monitor.readerCPUTime()) - cpuBefore
        #expect(cpu < .milliseconds(5))
        // One key press wakes it exactly once.
        machine.testbed.tap(FixtureCatalogue.usbKeyboard, [Int32(KEY_LEFTMETA), Int32(KEY_K)])
        await machine.collector.wait { $0 == .hotkey(.toggle) }
        print("HIL measurement: idle 1 s with 4 devices: \(machine.monitor.readerWakeups - wakeupsBefore) wakeups after one tap, reader CPU while idle \(cpu)")
    }

    @Test func aSecretTypedWithDebugLoggingLeavesNoTrace() async throws {
        let device = FixtureCatalogue.usbKeyboard
        let machine = try EmulatedMachine([device])
        try machine.start()
        await machine.collector.wait { $0.isAttach }
        let linesBefore = machine.logs.lines.count
        let eventsBefore = machine.collector.events.count
        // "hunter2" on the keyboard, with a shifted H.
        let secret: [[Int32]] = [
            [Int32(KEY_LEFTSHIFT), Int32(KEY_H)], [Int32(KEY_U)], [Int32(KEY_N)], [Int32(KEY_T)], [Int32(KEY_E)],
            [Int32(KEY_R)], [Int32(KEY_2)],
        ]
        for keys in secret { machine.testbed.tap(device, keys) }
        machine.testbed.tap(device, [Int32(KEY_LEFTMETA), Int32(KEY_R)])  // marks the end of the typing
        await machine.collector.wait { $0 == .hotkey(.rotateRight) }

        #expect(machine.collector.events.dropFirst(eventsBefore) == [.hotkey(.rotateRight)])
        #expect(machine.logs.lines.count == linesBefore, "typing produced log lines: \(machine.logs.lines.dropFirst(linesBefore))")
        let everything = (machine.logs.lines + machine.collector.events.map { "\($0)" }).joined(separator: "\n")
        for needle in ["hunter", "Hunter", "KEY_H", "KEY_U", "KEY_2", "value=1"] {
            #expect(!everything.contains(needle), "found \(needle)")
        }
    }
}
}

extension HardwareInTheLoop {
    @Suite struct RemapperHILTests {
        @Test func theRotateKeyOnARemappersKeyboardIsAHotkey() async throws {
            let device = FixtureCatalogue.remapperKeyboard
            let machine = try EmulatedMachine([device])
            try machine.start()
            machine.testbed.tap(device, [Int32(KEY_ROTATE_DISPLAY)])
            #expect(await machine.collector.wait { $0 == .hotkey(.rotate) }.count == 1)
        }
    }
}
