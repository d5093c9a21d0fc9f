import InsetProtocol
import NIOCore

/// A transport's end of a session: hands its `ClientSession` one message at a
/// time and drains the connection's queue when the channel can take more. The
/// Unix socket's bytes are cut into lines here; a WebSocket's codec below
/// delivers one message per read already (`SessionFraming.messages`).
final class SessionHandler: ChannelInboundHandler, @unchecked Sendable {
    typealias InboundIn = ByteBuffer

    private let session: ClientSession
    private let handshakeTimeout: Duration
    private let framing: SessionFraming
    private var framer: LineFramer

    init(session: ClientSession, lineLimit: Int, handshakeTimeout: Duration, framing: SessionFraming = .lines) {
        self.session = session
        self.handshakeTimeout = handshakeTimeout
        self.framing = framing
        framer = LineFramer(limit: lineLimit)
    }

    // Started here rather than in channelActive: a WebSocket session's channel
    // is already active when the upgrade adds this handler.
    func handlerAdded(context: ChannelHandlerContext) {
        session.start(handshakeTimeout: handshakeTimeout, on: context.eventLoop)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let buffer = unwrapInboundIn(data)
        if framing == .messages { return session.receive(Array(buffer.readableBytesView)) }
        for output in framer.feed(buffer.readableBytesView) {
            switch output {
            case .line(let line):
                session.receive(line)
            case .tooLong:
                return session.messageTooLong(limit: framer.limit)
            }
        }
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if context.channel.isWritable { session.connection.drain() }
        context.fireChannelWritabilityChanged()
    }

    func channelInactive(context: ChannelHandlerContext) {
        session.ended()
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        session.failed(error)
        context.close(promise: nil)
    }
}
