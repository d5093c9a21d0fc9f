import NIOCore
import NIOHTTP1
import NIOWebSocket

/// The HTTP → WebSocket upgrade of a page's connection into a server session.
///
/// The handshake is NIOWebSocket's (`NIOWebSocketServerUpgrader`: the upgrade
/// headers checked, `Sec-WebSocket-Accept` computed, `shouldUpgrade` asked) and
/// so are the frames read (`WebSocketFrameDecoder`). What differs is the
/// pipeline left behind: NIO's upgrader also installs its frame encoder, which a
/// pipeline cannot remove, and every session's writes and flushes would pass
/// it, though nothing uses it (the session's messages are framed already,
/// `SessionFraming.messages`). Here a session's pipeline is the decoder and
/// `WebSocketSessionHandler`: one handler fewer per session, in memory and on
/// every write.
final class WebSocketSessionUpgrader: HTTPServerProtocolUpgrader, Sendable {
    private let handshake: NIOWebSocketServerUpgrader
    private let maxFrameSize: Int
    private let makeSession: @Sendable (any Channel) throws -> Void

    /// `shouldUpgrade` answers with the extra response headers, or nil to
    /// refuse; `makeSession` adds the session's handler after the frame decoder.
    init(
        maxFrameSize: Int,
        shouldUpgrade: @escaping @Sendable (any Channel, HTTPRequestHead) -> EventLoopFuture<HTTPHeaders?>,
        makeSession: @escaping @Sendable (any Channel) throws -> Void
    ) {
        self.maxFrameSize = maxFrameSize
        self.makeSession = makeSession
        handshake = NIOWebSocketServerUpgrader(
            maxFrameSize: maxFrameSize, automaticErrorHandling: false, shouldUpgrade: shouldUpgrade,
            upgradePipelineHandler: { channel, _ in channel.eventLoop.makeSucceededVoidFuture() })
    }

    var supportedProtocol: String { handshake.supportedProtocol }
    var requiredUpgradeHeaders: [String] { handshake.requiredUpgradeHeaders }

    func buildUpgradeResponse(
        channel: any Channel, upgradeRequest: HTTPRequestHead, initialResponseHeaders: HTTPHeaders
    ) -> EventLoopFuture<HTTPHeaders> {
        handshake.buildUpgradeResponse(
            channel: channel, upgradeRequest: upgradeRequest, initialResponseHeaders: initialResponseHeaders)
    }

    func upgrade(context: ChannelHandlerContext, upgradeRequest: HTTPRequestHead) -> EventLoopFuture<Void> {
        let channel = context.channel
        return channel.eventLoop.makeCompletedFuture {
            let pipeline = channel.pipeline.syncOperations
            try pipeline.addHandler(ByteToMessageHandler(WebSocketFrameDecoder(maxFrameSize: maxFrameSize)))
            try makeSession(channel)
        }
    }
}
