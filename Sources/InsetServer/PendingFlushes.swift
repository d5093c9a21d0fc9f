import NIOCore

/// The connections of one event loop that wrote during the current loop task,
/// flushed together once the task is done.
///
/// Why: a keyboard change writes to every client in one task; flushing each at
/// once would split a client's notification and adjustment into two write(2)s,
/// and scheduling one flush task per client cost a closure and a task-queue
/// entry each (1000 per change with 1000 clients). One task flushes them all.
final class PendingFlushes: Sendable {
    private let eventLoop: any EventLoop
    // Touched only on `eventLoop`.
    private let connections: NIOLoopBoundBox<[ClientConnection]>

    init(eventLoop: any EventLoop) {
        self.eventLoop = eventLoop
        connections = NIOLoopBoundBox([], eventLoop: eventLoop)
    }

    /// Flushes `connection` at the end of this loop task. Call on the event
    /// loop, once per task (the connection keeps track).
    func add(_ connection: ClientConnection) {
        if connections.value.isEmpty { eventLoop.execute { self.flushAll() } }
        connections.value.append(connection)
    }

    private func flushAll() {
        let waiting = connections.value
        connections.value = []
        for connection in waiting { connection.flush() }
    }
}
