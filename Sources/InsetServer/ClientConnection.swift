import Foundation
import InsetCore
import InsetProtocol
import Logging
import NIOConcurrencyHelpers
import NIOCore

/// The server's handle on one connected client: sends go through a bounded
/// queue drained only while the socket can take more, so a client that does
/// not read never makes anyone else wait. All queue state lives on the
/// channel's event loop.
public final class ClientConnection: Sendable {
    public let id: ClientID
    public let peer: PeerCredentials
    let channel: any Channel
    private let logger: Logger
    // Touched only on `channel.eventLoop`.
    private let queue: NIOLoopBoundBox<OutboundQueue>
    private let closing: NIOLoopBoundBox<Bool>
    private let flushScheduled: NIOLoopBoundBox<Bool>

    init(id: ClientID, peer: PeerCredentials, channel: any Channel, capacity: Int, logger: Logger) {
        self.id = id
        self.peer = peer
        self.channel = channel
        self.logger = logger
        queue = NIOLoopBoundBox(OutboundQueue(capacity: capacity), eventLoop: channel.eventLoop)
        closing = NIOLoopBoundBox(false, eventLoop: channel.eventLoop)
        flushScheduled = NIOLoopBoundBox(false, eventLoop: channel.eventLoop)
    }

    /// False once the connection is closed or closing.
    public var isOpen: Bool { channel.isActive }

    /// Queues a message; an adjustment replaces an unsent one for the same view.
    public func send(_ message: DaemonMessage) {
        let key: String? = if case .adjustment(let view, _) = message { "adjustment:" + view } else { nil }
        send(encoded: message.line(), coalescingKey: key)
    }

    /// Queues an already encoded message: a broadcast is encoded once, not once
    /// per client.
    public func send(encoded bytes: Data, coalescingKey key: String? = nil) {
        // The daemon's core runs on this event loop: no task hop per client.
        if channel.eventLoop.inEventLoop {
            enqueue(bytes, key: key)
        } else {
            channel.eventLoop.execute { self.enqueue(bytes, key: key) }
        }
    }

    /// Sends a last message, then closes the connection. The close never waits
    /// on the peer for long: a client that does not read gets 250 ms.
    public func close(after message: DaemonMessage? = nil) {
        let bytes = message?.line()
        channel.eventLoop.execute {
            guard !self.closing.value else { return }
            self.closing.value = true
            let forced = self.channel.eventLoop.scheduleTask(in: .milliseconds(250)) {
                self.channel.close(promise: nil)
            }
            guard let bytes else {
                forced.cancel()
                self.channel.close(promise: nil)
                return
            }
            self.channel.writeAndFlush(self.channel.allocator.buffer(bytes: bytes)).whenComplete { _ in
                forced.cancel()
                self.channel.close(promise: nil)
            }
        }
    }

    private func enqueue(_ bytes: Data, key: String?) {
        guard !closing.value else { return }
        guard queue.value.enqueue(bytes, coalescingKey: key) else {
            logger.warning(
                "client dropped: it does not read its messages",
                metadata: ["client": "\(id)", "peer": "\(peer)", "queued": "\(queue.value.count)"])
            close(after: .error(ProtocolError(.tooSlow, "too many unread messages (\(queue.value.capacity)); disconnecting")))
            return
        }
        drain()
    }

    /// Writes queued messages while the socket accepts them.
    func drain() {
        guard !closing.value else { return }
        var wrote = false
        while channel.isWritable, let bytes = queue.value.dequeue() {
            channel.write(channel.allocator.buffer(bytes: bytes), promise: nil)
            wrote = true
        }
        if wrote { scheduleFlush() }
    }

    /// Flushes once the current event-loop task is done, so everything one core
    /// step sends this client (a keyboard notification and its adjustment)
    /// leaves in one write(2).
    private func scheduleFlush() {
        guard !flushScheduled.value else { return }
        flushScheduled.value = true
        channel.eventLoop.execute {
            self.flushScheduled.value = false
            self.channel.flush()
        }
    }
}
