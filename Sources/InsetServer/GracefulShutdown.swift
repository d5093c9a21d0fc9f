import NIOConcurrencyHelpers

/// A part of the daemon that runs until it is asked to stop (the socket
/// server, the core, the WebSocket listener); `ServiceGroup` runs them together.
package protocol Service: Sendable {
    func run() async throws
}

/// Returns once the calling service is asked to stop gracefully (at once if it
/// already was); throws `CancellationError` if its task is cancelled first.
/// Outside a `ServiceGroup` only cancellation ends it.
package func gracefulShutdown() async throws {
    let waiter = ShutdownWaiter()
    let signal = GracefulShutdownSignal.current
    let handler = signal?.add { waiter.finish(.shutdown) }
    defer { if let handler { signal?.remove(handler) } }
    let outcome = await withTaskCancellationHandler { await waiter.wait() } onCancel: { waiter.finish(.cancelled) }
    if outcome == .cancelled { throw CancellationError() }
}

/// Runs `operation`; `handler` runs once when the calling service is asked to
/// stop gracefully, at once if it already was (outside a `ServiceGroup`, never).
package func withGracefulShutdownHandler<T>(
    isolation: isolated (any Actor)? = #isolation,
    operation: () async throws -> T,
    onGracefulShutdown handler: @Sendable @escaping () -> Void
) async rethrows -> T {
    guard let signal = GracefulShutdownSignal.current else { return try await operation() }
    let id = signal.add(handler)
    defer { if let id { signal.remove(id) } }
    return try await operation()
}

/// One service's request to stop: set once by its `ServiceGroup`, seen by the
/// handlers registered before and after it (a late one runs at once, so a stop
/// asked for during start-up is not lost).
final class GracefulShutdownSignal: Sendable {
    /// The signal of the service the current task runs in.
    @TaskLocal static var current: GracefulShutdownSignal?

    private struct State {
        var triggered = false
        var nextID = 0
        var handlers: [Int: @Sendable () -> Void] = [:]
    }
    private let state = NIOLockedValueBox(State())

    /// Runs every registered handler once, in the order they were added.
    func trigger() {
        let handlers = state.withLockedValue { state -> [@Sendable () -> Void] in
            guard !state.triggered else { return [] }
            state.triggered = true
            defer { state.handlers = [:] }
            return state.handlers.sorted { $0.key < $1.key }.map(\.value)
        }
        for handler in handlers { handler() }
    }

    /// Registers `handler`, or runs it now if the stop was already asked for (then nil).
    func add(_ handler: @escaping @Sendable () -> Void) -> Int? {
        let id = state.withLockedValue { state -> Int? in
            guard !state.triggered else { return nil }
            state.nextID += 1
            state.handlers[state.nextID] = handler
            return state.nextID
        }
        if id == nil { handler() }
        return id
    }

    func remove(_ id: Int) {
        state.withLockedValue { _ = $0.handlers.removeValue(forKey: id) }
    }
}

/// One wait that ends once, by a stop or by cancellation, whichever comes first
/// (also when it comes before the wait starts).
private final class ShutdownWaiter: Sendable {
    enum Outcome: Sendable { case shutdown, cancelled }
    private enum State {
        case idle
        case waiting(CheckedContinuation<Outcome, Never>)
        case finished(Outcome)
    }
    private let state = NIOLockedValueBox(State.idle)

    func wait() async -> Outcome {
        await withCheckedContinuation { continuation in
            let ready = state.withLockedValue { state -> Outcome? in
                if case .finished(let outcome) = state { return outcome }
                state = .waiting(continuation)
                return nil
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }

    func finish(_ outcome: Outcome) {
        let waiting = state.withLockedValue { state -> CheckedContinuation<Outcome, Never>? in
            switch state {
            case .idle:
                state = .finished(outcome)
                return nil
            case .waiting(let continuation):
                state = .finished(outcome)
                return continuation
            case .finished:
                return nil
            }
        }
        waiting?.resume(returning: outcome)
    }
}
