import InsetProtocol
import NIOCore

/// A transport's end of a session (`SessionHandler` for the Unix socket,
/// `WebSocketSessionHandler` for a WebSocket): what each does the same with
/// its `ClientSession`, beside reading messages its own way. Starts the hello
/// deadline, drains the connection's queue when the channel can take more, and
/// ends the session with the channel.
protocol SessionChannelHandler: ChannelInboundHandler {
    var session: ClientSession { get }
    var handshakeTimeout: Duration { get }
}

extension SessionChannelHandler {
    // Started here rather than in channelActive: a transport adds its handler
    // when the channel is active already (after the peer's credentials, after
    // the WebSocket upgrade).
    func handlerAdded(context: ChannelHandlerContext) {
        session.start(handshakeTimeout: handshakeTimeout, on: context.eventLoop)
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if context.channel.isWritable { session.connection.drain() }
        context.fireChannelWritabilityChanged()
    }

    func channelActive(context: ChannelHandlerContext) {
        session.connection.channelBecameActive()
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        session.connection.channelBecameInactive()
        session.ended()
        context.fireChannelInactive()
    }
}

/// The Unix socket's end of a session: cuts the byte stream into lines and
/// hands its `ClientSession` one at a time.
final class SessionHandler: SessionChannelHandler, @unchecked Sendable {
    typealias InboundIn = ByteBuffer

    let session: ClientSession
    let handshakeTimeout: Duration
    private var framer: LineFramer

    init(session: ClientSession, lineLimit: Int, handshakeTimeout: Duration) {
        self.session = session
        self.handshakeTimeout = handshakeTimeout
        framer = LineFramer(limit: lineLimit)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let buffer = unwrapInboundIn(data)
        for output in framer.feed(buffer.readableBytesView) {
            switch output {
            case .line(let line):
                session.receive(line)
            case .tooLong:
                return session.messageTooLong(limit: framer.limit)
            }
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        session.failed(error)
        context.close(promise: nil)
    }
}
