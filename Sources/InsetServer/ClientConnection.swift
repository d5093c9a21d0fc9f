import InsetCore
import InsetProtocol
import Logging
import NIOConcurrencyHelpers
import NIOCore

/// The server's handle on one connected client: sends go through a bounded
/// queue drained only while the socket can take more, so a client that does
/// not read never makes anyone else wait. All queue state lives on the
/// channel's event loop.
package final class ClientConnection: Sendable {
    package let id: ClientID
    package let peer: PeerCredentials
    /// How this connection's messages go on the wire: everything staged and
    /// queued here is framed already.
    let framing: SessionFraming
    let channel: any Channel
    private let logger: Logger
    // Touched only on `channel.eventLoop`.
    private let queue: NIOLoopBoundBox<OutboundQueue>
    private let closing: NIOLoopBoundBox<Bool>
    /// Why insetd closed the connection (nil: it did not), for the disconnect log line.
    let closeReason: NIOLoopBoundBox<String?>
    private let flushScheduled: NIOLoopBoundBox<Bool>
    /// What this loop task sent while nothing was queued, written as one buffer
    /// when the task ends (one trip through the channel pipeline, one iovec).
    private let staged: NIOLoopBoundBox<ByteBuffer?>
    private let pendingFlushes: PendingFlushes

    init(
        id: ClientID, peer: PeerCredentials, framing: SessionFraming = .lines, channel: any Channel, capacity: Int,
        pendingFlushes: PendingFlushes, logger: Logger
    ) {
        self.id = id
        self.peer = peer
        self.framing = framing
        self.channel = channel
        self.pendingFlushes = pendingFlushes
        self.logger = logger
        queue = NIOLoopBoundBox(OutboundQueue(capacity: capacity), eventLoop: channel.eventLoop)
        closing = NIOLoopBoundBox(false, eventLoop: channel.eventLoop)
        closeReason = NIOLoopBoundBox(nil, eventLoop: channel.eventLoop)
        flushScheduled = NIOLoopBoundBox(false, eventLoop: channel.eventLoop)
        staged = NIOLoopBoundBox(nil, eventLoop: channel.eventLoop)
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

    /// Sends a last message, then closes the connection. The close never waits
    /// on the peer for long: a client that does not read gets 250 ms.
    package func close(after message: DaemonMessage? = nil) {
        let bytes = message.map { framing.wire($0.lineBytes()) }
        channel.eventLoop.execute {
            guard !self.closing.value else { return }
            self.closing.value = true
            switch message {
            case .error(let error): self.closeReason.value = error.code.rawValue
            case .bye(let reason): self.closeReason.value = reason
            default: self.closeReason.value = "closed by insetd"
            }
            let forced = self.channel.eventLoop.scheduleTask(in: .milliseconds(250)) {
                self.channel.close(promise: nil)
            }
            guard let bytes else {
                forced.cancel()
                self.channel.close(promise: nil)
                return
            }
            self.channel.writeAndFlush(bytes).whenComplete { _ in
                forced.cancel()
                self.channel.close(promise: nil)
            }
        }
    }

    /// Most that one loop task stages for a client; beyond, messages wait in
    /// the bounded queue (so a task sending a client many messages cannot grow
    /// memory past the queue's bound).
    static let stagingLimit = 64 * 1024

    private func enqueue(_ bytes: ByteBuffer, view: String?) {
        guard !closing.value else { return }
        // Nothing waiting and room in the socket: out with this task's write.
        if queue.value.isEmpty, channel.isWritable, (staged.value?.readableBytes ?? 0) < Self.stagingLimit {
            // A broadcast's buffer is shared until a second message joins it.
            if staged.value == nil { staged.value = bytes } else { staged.value!.writeImmutableBuffer(bytes) }
            return scheduleFlush()
        }
        guard queue.value.enqueue(bytes, coalescingView: view) else {
            logger.warning(
                "client dropped: it does not read its messages",
                metadata: ["client": "\(id)", "peer": "\(peer)", "queued": "\(queue.value.count)"])
            close(after: .error(ProtocolError(.tooSlow, "too many unread messages (\(queue.value.capacity)); disconnecting")))
            return
        }
        scheduleFlush()
    }

    /// Writes queued messages while the socket accepts them (it has drained).
    func drain() {
        if writeQueued() { scheduleFlush() }
    }

    private func writeQueued() -> Bool {
        guard !closing.value else { return false }
        var wrote = false
        while channel.isWritable, let bytes = queue.value.dequeue() {
            channel.write(bytes, promise: nil)
            wrote = true
        }
        return wrote
    }

    /// Flushes once the current event-loop task is done, so everything one core
    /// step sends this client (a keyboard notification and its adjustment)
    /// leaves in one write(2).
    private func scheduleFlush() {
        guard !flushScheduled.value else { return }
        flushScheduled.value = true
        pendingFlushes.add(self)
    }

    /// `PendingFlushes`' end of the loop task: what was staged, then what the
    /// queue holds while the socket takes it.
    func flush() {
        flushScheduled.value = false
        guard !closing.value else { return }
        if let bytes = staged.value {
            staged.value = nil
            channel.write(bytes, promise: nil)
        }
        _ = writeQueued()
        channel.flush()
    }
}
