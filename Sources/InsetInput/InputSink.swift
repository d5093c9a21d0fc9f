import CLibevdev
import Glibc
import Synchronization

/// Where the reader thread and the event loop's device readers
/// (`EvdevLoopReader`) both report: the monitor's `emit`, the combined tablet
/// mode (switches are read on either side), and the devices a loop reader saw
/// end (hang-up, read error), which only the reader thread may remove.
final class InputSink: Sendable {
    let emit: @Sendable (InputEvent) -> Void
    private let tablet = Mutex(TabletModeTracker())
    private let ended = Mutex<[(token: UInt64, why: String)]>([])
    /// Written when `ended` grows; the reader thread's epoll watches it.
    let endedSignal: Int32

    init(emit: @escaping @Sendable (InputEvent) -> Void) throws(InputSystemError) {
        self.emit = emit
        endedSignal = eventfd(0, Int32(EFD_CLOEXEC | EFD_NONBLOCK))
        guard endedSignal >= 0 else { throw InputSystemError("eventfd", errno: errno) }
    }

    deinit { close(endedSignal) }

    /// Records a device's switch; the combined state, when it changes, is
    /// emitted under the lock, so two sides' changes are emitted in the order
    /// they were combined.
    func setTabletMode(_ on: Bool, for syspath: String) {
        tablet.withLock { if let combined = $0.set(on, for: syspath) { emit(.tabletMode(combined)) } }
    }

    func forgetTabletSwitch(of syspath: String) {
        tablet.withLock { if let combined = $0.remove(syspath) { emit(.tabletMode(combined)) } }
    }

    /// From the event loop: the device read under `token` has ended.
    func deviceEnded(token: UInt64, why: String) {
        ended.withLock { $0.append((token, why)) }
        var one: UInt64 = 1
        _ = write(endedSignal, &one, MemoryLayout<UInt64>.size)
    }

    /// On the reader thread: the devices that ended since the last call.
    func takeEnded() -> [(token: UInt64, why: String)] {
        var count: UInt64 = 0
        _ = read(endedSignal, &count, MemoryLayout<UInt64>.size)
        return ended.withLock { list in
            defer { list.removeAll() }
            return list
        }
    }
}
