import InsetProtocol
import Logging
import NIOCore
import NIOWebSocket

/// A WebSocket's end of a session, as `SessionHandler` is the Unix socket's:
/// hands the server's `ClientSession` one message per text frame, so a
/// WebSocket session is a server session with another framing, not a second
/// implementation. Answers pings and the close handshake itself, joins a
/// fragmented message (RFC 6455 5.4) itself rather than through one more
/// handler per session, and turns frame errors into the socket's errors
/// (`line-too-long` for an oversized message). A message is JSON text: text
/// that is not UTF-8 fails the connection (1007), a binary message is refused
/// (1003).
///
/// What the session writes is framed already (`SessionFraming.messages`: a
/// broadcast is framed once for all WebSocket sessions), so it passes through
/// as it is. A session's pipeline is NIO's frame decoder and this handler, no
/// more (`WebSocketSessionUpgrader`): each handler costs every session memory
/// and every write a hop.
final class WebSocketSessionHandler: SessionChannelHandler, ChannelOutboundHandler, @unchecked Sendable {
    typealias InboundIn = WebSocketFrame
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    let session: ClientSession
    let handshakeTimeout: Duration
    private let messageLimit: Int
    private let logger: Logger
    private var closeSent = false
    /// The fragments of a message begun by a non-final text or binary frame.
    private var fragments: ByteBuffer?
    private var fragmentCount = 0
    /// As NIO's frame aggregator: a message may be cut into at most this many frames.
    static let fragmentLimit = 256

    init(session: ClientSession, messageLimit: Int, handshakeTimeout: Duration, logger: Logger) {
        self.session = session
        self.messageLimit = messageLimit
        self.handshakeTimeout = handshakeTimeout
        self.logger = logger
    }

    private func writeFrames(context: ChannelHandlerContext, _ bytes: ByteBuffer, promise: EventLoopPromise<Void>?) {
        context.write(wrapOutboundOut(bytes), promise: promise)
    }

    private func controlFrame(context: ChannelHandlerContext, _ opcode: WebSocketOpcode, _ payload: ByteBuffer) -> ByteBuffer {
        var out = context.channel.allocator.buffer(capacity: payload.readableBytes + WebSocketFrameWriter.maximumHeaderLength)
        WebSocketFrameWriter.append(&out, opcode: opcode, payload: payload)
        return out
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        // After our close frame the peer's frames are read only to be dropped,
        // until its own close frame answers ours.
        guard !closeSent || frame.opcode == .connectionClose else { return }
        // RFC 6455 5.1, 5.2: a client masks every frame, and without an
        // extension (insetd negotiates none) the reserved bits are clear.
        guard frame.maskKey != nil, !frame.rsv1, !frame.rsv2, !frame.rsv3 else { return protocolError(context: context) }
        switch frame.opcode {
        case .binary:
            // insetd's messages are JSON text; a binary message is refused
            // whole (RFC 6455 7.4.1: 1003, data it cannot accept).
            guard fragments == nil else { return protocolError(context: context) }
            refuse(context: context, "a binary WebSocket message", reason: "websocket-binary", code: 1003)
        case .text:
            guard fragments == nil else { return protocolError(context: context) }
            if frame.fin {
                // The decoder already refuses a frame longer than the limit.
                receive(context: context, frame.unmaskedData)
            } else {
                fragments = frame.unmaskedData
                fragmentCount = 1
            }
        case .continuation:
            guard var message = fragments else { return protocolError(context: context) }
            fragments = nil  // the buffer is uniquely held while it grows
            var data = frame.unmaskedData
            guard message.readableBytes + data.readableBytes <= messageLimit else {
                return errorCaught(context: context, error: NIOWebSocketError.invalidFrameLength)
            }
            fragmentCount += 1
            guard frame.fin || fragmentCount < Self.fragmentLimit else { return protocolError(context: context) }
            message.writeBuffer(&data)
            if frame.fin {
                receive(context: context, message)
            } else {
                fragments = message
            }
        case .ping:
            // Only while the peer reads: a pong skips the connection's bounded
            // queue, so pings from a peer that never reads would pile up pongs
            // without limit. RFC 6455 5.5.3 lets an endpoint answer only the
            // latest ping anyway.
            guard context.channel.isWritable else { return }
            session.connection.sendControl(controlFrame(context: context, .pong, frame.unmaskedData))
        case .pong:
            break
        case .connectionClose:
            if closeSent { return context.close(promise: nil) }
            // The peer is leaving: answer its close with its code (RFC 6455
            // 5.5.1), or 1002 for a code no endpoint may send (7.4).
            var payload = frame.unmaskedData
            switch payload.readableBytes {
            case 0:
                finish(context: context, code: 1000)
            case 1:
                protocolError(context: context)
            default:
                let code = payload.readInteger(as: UInt16.self) ?? 0
                guard Self.mayBeSent(closeCode: code) else { return protocolError(context: context) }
                finish(context: context, code: code)
            }
        default:
            // Reserved opcodes (RFC 6455 5.2): nothing an endpoint may send unasked.
            protocolError(context: context)
        }
    }

    /// A whole text message: UTF-8 or the connection fails (RFC 6455 8.1,
    /// close code 1007), since a peer that sends invalid text is not speaking
    /// WebSocket and nothing it sends next can be trusted to be framed right.
    private func receive(context: ChannelHandlerContext, _ message: ByteBuffer) {
        let bytes = Array(message.readableBytesView)
        guard Self.isValidUTF8(bytes) else {
            return refuse(context: context, "a WebSocket text message that is not UTF-8", reason: "websocket-invalid-utf8", code: 1007)
        }
        session.receive(bytes)
    }

    static func isValidUTF8(_ bytes: [UInt8]) -> Bool {
        // ASCII, which every message insetd.js sends is, needs no decoding.
        if !bytes.contains(where: { $0 >= 0x80 }) { return true }
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = bytes.makeIterator()
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid: continue
            case .emptyInput: return true
            case .error: return false
            }
        }
    }

    /// Ends the session for a message it will not take, with `code`, logged as
    /// any refusal (rate-limited) and `reason` as the disconnect's.
    private func refuse(context: ChannelHandlerContext, _ what: String, reason: String, code: UInt16) {
        fragments = nil
        guard !closeSent else { return }
        session.refused(what, reason: reason)
        finish(context: context, code: code)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        guard !closeSent else {
            promise?.fail(ChannelError.ioOnClosedChannel)
            return
        }
        writeFrames(context: context, unwrapOutboundIn(data), promise: promise)
    }

    /// The close codes an endpoint may put on the wire (RFC 6455 7.4 and
    /// IANA's registry): the defined ones but 1004, 1005, 1006 and 1015, and
    /// those for libraries and applications (3000–4999).
    static func mayBeSent(closeCode code: UInt16) -> Bool {
        (1000...1003).contains(code) || (1007...1014).contains(code) || (3000...4999).contains(code)
    }

    /// Protocol rules broken (an unmasked frame, reserved bits or opcodes, a
    /// continuation with no message begun, a new message inside a fragmented
    /// one, too many fragments, a bad close code): as any frame error.
    private func protocolError(context: ChannelHandlerContext) {
        fragments = nil
        errorCaught(context: context, error: NIOWebSocketError.fragmentedControlFrame)
    }

    /// The connection's graceful end (`WebSocketTransport.finish`) wrote our
    /// close frame and now closes our direction: nothing more is written. Any
    /// other close (the channel's own) still says so in a close frame first.
    func close(context: ChannelHandlerContext, mode: CloseMode, promise: EventLoopPromise<Void>?) {
        if mode == .output {
            closeSent = true
        } else if mode == .all, !closeSent, context.channel.isActive {
            closeSent = true
            var frame = context.channel.allocator.buffer(capacity: 4)
            WebSocketFrameWriter.appendClose(&frame, code: 1000)
            writeFrames(context: context, frame, promise: nil)
            context.flush()
        }
        context.close(mode: mode, promise: promise)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        switch error {
        case NIOWebSocketError.invalidFrameLength:
            // The socket's rule for an over-long line: say why, then close this session only.
            guard !closeSent else { return }
            session.messageTooLong(limit: messageLimit)
        case ByteToMessageDecoderError.dataReceivedInErrorState:
            // The rest of what the peer sent after a frame error: discarded while
            // the close runs its course.
            break
        case is NIOWebSocketError:
            guard !closeSent else { return }
            session.refused("a WebSocket protocol error", reason: "websocket-protocol-error")
            logger.debug("WebSocket protocol error; closing", metadata: ["error": "\(error)"])
            finish(context: context, code: 1002)
        default:
            // The connection itself failed (a reset, say): nobody to say anything to.
            session.failed(error)
            context.close(promise: nil)
        }
    }

    /// Ends the session after a frame error, with `code`, the transport's way.
    private func finish(context: ChannelHandlerContext, code: UInt16) {
        session.connection.finish(code: code)
    }
}
