import Foundation
import InsetInput
import Synchronization

/// Collects a monitor's events on a background task so a test can wait for the
/// ones it expects, with a deadline (never an open-ended wait).
final class EventCollector: Sendable {
    private final class Storage: Sendable {
        let events = Mutex<[InputEvent]>([])
    }

    private let storage = Storage()
    private let task: Task<Void, Never>

    init(_ stream: AsyncStream<InputEvent>) {
        let storage = self.storage
        task = Task {
            for await event in stream { storage.events.withLock { $0.append(event) } }
        }
    }

    deinit { task.cancel() }

    var events: [InputEvent] { storage.events.withLock { $0 } }

    /// Waits until `count` events satisfy `predicate`, up to `timeout`; returns
    /// the matching events (fewer if the deadline passed).
    @discardableResult
    func wait(
        for count: Int = 1, timeout: Duration = .seconds(5), _ predicate: @escaping (InputEvent) -> Bool
    ) async -> [InputEvent] {
        let deadline = ContinuousClock.now + timeout
        while true {
            let matching = events.filter(predicate)
            if matching.count >= count || ContinuousClock.now >= deadline { return matching }
            try? await Task.sleep(for: .milliseconds(5))
        }
    }

    /// Waits a short while for events that must *not* come, then returns all
    /// events received so far.
    func settle(for duration: Duration = .milliseconds(150)) async -> [InputEvent] {
        try? await Task.sleep(for: duration)
        return events
    }
}
