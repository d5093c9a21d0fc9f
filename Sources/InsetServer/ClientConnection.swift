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
        var closing = false
        /// The descriptor is still this connection's: set while the channel is
        /// active, cleared when it goes inactive and by any write NIO fails (it
        /// fails a channel's writes as it closes it, before telling the handlers).
        /// Kept here because asking the channel costs a cache miss per client
        /// at a keyboard change.
        var descriptorOpen = false
        var flushScheduled = false
        /// The channel has writes not yet flushed (`flush()` flushes them).
        var unflushed = false
        /// Writes handed to the channel and not yet done. While there are any,
        /// nothing is sent on the descriptor: it would overtake them.
        var heldByChannel = 0
        /// What this loop task sent while nothing was queued, written as one
        /// buffer when the task ends (one trip through the pipeline, one iovec).
        var staged: ByteBuffer?
        var queue: OutboundQueue
        /// The last task's buffer once written, kept to stage the next task's
        /// messages in: a keyboard change then allocates nothing per client
        /// (a thousand allocations and frees a change made the allocator grow
        /// and trim its heap, page faults included, every change).
        var spare: ByteBuffer?
        /// Why insetd closed the connection (nil: it did not), for the disconnect log line.
        var closeReason: String?
    }

    // What a keyboard change reads of every client comes first: the object's
    // first cache lines.
    package let id: ClientID
    let framing: SessionFraming
    /// The connection's descriptor when insetd accepted it (the Unix socket):
    /// staged bytes are sent on it directly. Nil: everything goes through NIO.
    private let socket: ConnectedSocket?
    /// The channel's event loop, kept here: a send asks it whether it runs the
    /// caller, and asking the channel costs a cache miss per client at a
    /// keyboard change (the channel is a large object the change does not touch).
    private let eventLoop: any EventLoop
    /// Touched only on `eventLoop`, kept in the object itself: a box of its
    /// own would be one more cache miss per client at a keyboard change. The
    /// hot path (`state`) asserts the loop in debug builds; the entry points
    /// the pass does not take check it in every build.
    nonisolated(unsafe) private var loopState: State
    package let peer: SessionPeer
    /// The transport the client came by: it frames everything staged and
    /// queued here, and ends the connection its own way.
    let transport: any SessionTransport
    let channel: any Channel
    private let logger: Logger
    private let pendingFlushes: PendingFlushes

    /// The connection's state, on its event loop.
    private var state: State {
        _read {
            assert(eventLoop.inEventLoop)
            yield loopState
        }
        _modify {
            assert(eventLoop.inEventLoop)
            yield &loopState
        }
    }

    init(
        id: ClientID, peer: SessionPeer, transport: any SessionTransport, channel: any Channel,
        socket: ConnectedSocket?, capacity: Int, pendingFlushes: PendingFlushes, logger: Logger
    ) {
        self.id = id
        self.peer = peer
        self.transport = transport
        framing = transport.framing
        self.channel = channel
        eventLoop = channel.eventLoop
        self.socket = socket
        self.pendingFlushes = pendingFlushes
        self.logger = logger
        loopState = State(queue: OutboundQueue(capacity: capacity))
        loopState.descriptorOpen = socket != nil && channel.isActive
    }

    /// Why insetd closed the connection, nil when it did not. On the event loop only.
    var closeReason: String? {
        get {
            eventLoop.preconditionInEventLoop()
            return state.closeReason
        }
        set {
            eventLoop.preconditionInEventLoop()
            state.closeReason = newValue
        }
    }

    /// False once the connection is closed or closing.
    package var isOpen: Bool { channel.isActive }

    /// Queues a message; an adjustment replaces an unsent one for the same view.
    package func send(_ message: DaemonMessage) {
        let view: String? = if case .adjustment(let view, _) = message { view } else { nil }
        send(.message(message), coalescingView: view)
    }

    /// Queues a message encoded and framed for this connection already: a
    /// broadcast is encoded once, framed once per framing (`SharedLine`), and
    /// that buffer shared by every client, not copied per client. `view`: the
    /// view an adjustment is for (it replaces an unsent one for the same view).
    func send(framed bytes: ByteBuffer, coalescingView view: String? = nil) {
        send(.framed(bytes), coalescingView: view)
    }

    /// Part of a pass over the clients that sends each everything the current
    /// task has for it (a keyboard change's notifications and the client's
    /// adjustments): staged, and written by `endPass()` instead of at the
    /// task's end. The pass has this connection's objects in the CPU's caches;
    /// writing at the task's end would bring them back in, for each of a
    /// thousand clients. Off the event loop, the same as `send(framed:)`.
    func sendInPass(framed bytes: ByteBuffer, coalescingView view: String? = nil) {
        guard eventLoop.inEventLoop else { return send(.framed(bytes), coalescingView: view) }
        enqueue(.framed(bytes), view: view, schedulingFlush: false)
    }

    /// Sends the bytes `shared` makes, framed for this connection and shared
    /// with other clients, on the descriptor now, when nothing of the
    /// connection's is waiting to go before them (staged, queued or held by
    /// the channel). `shared` is called only then, and may decline (nil).
    /// False when nothing was sent: the caller sends as usual.
    func sendAtOnce(shared: () -> ByteBuffer?) -> Bool {
        guard socket != nil, eventLoop.inEventLoop else { return false }
        let idle = !state.closing && state.descriptorOpen && state.heldByChannel == 0
            && state.staged == nil && state.queue.isEmpty
        guard idle, let bytes = shared() else { return false }
        transmit(bytes, flush: true)
        return true
    }

    /// Writes what `sendInPass` staged (and anything staged before it in this
    /// task, which goes first). Off the event loop, nothing: those sends were
    /// scheduled as any other.
    func endPass() {
        guard eventLoop.inEventLoop else { return }
        writeStaged()
    }

    /// A message on its way to the connection: a client's own message is
    /// encoded and framed where it is staged (straight into the loop task's
    /// buffer), a shared one comes framed.
    private enum Outgoing {
        case message(DaemonMessage)
        case framed(ByteBuffer)
    }

    private func send(_ message: Outgoing, coalescingView view: String?) {
        // The daemon's core runs on this event loop: no task hop per client.
        if eventLoop.inEventLoop {
            enqueue(message, view: view)
        } else {
            // Encoded by the sender's thread, not the loop: a sender off the
            // loop that sends much at once does not lengthen every client's wait.
            let framed: Outgoing = if case .message(let message) = message { .framed(framing.wire(message)) } else { message }
            eventLoop.execute { self.enqueue(framed, view: view) }
        }
    }

    /// Sends a last message, then closes the connection the transport's way
    /// (its `SessionTransport`'s `finish`: never waiting long on a peer that does not
    /// read). `code` is a WebSocket's close code.
    package func close(after message: DaemonMessage? = nil, code: UInt16 = 1000) {
        let bytes = message.map(framing.wire)
        eventLoop.execute {
            guard !self.state.closing else { return }
            self.state.closing = true
            switch message {
            case .error(let error): self.state.closeReason = error.code.rawValue
            case .bye(let reason): self.state.closeReason = reason
            default: self.state.closeReason = "closed by insetd"
            }
            self.transport.finish(self.channel, last: bytes, code: code)
        }
    }

    /// Ends the connection the transport's way from its own handler, on the
    /// event loop (the peer closed, or broke the protocol): nothing the
    /// session sends afterwards is written.
    func finish(code: UInt16) {
        eventLoop.preconditionInEventLoop()
        state.closing = true
        transport.finish(channel, last: nil, code: code)
    }

    /// The channel became active (its session handler was there before):
    /// its descriptor is open. On the event loop.
    func channelBecameActive() {
        eventLoop.preconditionInEventLoop()
        state.descriptorOpen = socket != nil
    }

    /// The channel closed: its descriptor's number may already be another
    /// connection's. On the event loop, from the session's handler.
    func channelBecameInactive() {
        eventLoop.preconditionInEventLoop()
        state.descriptorOpen = false
    }

    /// Writes a frame the transport answers on its own (a WebSocket's pong),
    /// on the event loop, ahead of the bounded queue: on the descriptor when
    /// the channel holds none of the connection's bytes, behind them otherwise.
    func sendControl(_ frame: ByteBuffer) {
        // Asked here, not of `descriptorOpen`: a frame decoder hands on its last
        // frames (a ping among them) as the channel closes, before the session's
        // handler hears that it did.
        eventLoop.preconditionInEventLoop()
        guard !state.closing, channel.isActive else { return }
        transmit(frame, flush: true)
    }

    /// Most that one loop task stages for a client; beyond, messages wait in
    /// the bounded queue (so a task sending a client many messages cannot grow
    /// memory past the queue's bound).
    static let stagingLimit = 64 * 1024

    /// `schedulingFlush`: false when the caller flushes (`endPass`).
    private func enqueue(_ message: Outgoing, view: String?, schedulingFlush: Bool = true) {
        guard !state.closing else { return }
        // Nothing waiting and room in the socket: out with this task's write.
        if state.queue.isEmpty, channelTakesMore, (state.staged?.readableBytes ?? 0) < Self.stagingLimit {
            Self.stage(message, in: &state, framing: framing)
            if schedulingFlush { scheduleFlush() }
            return
        }
        let bytes = switch message {
        case .message(let message): framing.wire(message)
        case .framed(let bytes): bytes
        }
        guard state.queue.enqueue(bytes, coalescingView: view) else {
            logger.warning(
                "client dropped: it does not read its messages",
                metadata: ["client": "\(id)", "peer": "\(peer)", "queued": "\(state.queue.count)"])
            close(after: .error(ProtocolError(.tooSlow, "too many unread messages (\(state.queue.capacity)); disconnecting")))
            return
        }
        if schedulingFlush { scheduleFlush() }
    }

    /// Adds `message` to the loop task's buffer: the connection's own,
    /// reused from task to task; a broadcast's shared bytes are copied in.
    private static func stage(_ message: Outgoing, in state: inout State, framing: SessionFraming) {
        let startsTask = state.staged == nil
        // Taken, not copied: a buffer referenced twice would copy itself on
        // the first write (a copy and a free per client, each change).
        var buffer = state.staged.take() ?? state.spare.take() ?? ByteBuffer()
        if startsTask { buffer.clear() }  // the spare holds an earlier task's bytes, all sent
        switch message {
        case .framed(let bytes):
            buffer.writeImmutableBuffer(bytes)
        case .message(let message):
            framing.append(message, to: &buffer)
        }
        state.staged = buffer
    }

    /// Largest staging buffer kept for the next task; a larger one (a client
    /// that was sent much at once) is let go.
    static let spareLimit = 4096

    /// Whether the channel is below its high-water mark. A channel that holds
    /// none of the connection's bytes is, so with a descriptor the channel is
    /// asked only when it holds some (asking costs a cache miss or two per
    /// client, for each of a thousand clients at a keyboard change).
    private var channelTakesMore: Bool {
        (socket != nil && state.heldByChannel == 0) || channel.isWritable
    }

    /// Writes queued messages while the socket accepts them (it has drained).
    func drain() {
        eventLoop.preconditionInEventLoop()
        guard channel.isActive else { return }
        if writeQueued() { scheduleFlush() }
    }

    /// Writes queued messages while the channel takes more; true when it wrote any.
    private func writeQueued() -> Bool {
        guard !state.closing else { return false }
        var wrote = false
        while channelTakesMore, let bytes = state.queue.dequeue() {
            transmit(bytes, flush: false)
            wrote = true
        }
        return wrote
    }

    /// Sends `bytes` on the descriptor when the connection has one and the
    /// channel holds nothing that would come before them; the channel gets
    /// whatever the socket does not take (it waits until the socket has room).
    /// `flush`: flush the channel along (else `flush()` does, at the task's end).
    private func transmit(_ bytes: ByteBuffer, flush: Bool) {
        var rest = bytes
        var written: EventLoopPromise<Void>?
        if let socket {
            if state.heldByChannel == 0, state.descriptorOpen {
                let sent = socket.send(rest)
                if sent == rest.readableBytes { return }
                rest.moveReaderIndex(forwardBy: sent)
            }
            state.heldByChannel += 1
            written = eventLoop.makePromise(of: Void.self)
            written!.futureResult.whenComplete { result in
                self.state.heldByChannel -= 1
                if case .failure = result { self.state.descriptorOpen = false }
            }
        }
        if flush {
            state.unflushed = false
            channel.writeAndFlush(rest, promise: written)
        } else {
            state.unflushed = true
            channel.write(rest, promise: written)
        }
    }

    /// Flushes once the current event-loop task is done, so everything one core
    /// step sends this client (a keyboard notification and its adjustment)
    /// leaves in one write(2).
    private func scheduleFlush() {
        guard !state.flushScheduled else { return }
        state.flushScheduled = true
        pendingFlushes.add(self)
    }

    /// `PendingFlushes`' end of the loop task: what was staged, then what the
    /// queue holds while the socket takes it.
    func flush() {
        state.flushScheduled = false
        writeStaged()
    }

    /// What was staged, then what the queue holds while the socket takes it.
    /// A pass's end writes this way too, leaving `flushScheduled` alone: a
    /// connection in `PendingFlushes`' list stays there, once, until the
    /// task's end.
    private func writeStaged() {
        guard !state.closing else { return }
        if let bytes = state.staged.take() {
            // Kept for the next task's messages: usually sent whole at once,
            // and when the channel holds part of it, it is copied before it
            // is written to again (a buffer copies on write when shared).
            if bytes.capacity <= Self.spareLimit { state.spare = bytes }
            // The common case, nothing queued behind it and nothing unflushed
            // before it: one send, or one trip through the pipeline.
            if state.queue.isEmpty, !state.unflushed { return transmit(bytes, flush: true) }
            transmit(bytes, flush: false)
        }
        _ = writeQueued()
        if state.unflushed {
            state.unflushed = false
            channel.flush()
        }
    }
}
