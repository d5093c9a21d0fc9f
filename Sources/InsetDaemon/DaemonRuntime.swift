import CConcurrencyHook
import Glibc
import NIOCore
import NIOPosix

/// Where insetd's code runs: one NIO event loop thread serves the socket and
/// runs every Swift task, and its timers are the event loop's.
///
/// Why: on Linux, Swift's default global executor is libdispatch's worker pool.
/// Every event then crosses threads twice (input thread → pool → the socket's
/// event loop), and once any pool worker exists, libdispatch arms a 1 s timer
/// that monitors the pool for as long as the process lives: 30 wakeups in 30 s
/// of idleness. With the event loop as the global executor, the core writes to
/// client sockets on the thread that owns them and an idle daemon sleeps.
package enum DaemonRuntime {
    /// Makes NIO's singleton event loop group (one thread) Swift's global
    /// executor. Call it first in `main`, before any task exists; false when
    /// another hook is already installed (the daemon then runs on it, or on
    /// libdispatch, correctly but with the costs above).
    ///
    /// This is NIO's `unsafeTryInstallSingletonPosixEventLoopGroupAsConcurrencyGlobalExecutor`
    /// with the hook reached by name (`CConcurrencyHook`) instead of `dlsym`,
    /// which finds nothing in an executable linked with `--static-swift-stdlib`
    /// (there NIO's take-over returns false, and libdispatch's workers run).
    @discardableResult
    package static func takeOverConcurrency() -> Bool {
        NIOSingletons.groupLoopCountSuggestion = 1
        // The runtime's hook type (ConcurrencyHooks.def), as NIO assumes it too.
        typealias EnqueueGlobalHook = @convention(thin) (UnownedJob, @convention(thin) (UnownedJob) -> Void) -> Void
        let slot = insetd_swift_task_enqueueGlobal_hook()
        guard slot.pointee == nil else { return false }
        let hook: EnqueueGlobalHook = { job, _ in
            MultiThreadedEventLoopGroup.singleton.any().executor.enqueue(ExecutorJob(job))
        }
        slot.pointee = unsafeBitCast(hook, to: UnsafeMutableRawPointer.self)
        return true
    }

    /// Parks the calling (main) thread for good, without libdispatch:
    /// `dispatchMain()` would hand the main queue to a dispatch worker as the
    /// main thread exits. Signal handlers may run on it (`SignalPipe`).
    package static func parkMainThread() -> Never {
        while true { pause() }
    }

    /// The event loop group the server and the timers use.
    static var group: any EventLoopGroup { MultiThreadedEventLoopGroup.singleton }

    /// `Task.sleep(until:)` on the event loop's timer. Swift's own sleep is a
    /// libdispatch timer that resumes on a libdispatch worker, which would bring
    /// the pool (and its 1 s monitor) back. Throws `CancellationError` when the
    /// task is cancelled.
    static func sleep(until deadline: ContinuousClock.Instant) async throws {
        let delay = ContinuousClock.now.duration(to: deadline)
        let (seconds, attoseconds) = delay.components
        let nanoseconds = max(0, seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
        let scheduled = group.any().scheduleTask(in: .nanoseconds(nanoseconds)) {}
        do {
            try await withTaskCancellationHandler {
                try await scheduled.futureResult.get()
            } onCancel: {
                scheduled.cancel()
            }
        } catch {
            throw CancellationError()
        }
    }

    static func sleep(for duration: Duration) async throws {
        try await sleep(until: .now + duration)
    }
}
