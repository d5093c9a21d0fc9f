import Logging
import NIOCore
import NIOWebSocket

/// A WebSocket's sessions (browser pages): one message per text frame, and a
/// peer known only by its TCP address (a browser passes no credentials, and a
/// loopback address is every local program's).
struct WebSocketTransport: SessionTransport {
    /// Whether pages may send control commands (`websocket.control`).
    var control: Bool

    var framing: SessionFraming { .messages }

    var messageNoun: String { "message" }

    /// Only when the operator trusts every page that may connect.
    func allowsControl(_ peer: SessionPeer, authorization: Authorization) -> Bool {
        guard case .webPage = peer else { return false }
        return control
    }

    func notAuthorized(_ peer: SessionPeer) -> String {
        "control commands are refused over the WebSocket unless websocket.control is true"
    }

    /// One key for every page, under the per-user cap and the WebSocket's own
    /// below it, so that pages (which any local program can pretend to be)
    /// never take the places of the Unix socket's clients.
    func admissionKey(_ peer: SessionPeer, limits: ConnectionLimits) -> ConnectionAdmission.Key {
        ConnectionAdmission.Key(
            .transport("webPages"),
            cap: .init(limit: limits.maximumWebSocketConnections, refusal: .init("too many WebSocket connections")))
    }

    /// Text frames after NIO's frame decoder.
    func sessionHandler(session: ClientSession, messageLimit: Int, handshakeTimeout: Duration, logger: Logger)
        -> any ChannelHandler
    {
        WebSocketSessionHandler(
            session: session, messageLimit: messageLimit, handshakeTimeout: handshakeTimeout, logger: logger)
    }

    /// Sends `last` and a close frame with `code`, then closes only its own
    /// direction: closing a socket with unread input makes the kernel send a
    /// reset, and a browser that gets one drops the frames it has not read
    /// yet, `last` among them. What the peer still sends is read and
    /// discarded until it closes too, or 500 ms have passed.
    func finish(_ channel: any Channel, last: ByteBuffer?, code: UInt16) {
        var bytes = last ?? channel.allocator.buffer(capacity: 4)
        WebSocketFrameWriter.appendClose(&bytes, code: code)
        channel.writeAndFlush(bytes, promise: nil)
        channel.close(mode: .output, promise: nil)
        channel.eventLoop.scheduleTask(in: .milliseconds(500)) { channel.close(promise: nil) }
    }
}

extension SessionFraming {
    /// A WebSocket's: one text frame per line, its payload the line without
    /// its final newline.
    static let messages = SessionFraming(
        name: "messages", overhead: WebSocketFrameWriter.maximumHeaderLength, sendsLinesAsTheyAre: false
    ) { line, buffer in
        let payload = line.last == UInt8(ascii: "\n") ? UnsafeRawBufferPointer(rebasing: line.dropLast()) : line
        WebSocketFrameWriter.appendHeader(&buffer, opcode: .text, length: payload.count)
        buffer.writeBytes(payload)
    }
}

/// Writes server frames (RFC 6455 5.2): unmasked, unfragmented. Text frames
/// for daemon messages, and the session handler's control frames (pong, close).
enum WebSocketFrameWriter {
    /// A header is at most 10 bytes: 2, plus 8 for a 64-bit length.
    static let maximumHeaderLength = 10

    static func append(_ out: inout ByteBuffer, opcode: WebSocketOpcode, payload: ByteBuffer) {
        appendHeader(&out, opcode: opcode, length: payload.readableBytes)
        out.writeImmutableBuffer(payload)
    }

    /// A close frame with `code` (RFC 6455 5.5.1, 7.4) and no reason text.
    static func appendClose(_ out: inout ByteBuffer, code: UInt16) {
        appendHeader(&out, opcode: .connectionClose, length: 2)
        out.writeInteger(code)
    }

    static func appendHeader(_ out: inout ByteBuffer, opcode: WebSocketOpcode, length: Int) {
        out.writeInteger(UInt8(0x80) | UInt8(webSocketOpcode: opcode))
        if length < 126 {
            out.writeInteger(UInt8(length))
        } else if length <= Int(UInt16.max) {
            out.writeInteger(UInt8(126))
            out.writeInteger(UInt16(length))
        } else {
            out.writeInteger(UInt8(127))
            out.writeInteger(UInt64(length))
        }
    }
}
