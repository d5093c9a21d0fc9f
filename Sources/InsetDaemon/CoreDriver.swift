import InsetCore
import InsetInput
import NIOCore
import Synchronization

/// Feeds `DaemonCore` its events one at a time, in order, and keeps the
/// pipeline's one timer.
///
/// Why: every event reaches the core through one stream, consumed by one task
/// on the event loop. Input that is read on the event loop itself (a hotkey
/// from `EvdevLoopReader`) would then wait for that task to be resumed after
/// the loop's I/O; it is handled in place instead when nothing is queued ahead
/// of it, so the order the core sees is the stream's (docs/PERFORMANCE.md,
/// stop 48).
///
/// `@unchecked Sendable`: `loopCore`, `timer` and `scheduled` are used by the
/// consumer and by in-place handling, both on the event loop under
/// `DaemonRuntime` (where the consumer runs elsewhere, nothing is handled in
/// place, and the consumer alone uses them); `queued` is atomic.
final class CoreDriver: @unchecked Sendable {
    private let eventLoop: any EventLoop
    private let continuation: AsyncStream<CoreEvent>.Continuation
    private let started: ContinuousClock.Instant
    /// Events yielded and not yet taken by the consumer.
    private let queued = Atomic<Int>(0)
    /// The core while its consumer runs on `eventLoop`.
    private var loopCore: DaemonCore?
    /// The pipeline's next tick, on the event loop's timer: cancelling and
    /// arming one is a heap entry, where a sleeping task was a task created
    /// and a task cancelled with every event that moved the deadline.
    private var timer: Scheduled<Void>?
    private var scheduled: ContinuousClock.Instant?

    init(eventLoop: any EventLoop, continuation: AsyncStream<CoreEvent>.Continuation, started: ContinuousClock.Instant) {
        self.eventLoop = eventLoop
        self.continuation = continuation
        self.started = started
    }

    /// Queues an event for the consumer, from any thread.
    func enqueue(_ event: CoreEvent) {
        queued.add(1, ordering: .relaxed)
        continuation.yield(event)
    }

    /// The input monitor's delivery, on its reader thread or on the event loop.
    func deliver(_ input: InputEvent) {
        if eventLoop.inEventLoop, let core = loopCore, queued.load(ordering: .relaxed) == 0 {
            handle(.input(input), core)
        } else {
            enqueue(.input(input))
        }
    }

    /// The consumer: hands every queued event to `core` until the stream finishes.
    func run(_ core: DaemonCore, events: AsyncStream<CoreEvent>) async {
        let onLoop = eventLoop.inEventLoop
        if onLoop { loopCore = core }
        for await event in events {
            queued.subtract(1, ordering: .relaxed)
            handle(event, core)
        }
        if onLoop { loopCore = nil }
        timer?.cancel()
    }

    private func handle(_ event: CoreEvent, _ core: DaemonCore) {
        core.handle(event)
        let wake = core.nextDeadline.map { started + .nanoseconds($0.nanoseconds) }
        guard wake != scheduled else { return }
        timer?.cancel()
        scheduled = wake
        timer = wake.map { wake in
            let (seconds, attoseconds) = ContinuousClock.now.duration(to: wake).components
            let nanoseconds = max(0, seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
            return eventLoop.scheduleTask(in: .nanoseconds(nanoseconds)) { self.enqueue(.tick) }
        }
    }
}
