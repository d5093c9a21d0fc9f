#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import InsetCore
import InsetProtocol
import Logging
import NIOCore

/// One client's session, whatever stream it arrived on: decodes each message,
/// answers protocol errors itself, performs the `hello` handshake (with its
/// deadline) and the authorization of control commands, and passes everything
/// else on as `ServerEvent`s.
///
/// Why apart from the transport: a Unix socket delivers lines, a WebSocket
/// delivers frames; both hand this session one message at a time (`receive`),
/// and both send through the same `ClientConnection`, so limits, validation and
/// ordering are the same for every client. Used on the connection's event loop
/// only.
final class ClientSession: @unchecked Sendable {
    let connection: ClientConnection
    private let authorization: Authorization
    private let events: AsyncStream<ServerEvent>.Continuation
    private let logger: Logger
    private let refusals: RefusalLog
    private let registry: ClientRegistry
    private var handshakeDeadline: Scheduled<Void>?
    private var version: Int?
    /// The transport error that ended the session, if one did.
    private var failure: String?

    init(
        connection: ClientConnection, authorization: Authorization, registry: ClientRegistry,
        events: AsyncStream<ServerEvent>.Continuation, refusals: RefusalLog, logger: Logger
    ) {
        self.connection = connection
        self.authorization = authorization
        self.registry = registry
        self.events = events
        self.refusals = refusals
        self.logger = logger
    }

    /// Starts the hello deadline: a connection that does not complete `hello`
    /// in time is closed (an idle one would otherwise hold a descriptor for ever).
    func start(handshakeTimeout: Duration, on eventLoop: any EventLoop) {
        let connection = connection
        let refusals = refusals
        handshakeDeadline = eventLoop.scheduleTask(in: .nanoseconds(handshakeTimeout.totalNanoseconds)) {
            refusals.refused("no hello in time", metadata: ["client": "\(connection.id)", "peer": "\(connection.peer)"])
            connection.close(after: .bye(reason: "hello-timeout"))
        }
    }

    /// The transport's message was larger than it accepts: the stream cannot be
    /// resynchronised, so the session ends (on a WebSocket with 1009, message
    /// too big).
    func messageTooLong(limit: Int) {
        let noun = connection.transport.messageNoun
        refusals.refused("a \(noun) over the limit", metadata: ["client": "\(connection.id)", "peer": "\(connection.peer)"])
        connection.close(
            after: .error(ProtocolError(.lineTooLong, "a \(noun) is longer than \(limit) bytes; closing")), code: 1009)
    }

    /// The transport itself refused what the peer sent (a WebSocket frame
    /// error) and is closing the session: logged as any refusal (rate-limited),
    /// and `reason` is the disconnect's.
    func refused(_ what: String, reason: String) {
        refusals.refused(what, metadata: ["client": "\(connection.id)", "peer": "\(connection.peer)"])
        connection.closeReason = reason
    }

    /// The transport failed (a socket error); the session ends with it.
    func failed(_ error: any Error) {
        failure = failure ?? "connection error: \(error)"
    }

    /// The transport closed.
    func ended() {
        handshakeDeadline?.cancel()
        handshakeDeadline = nil
        if version != nil { events.yield(.left(connection.id)) }
        version = nil
        // Info with the reason: who left and why (the client closed, insetd
        // dropped it for a protocol or queue error, or the socket failed).
        let reason = connection.closeReason ?? failure ?? "closed by the client"
        logger.info("client disconnected", metadata: ["client": "\(connection.id)", "reason": "\(reason)"])
    }

    /// One message (a line without its newline, or a frame's payload).
    func receive(_ line: [UInt8]) {
        handle(line)
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
        let control: Bool = switch request.message {
        case .command, .policy, .reload: true
        default: request.message.isBridgeReport
        }
        if control {
            guard connection.transport.allowsControl(connection.peer, authorization: authorization) else {
                refusals.refused("control command not authorized", metadata: ["client": "\(connection.id)", "peer": "\(connection.peer)"])
                connection.send(.error(ProtocolError(
                    .notAuthorized, connection.transport.notAuthorized(connection.peer), id: request.id)))
                return
            }
        }
        events.yield(.request(connection.id, request))
    }
}
