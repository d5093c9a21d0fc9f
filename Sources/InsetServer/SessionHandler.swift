#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import InsetCore
import InsetProtocol
import Logging
import NIOCore

/// Reads one client's lines: frames them, decodes them, answers protocol errors
/// itself, performs the `hello` handshake and the authorization of control
/// commands, and passes everything else on as `ServerEvent`s.
final class SessionHandler: ChannelInboundHandler, @unchecked Sendable {
    typealias InboundIn = ByteBuffer

    private let connection: ClientConnection
    private let authorization: Authorization
    private let events: AsyncStream<ServerEvent>.Continuation
    private let logger: Logger
    private var framer: LineFramer
    private var version: Int?
    /// The socket error that ended the connection, if one did.
    private var connectionError: String?

    init(
        connection: ClientConnection, authorization: Authorization, lineLimit: Int,
        events: AsyncStream<ServerEvent>.Continuation, logger: Logger
    ) {
        self.connection = connection
        self.authorization = authorization
        self.events = events
        self.logger = logger
        framer = LineFramer(limit: lineLimit)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let buffer = unwrapInboundIn(data)
        for output in framer.feed(buffer.readableBytesView) {
            switch output {
            case .line(let line):
                handle(line)
            case .tooLong:
                logger.notice("client sent an over-long line; closing", metadata: ["client": "\(connection.id)"])
                connection.close(
                    after: .error(ProtocolError(.lineTooLong, "a line is longer than \(framer.limit) bytes; closing")))
                return
            }
        }
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if context.channel.isWritable { connection.drain() }
        context.fireChannelWritabilityChanged()
    }

    func channelInactive(context: ChannelHandlerContext) {
        if version != nil { events.yield(.left(connection.id)) }
        // Info with the reason: who left and why (the client closed, insetd
        // dropped it for a protocol or queue error, or the socket failed).
        let reason = connection.closeReason.value ?? connectionError ?? "closed by the client"
        logger.info("client disconnected", metadata: ["client": "\(connection.id)", "reason": "\(reason)"])
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        logger.debug("client connection error", metadata: ["client": "\(connection.id)", "error": "\(error)"])
        connectionError = connectionError ?? "connection error: \(error)"
        context.close(promise: nil)
    }

    private func handle(_ line: [UInt8]) {
        let request: ClientRequest
        do {
            request = try ClientMessageDecoder.decode(line)
        } catch {
            connection.send(.error(error))
            return
        }
        if case .hello(let versions, let name) = request.message {
            guard let common = versions.filter(supportedProtocolVersions.contains).max() else {
                connection.send(.error(ProtocolError(
                    .unsupportedVersion,
                    "no common protocol version: client speaks \(versions), insetd speaks \(supportedProtocolVersions)",
                    id: request.id)))
                return
            }
            guard version == nil else {
                connection.send(.error(ProtocolError(.invalidField, "hello: already said", id: request.id)))
                return
            }
            version = common
            logger.info(
                "client connected",
                metadata: ["client": "\(connection.id)", "name": "\(name ?? "-")", "peer": "\(connection.peer)"])
            events.yield(.joined(connection, version: common))
            return
        }
        guard version != nil else {
            connection.send(.error(ProtocolError(.helloRequired, "say hello first", id: request.id)))
            return
        }
        switch request.message {
        case .command, .policy, .reload:
            guard authorization.allowsControl(connection.peer) else {
                logger.notice(
                    "control command refused", metadata: ["client": "\(connection.id)", "peer": "\(connection.peer)"])
                connection.send(.error(ProtocolError(
                    .notAuthorized, "control commands need root or a configured user or group (\(connection.peer))",
                    id: request.id)))
                return
            }
        default:
            break
        }
        events.yield(.request(connection, request))
    }
}
