import Glibc
import NIOCore

/// The descriptor of a connection insetd accepted itself (`ConnectionAcceptor`),
/// for sending on it without a trip through NIO's pipeline.
///
/// Only its `ClientConnection` uses it, on the channel's event loop, and only
/// while the channel is active and holds none of the connection's bytes: NIO
/// closes the descriptor on that same loop, and before the loop runs anything
/// else, the connection hears of it (a failed write, `channelInactive`), so
/// the descriptor it sends on is still its own, never a later connection's
/// that got the number.
struct ConnectedSocket: Sendable {
    let descriptor: Int32

    /// Sends what `buffer` holds, without waiting and without `SIGPIPE`, and
    /// says how many bytes went: fewer than offered when the socket's buffer
    /// filled, none when it was full or the connection failed (its peer went,
    /// mostly: the channel finds out on its own write and closes it the usual way).
    func send(_ buffer: ByteBuffer) -> Int {
        let sent = buffer.withUnsafeReadableBytes { bytes in
            Glibc.send(descriptor, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT))
        }
        return max(sent, 0)
    }
}
