import InsetCore
import InsetProtocol
import Logging
import NIOConcurrencyHelpers
import NIOCore

/// The server's handle on one connected client: sends go through a bounded
/// queue drained only while the socket can take more, so a client that does
/// not read never makes anyone else wait.
package final class ClientConnection: Sendable {
    /// Everything that changes while the client is connected, in one value
    /// touched only on the channel's event loop.
    private struct State {
        var queue: OutboundQueue
        var closing = false
        /// Why insetd closed the connection (nil: it did not), for the disconnect log line.
        var closeReason: String?
        var flushScheduled = false
        /// What this loop task sent while nothing was queued, written as one
        /// buffer when the task ends (one trip through the pipeline, one iovec).
        var staged: ByteBuffer?
    }

    package let id: ClientID
    package let peer: SessionPeer
    /// The transport the client came by: it frames everything staged and
    /// queued here, and ends the connection its own way.
    let transport: SessionTransport
    let framing: SessionFraming
    let channel: any Channel
    private let logger: Logger
    private let state: NIOLoopBoundBox<State>
    private let pendingFlushes: PendingFlushes

    init(
        id: ClientID, peer: SessionPeer, transport: SessionTransport = .unixSocket, channel: any Channel, capacity: Int,
        pendingFlushes: PendingFlushes, logger: Logger
    ) {
        self.id = id
        self.peer = peer
        self.transport = transport
        framing = transport.framing
        self.channel = channel
        self.pendingFlushes = pendingFlushes
        self.logger = logger
        state = NIOLoopBoundBox(State(queue: OutboundQueue(capacity: capacity)), eventLoop: channel.eventLoop)
    }

    /// Why insetd closed the connection, nil when it did not. On the event loop only.
    var closeReason: String? {
        get { state.value.closeReason }
        set { state.value.closeReason = newValue }
    }

    /// False once the connection is closed or closing.
    package var isOpen: Bool { channel.isActive }

    /// Queues a message; an adjustment replaces an unsent one for the same view.
    package func send(_ message: DaemonMessage) {
        let view: String? = if case .adjustment(let view, _) = message { view } else { nil }
        send(framing.wire(message.lineBytes()), coalescingView: view)
    }

    /// Queues a message encoded and framed for this connection already: a
    /// broadcast is encoded once, framed once per framing (`SharedLine`), and
    /// that buffer shared by every client, not copied per client.
    package func send(framed bytes: ByteBuffer) {
        send(bytes, coalescingView: nil)
    }

    private func send(_ bytes: ByteBuffer, coalescingView view: String?) {
        // The daemon's core runs on this event loop: no task hop per client.
        if channel.eventLoop.inEventLoop {
            enqueue(bytes, view: view)
        } else {
            channel.eventLoop.execute { self.enqueue(bytes, view: view) }
        }
    }

    /// Sends a last message, then closes the connection the transport's way
    /// (`SessionTransport.finish`: never waiting long on a peer that does not
    /// read). `code` is a WebSocket's close code.
    package func close(after message: DaemonMessage? = nil, code: UInt16 = 1000) {
        let bytes = message.map { framing.wire($0.lineBytes()) }
        channel.eventLoop.execute {
            guard !self.state.value.closing else { return }
            self.state.value.closing = true
            switch message {
            case .error(let error): self.state.value.closeReason = error.code.rawValue
            case .bye(let reason): self.state.value.closeReason = reason
            default: self.state.value.closeReason = "closed by insetd"
            }
            self.transport.finish(self.channel, last: bytes, code: code)
        }
    }

    /// Most that one loop task stages for a client; beyond, messages wait in
    /// the bounded queue (so a task sending a client many messages cannot grow
    /// memory past the queue's bound).
    static let stagingLimit = 64 * 1024

    private func enqueue(_ bytes: ByteBuffer, view: String?) {
        guard !state.value.closing else { return }
        // Nothing waiting and room in the socket: out with this task's write.
        if state.value.queue.isEmpty, channel.isWritable, (state.value.staged?.readableBytes ?? 0) < Self.stagingLimit {
            // A broadcast's buffer is shared until a second message joins it.
            if state.value.staged == nil { state.value.staged = bytes } else { state.value.staged!.writeImmutableBuffer(bytes) }
            return scheduleFlush()
        }
        guard state.value.queue.enqueue(bytes, coalescingView: view) else {
            logger.warning(
                "client dropped: it does not read its messages",
                metadata: ["client": "\(id)", "peer": "\(peer)", "queued": "\(state.value.queue.count)"])
            close(after: .error(ProtocolError(.tooSlow, "too many unread messages (\(state.value.queue.capacity)); disconnecting")))
            return
        }
        scheduleFlush()
    }

    /// Writes queued messages while the socket accepts them (it has drained).
    func drain() {
        if writeQueued() { scheduleFlush() }
    }

    private func writeQueued() -> Bool {
        guard !state.value.closing else { return false }
        var wrote = false
        while channel.isWritable, let bytes = state.value.queue.dequeue() {
            channel.write(bytes, promise: nil)
            wrote = true
        }
        return wrote
    }

    /// Flushes once the current event-loop task is done, so everything one core
    /// step sends this client (a keyboard notification and its adjustment)
    /// leaves in one write(2).
    private func scheduleFlush() {
        guard !state.value.flushScheduled else { return }
        state.value.flushScheduled = true
        pendingFlushes.add(self)
    }

    /// `PendingFlushes`' end of the loop task: what was staged, then what the
    /// queue holds while the socket takes it.
    func flush() {
        state.value.flushScheduled = false
        guard !state.value.closing else { return }
        if let bytes = state.value.staged {
            state.value.staged = nil
            channel.write(bytes, promise: nil)
        }
        _ = writeQueued()
        channel.flush()
    }
}
