import CLibevdev
import Glibc
import InputTestbed
import InsetInput
import NIOCore
import NIOPosix
import Testing

/// Reading devices on an event loop, as insetd reads them (`EvdevLoopReader`):
/// hotkeys, `SYN_DROPPED` resynced from the kernel's state (EVIOCGKEY,
/// EVIOCGSW) with the queued events thrown away, and devices that hang up or are
/// removed while the loop reads them.
extension HardwareInTheLoop {
@Suite struct LoopReadingHILTests {
    private static var loop: any EventLoop { MultiThreadedEventLoopGroup.singleton.any() }
    private static let meta = Int32(KEY_LEFTMETA)

    @Test func hotkeysAreMatchedOnTheLoop() async throws {
        let device = FixtureCatalogue.usbKeyboard
        let machine = try EmulatedMachine([device])
        try machine.start(eventLoop: Self.loop)
        machine.testbed.tap(device, [Self.meta, Int32(KEY_K)])
        machine.testbed.tap(device, [Int32(KEY_K)])  // K alone: nothing
        machine.testbed.tap(device, [Int32(KEY_LEFTSHIFT), Self.meta, Int32(KEY_K)])  // extra modifier: nothing
        machine.testbed.tap(device, [Self.meta, Int32(KEY_R)])
        let hotkeys = await machine.collector.wait(for: 2) { if case .hotkey = $0 { true } else { false } }
        #expect(hotkeys == [.hotkey(.toggle), .hotkey(.rotateRight)])
        #expect(await machine.collector.settle().filter { if case .hotkey = $0 { true } else { false } }.count == 2)
    }

    @Test func synDroppedSetsTheSwitchFromTheKernelState() async throws {
        // EVIOCGSW says tablet mode is on; the event that turned it off came before the drop.
        let device = FixtureCatalogue.tabletSwitch
        let machine = try EmulatedMachine([device])
        try machine.start(eventLoop: Self.loop)
        await machine.collector.wait { $0 == .tabletMode(true) }
        machine.testbed.switchState(device, Int32(SW_TABLET_MODE), on: false)
        await machine.collector.wait { $0 == .tabletMode(false) }
        machine.testbed.emit(device, frame: [(Int32(EV_SYN), Int32(SYN_DROPPED), 0), (Int32(EV_SYN), Int32(SYN_REPORT), 0)])
        #expect(await machine.collector.wait(for: 2) { $0 == .tabletMode(true) }.count == 2)
    }

    @Test func synDroppedHoldsAModifierTheKernelHolds() async throws {
        // The press of LEFTMETA was lost; EVIOCGKEY has it down. K alone then
        // completes LEFTMETA+K: toggle.
        var device = FixtureCatalogue.usbKeyboard
        device.keysDown = [Int(KEY_LEFTMETA)]
        let machine = try EmulatedMachine([device])
        try machine.start(eventLoop: Self.loop)
        machine.testbed.tap(device, [Int32(KEY_K)])  // before the drop: nothing held, nothing fires
        machine.testbed.emit(device, frame: [(Int32(EV_SYN), Int32(SYN_DROPPED), 0), (Int32(EV_SYN), Int32(SYN_REPORT), 0)])
        try await Self.afterTheResync()
        machine.testbed.key(device, Int32(KEY_K), 1)
        #expect(await machine.collector.wait { $0 == .hotkey(.toggle) }.count == 1)
        #expect(await machine.collector.settle().filter { if case .hotkey = $0 { true } else { false } }.count == 1)
    }

    @Test func synDroppedReleasesAModifierAndDropsWhatWasQueued() async throws {
        let device = FixtureCatalogue.usbKeyboard
        let machine = try EmulatedMachine([device])
        try machine.start(eventLoop: Self.loop)
        machine.testbed.key(device, Self.meta, 1)
        // In one read: the drop, then a K press that would complete LEFTMETA+K.
        // The K is stale (dropped unread), and EVIOCGKEY has no key down.
        machine.testbed.emit(
            device,
            frame: [
                (Int32(EV_SYN), Int32(SYN_DROPPED), 0), (Int32(EV_SYN), Int32(SYN_REPORT), 0),
                (Int32(EV_KEY), Int32(KEY_K), 1), (Int32(EV_SYN), Int32(SYN_REPORT), 0),
            ])
        try await Self.afterTheResync()
        machine.testbed.tap(device, [Int32(KEY_K)])  // LEFTMETA released by the resync: nothing
        machine.testbed.tap(device, [Self.meta, Int32(KEY_R)])
        // The later hotkey proves the K press was read.
        #expect(await machine.collector.wait { $0 == .hotkey(.rotateRight) }.count == 1)
        #expect(!machine.collector.events.contains(.hotkey(.toggle)))
    }

    @Test func aDeviceThatHangsUpIsRemovedAndTheOthersAreReadOn() async throws {
        let gone = FixtureCatalogue.usbKeyboard
        let stays = FixtureCatalogue.atKeyboard
        let machine = try EmulatedMachine([gone, stays])
        try machine.start(eventLoop: Self.loop)
        #expect(await machine.collector.wait(for: 2) { $0.isAttach }.count == 2)
        let before = Self.processCPUTime()
        machine.testbed.hangUp(gone)
        let detached = await machine.collector.wait { $0.isDetach }
        #expect(detached.map(\.syspath) == ["/sys" + gone.syspath])
        try await Task.sleep(for: .milliseconds(500))
        let used = Self.processCPUTime() - before
        // A loop spinning on the hung-up node would burn most of the 500 ms.
        #expect(used < .milliseconds(100), "the test process used \(used) of CPU after the hang-up")
        machine.testbed.tap(stays, [Self.meta, Int32(KEY_K)])
        #expect(await machine.collector.wait { $0 == .hotkey(.toggle) }.count == 1)
        #expect(await machine.collector.settle().filter(\.isDetach).count == 1)
        #expect(machine.monitor.devices.map(\.description.syspath) == ["/sys" + stays.syspath])
    }

    @Test func aDeviceRemovedByUdevIsReportedOnce() async throws {
        let device = FixtureCatalogue.usbKeyboard
        let machine = try EmulatedMachine([device])
        try machine.start(eventLoop: Self.loop)
        await machine.collector.wait { $0.isAttach }
        machine.testbed.remove(device)
        #expect(await machine.collector.wait { $0.isDetach }.count == 1)
        // The loop's channel closes after the reader removed the device; its
        // end is not a second removal.
        #expect(await machine.collector.settle(for: .milliseconds(300)).filter(\.isDetach).count == 1)
        #expect(machine.monitor.devices.isEmpty)
    }

    /// No event marks the moment the resync is done; 200 ms is thousands of times what it takes.
    private static func afterTheResync() async throws { try await Task.sleep(for: .milliseconds(200)) }

    private static func processCPUTime() -> Duration {
        var time = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
        return .seconds(time.tv_sec) + .nanoseconds(time.tv_nsec)
    }
}
}
