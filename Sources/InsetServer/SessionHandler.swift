import InsetProtocol
import NIOCore

/// The Unix socket's end of a session (`WebSocketSessionHandler` is a
/// WebSocket's): cuts the byte stream into lines, hands its `ClientSession` one
/// at a time, and drains the connection's queue when the channel can take more.
final class SessionHandler: ChannelInboundHandler, @unchecked Sendable {
    typealias InboundIn = ByteBuffer

    private let session: ClientSession
    private let handshakeTimeout: Duration
    private var framer: LineFramer

    init(session: ClientSession, lineLimit: Int, handshakeTimeout: Duration) {
        self.session = session
        self.handshakeTimeout = handshakeTimeout
        framer = LineFramer(limit: lineLimit)
    }

    // Started here rather than in channelActive: the server adds this handler
    // once the peer's credentials are known, when the channel is active already.
    func handlerAdded(context: ChannelHandlerContext) {
        session.start(handshakeTimeout: handshakeTimeout, on: context.eventLoop)
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
