import CLibevdev
import Glibc
import Synchronization

/// Tells a reader thread that is stuck from one that is merely idle, for
/// systemd's watchdog. The reader sleeps in `epoll_wait` with no timeout, so
/// silence proves nothing; instead the watchdog asks (a counter and an eventfd
/// write that wakes the reader) and the reader answers from its loop. A
/// request still unanswered at the next check means the thread has not come
/// back to its loop for a whole watchdog period: blocked in a call, or gone.
///
/// Each check costs the reader one wakeup, once per watchdog period; without a
/// watchdog nothing asks and an idle reader never wakes.
final class ReaderHeartbeat: Sendable {
    private let requested = Atomic<UInt64>(0)
    private let answered = Atomic<UInt64>(0)
    /// The eventfd the reader watches; written for every request.
    let fileDescriptor: Int32

    init() {
        fileDescriptor = eventfd(0, Int32(EFD_CLOEXEC | EFD_NONBLOCK))
    }

    deinit { close(fileDescriptor) }

    /// Whether every earlier request has been answered; then makes a new one.
    /// The first call has nothing outstanding and is true.
    func check() -> Bool {
        let alive = answered.load(ordering: .acquiring) >= requested.load(ordering: .acquiring)
        requested.add(1, ordering: .acquiringAndReleasing)
        var one: UInt64 = 1
        _ = write(fileDescriptor, &one, MemoryLayout<UInt64>.size)
        return alive
    }

    /// The reader thread, back in its loop: drains the eventfd and answers
    /// every request made so far.
    func answer() {
        var count: UInt64 = 0
        _ = read(fileDescriptor, &count, MemoryLayout<UInt64>.size)
        answered.store(requested.load(ordering: .acquiring), ordering: .releasing)
    }
}
