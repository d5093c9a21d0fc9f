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
    private let refusals: RefusalLog
    private let registry: ClientRegistry
    private let handshakeTimeout: Duration
    private var handshakeDeadline: Scheduled<Void>?
    private var framer: LineFramer
    private var version: Int?

    init(
        connection: ClientConnection, authorization: Authorization, lineLimit: Int, handshakeTimeout: Duration,
        registry: ClientRegistry, events: AsyncStream<ServerEvent>.Continuation, refusals: RefusalLog, logger: Logger
    ) {
        self.registry = registry
        self.connection = connection
        self.authorization = authorization
        self.events = events
        self.refusals = refusals
        self.logger = logger
        self.handshakeTimeout = handshakeTimeout
        framer = LineFramer(limit: lineLimit)
    }

    /// A connection that does not complete `hello` in time is closed: an idle
    /// connection would otherwise hold a descriptor for ever.
    func handlerAdded(context: ChannelHandlerContext) {
        let connection = connection
        let refusals = refusals
        handshakeDeadline = context.eventLoop.scheduleTask(in: .nanoseconds(handshakeTimeout.totalNanoseconds)) {
            refusals.refused("no hello in time", metadata: ["client": "\(connection.id)", "peer": "\(connection.peer)"])
            connection.close(after: .bye(reason: "hello-timeout"))
        }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        handshakeDeadline?.cancel()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let buffer = unwrapInboundIn(data)
        for output in framer.feed(buffer.readableBytesView) {
            switch output {
            case .line(let line):
                handle(line)
            case .tooLong:
                refusals.refused("a line over the limit", metadata: ["client": "\(connection.id)", "peer": "\(connection.peer)"])
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
        handshakeDeadline?.cancel()
        if version != nil { events.yield(.left(connection.id)) }
        logger.debug("client disconnected", metadata: ["client": "\(connection.id)"])
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        logger.debug("client connection error", metadata: ["client": "\(connection.id)", "error": "\(error)"])
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
            handshakeDeadline?.cancel()
            handshakeDeadline = nil
            logger.info(
                "client connected",
                metadata: ["client": "\(connection.id)", "name": "\(logSafe(name ?? "-"))", "peer": "\(connection.peer)"])
            registry.markJoined(connection.id)
            events.yield(.joined(connection.id, version: common, id: request.id))
            return
        }
        guard version != nil else {
            connection.send(.error(ProtocolError(.helloRequired, "say hello first", id: request.id)))
            return
        }
        switch request.message {
        case .command, .policy:
            guard authorization.allowsControl(connection.peer) else {
                refusals.refused("control command not authorized", metadata: ["client": "\(connection.id)", "peer": "\(connection.peer)"])
                connection.send(.error(ProtocolError(
                    .notAuthorized, "control commands need root or a configured user or group (\(connection.peer))",
                    id: request.id)))
                return
            }
        default:
            break
        }
        events.yield(.request(connection.id, request))
    }
}
