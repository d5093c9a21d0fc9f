import NIOCore
import NIOWebSocket

/// How a session's messages travel: the Unix socket's byte stream carries one
/// message per line; a WebSocket carries one message per text frame.
///
/// The one place where a daemon message (an encoded line, ending in a newline)
/// becomes what a session's channel sends, so a connection stages and queues
/// bytes that are ready to go: a broadcast is framed once per framing and
/// shared by every session of that framing, and nothing below the session
/// copies or re-frames per client.
enum SessionFraming: Sendable {
    case lines
    case messages

    /// `line` as this framing sends it.
    func wire(_ line: ByteBuffer) -> ByteBuffer {
        switch self {
        case .lines: line
        case .messages: Self.textFrame(withoutNewline: line.readableBytesView)
        }
    }

    /// An encoded line (`DaemonMessage.lineBytes()`) as this framing sends it,
    /// written once into one buffer.
    func wire(_ line: [UInt8]) -> ByteBuffer {
        var buffer = ByteBuffer()
        buffer.reserveCapacity(line.count + WebSocketFrameWriter.maximumHeaderLength)
        append(line, to: &buffer)
        return buffer
    }

    /// Appends an encoded line as this framing sends it (the line as it is,
    /// or one text frame).
    func append(_ line: [UInt8], to buffer: inout ByteBuffer) {
        switch self {
        case .lines: buffer.writeBytes(line)
        case .messages: Self.appendTextFrame(withoutNewline: line, to: &buffer)
        }
    }

    /// One text frame whose payload is `line` without its final newline.
    private static func textFrame(withoutNewline line: ByteBufferView) -> ByteBuffer {
        var frame = ByteBuffer()
        frame.reserveCapacity(line.count + WebSocketFrameWriter.maximumHeaderLength)
        appendTextFrame(withoutNewline: line, to: &frame)
        return frame
    }

    private static func appendTextFrame<Line: BidirectionalCollection<UInt8>>(
        withoutNewline line: Line, to frame: inout ByteBuffer
    ) {
        let payload = line.last == UInt8(ascii: "\n") ? line.dropLast() : line[...]
        WebSocketFrameWriter.appendHeader(&frame, opcode: .text, length: payload.count)
        frame.writeBytes(payload)
    }
}

/// One encoded line sent to many sessions (a broadcast, a topic's message):
/// framed at most once per framing, and that buffer shared by every session
/// of the framing.
struct SharedLine {
    private let line: ByteBuffer
    private var frame: ByteBuffer?

    init(_ line: [UInt8]) {
        self.line = ByteBuffer(bytes: line)
    }

    mutating func wire(for framing: SessionFraming) -> ByteBuffer {
        switch framing {
        case .lines:
            return line
        case .messages:
            if let frame { return frame }
            let framed = framing.wire(line)
            frame = framed
            return framed
        }
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
