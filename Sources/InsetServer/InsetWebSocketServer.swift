import Glibc
import InsetProtocol
import InsetSocket
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOWebSocket

/// The WebSocket transport of an `InsetServer`, for browser pages (insetd.js):
/// one HTTP listener that upgrades to WebSocket and serves insetd.js and the
/// demo. Each upgraded connection becomes a session of `server` through the
/// same `accept` the Unix socket uses (same `ClientSession`: messages, limits,
/// validation and fan-out), on the WebSocket's `SessionTransport`: one message
/// per text frame, and a peer known by its address alone.
///
/// A separate `Service` so the daemon runs it only when configured; the server
/// says `bye` to its WebSocket sessions with all the others at shutdown.
package final class InsetWebSocketServer: Service, Sendable {
    package struct Configuration: Sendable {
        package var host: String
        package var port: Int
        /// Page origins allowed besides insetd's own (see `WebSocketOriginPolicy`).
        package var origins: [String]
        /// Whether control commands are accepted over the WebSocket.
        package var control: Bool
        package var eventLoopGroup: any EventLoopGroup

        package init(
            host: String, port: Int, origins: [String] = [], control: Bool = false,
            eventLoopGroup: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton
        ) {
            self.host = host
            self.port = port
            self.origins = origins
            self.control = control
            self.eventLoopGroup = eventLoopGroup
        }
    }

    private let server: InsetServer
    private let configuration: Configuration
    private let logger: Logger
    private let bound = NIOLockedValueBox<Int?>(nil)

    package init(server: InsetServer, configuration: Configuration, logger: Logger = Logger(label: "insetd.websocket")) {
        self.server = server
        self.configuration = configuration
        self.logger = logger
    }

    /// The port listened on once `run()` has bound it (useful with port 0).
    package var boundPort: Int? { bound.withLockedValue { $0 } }

    package func run() async throws {
        let policy = WebSocketOriginPolicy(
            allowed: configuration.origins, host: configuration.host, port: configuration.port)
        let refusals = server.refusals
        let limits = server.limits
        let pending = PendingHTTPConnections(
            limits: .derived(
                descriptorLimit: DescriptorLimit.hard, maximumConnections: limits.maximumConnections,
                reserve: DescriptorLimit.reserve, requestTimeout: .nanoseconds(limits.handshakeTimeout.totalNanoseconds)))
        let listener: Int32
        let port: Int
        do {
            (listener, port) = try TCPSocket.listen(host: configuration.host, port: configuration.port)
        } catch {
            throw WebSocketListenError(host: configuration.host, port: configuration.port, cause: error)
        }
        defer { close(listener) }
        // As on the Unix socket, insetd accepts the connections itself
        // (`ConnectionAcceptor` says why) and NIO serves each from then on.
        // The acceptor leaves connections in the kernel's queue while every
        // unfinished place is held by a complete request (`hasRoom`).
        let acceptor = try ConnectionAcceptor(
            listener: listener, refusals: refusals, hasRoom: { pending.hasRoom }
        ) { [self] fd in
            serve(fd, policy: policy, pending: pending)
        }
        try acceptor.start()
        bound.withLockedValue { $0 = port }
        logger.info(
            "WebSocket listening",
            metadata: [
                "address": "\(WebSocketOriginPolicy.urlHost(configuration.host)):\(port)",
                "origins": "\(configuration.origins)", "control": "\(configuration.control)",
                "unfinishedHTTP": "\(pending.limits.total) (\(pending.limits.perAddress) per address)",
            ])
        try? await gracefulShutdown()
        acceptor.stop()
    }

    /// Makes a channel of the connection insetd accepted on `fd`: HTTP until
    /// the page asks for the WebSocket (NIO owns the descriptor from here, and
    /// closes it when the channel cannot be made).
    private func serve(_ fd: Int32, policy: WebSocketOriginPolicy, pending: PendingHTTPConnections)
        -> EventLoopFuture<Void>
    {
        InsetServer.connectionBootstrap(group: configuration.eventLoopGroup)
            .channelInitializer { [self] channel in
                channel.eventLoop.makeCompletedFuture {
                    try self.configure(channel, socket: ConnectedSocket(descriptor: fd), policy: policy, pending: pending)
                }
            }
            .withConnectedSocket(fd).map { _ in }
    }

    private func configure(
        _ channel: any Channel, socket: ConnectedSocket, policy: WebSocketOriginPolicy, pending: PendingHTTPConnections
    ) throws {
        let address = channel.remoteAddress?.ipAddress ?? "-"
        let (ticket, evicted) = pending.admit(channel, address: address, descriptor: socket.descriptor)
        if let evicted {
            server.refusals.refused(
                "too many unfinished HTTP connections; closing the oldest", metadata: ["peer": "\(address)"])
            evicted.close(promise: nil)
        }
        channel.closeFuture.whenComplete { _ in pending.remove(ticket) }
        // The largest message is the socket's largest line (frame payloads and
        // joined fragments alike).
        let limit = server.lineLimit
        let control = configuration.control
        let logger = logger
        let upgrader = WebSocketSessionUpgrader(
            maxFrameSize: limit,
            shouldUpgrade: { channel, head in
                pending.answering(ticket)
                let allowed = policy.allows(origin: head.headers["origin"].first, hostHeader: head.headers["host"].first)
                return channel.eventLoop.makeSucceededFuture(allowed ? HTTPHeaders() : nil)
            },
            makeSession: { [server] channel in
                // No NIOWebSocketFrameAggregator: browsers send a message this
                // short as one frame, and the session's handler joins the rare
                // fragmented one, so no session carries one more handler for it.
                // Upgraded once NIO has written its 101 response: the channel
                // holds none of the connection's bytes, so the session may send
                // on the descriptor.
                try server.accept(
                    channel, peer: .webPage(address: address), transport: WebSocketTransport(control: control), socket: socket)
            })
        try channel.pipeline.syncOperations.configureHTTPServerPipeline(
            withServerUpgrade: (
                upgraders: [upgrader],
                completionHandler: { context in
                    context.pipeline.removeHandler(name: WebHTTPHandler.name, promise: nil)
                }
            ))
        try channel.pipeline.syncOperations.addHandler(
            WebHTTPHandler(policy: policy, pending: pending, ticket: ticket, refusals: server.refusals, logger: logger),
            name: WebHTTPHandler.name)
    }
}

/// The WebSocket listener could not bind its address.
package struct WebSocketListenError: Error, CustomStringConvertible {
    package var host: String
    package var port: Int
    package var cause: any Error

    package init(host: String, port: Int, cause: any Error) {
        self.host = host
        self.port = port
        self.cause = cause
    }

    /// The failed system call's errno, when the cause carries one.
    package var errno: Int32? { (cause as? TCPSocketError)?.errno }

    /// Whether starting again cannot help: insetd's sandbox allows it no IP
    /// sockets, or the port needs a privilege it lacks. Anything else may pass:
    /// a port another program holds may come free, an address not (yet) this
    /// machine's may come up with the network.
    package var isPermanent: Bool {
        guard let errno else { return false }
        return [EAFNOSUPPORT, EPERM, EACCES].contains(errno)
    }

    package var description: String {
        // strerror's words rather than NIO's description of the call.
        let reason = errno.map { "\(String(cString: strerror($0))) (errno \($0))" } ?? "\(cause)"
        let what = "cannot listen for WebSockets on \(WebSocketOriginPolicy.urlHost(host)):\(port): \(reason)"
        switch errno {
        case EAFNOSUPPORT, EPERM:
            // What systemd's RestrictAddressFamilies= does to socket(2).
            return "\(what) (websocket.listen: IP sockets are not allowed to insetd here; under the shipped "
                + "insetd.service install the drop-in websocket.conf from insetd's examples, see docs/WEB.md)"
        case EACCES:
            return "\(what) (websocket.listen: ports below 1024 need CAP_NET_BIND_SERVICE; choose a port above)"
        case EADDRNOTAVAIL:
            return "\(what) (websocket.listen: the address is not one of this machine's, or not yet)"
        case EADDRINUSE:
            return "\(what) (websocket.listen: another program listens on that port)"
        default:
            return "\(what) (websocket.listen)"
        }
    }
}
