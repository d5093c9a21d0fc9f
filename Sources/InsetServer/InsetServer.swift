import Glibc
import InsetSocket
import InsetCore
import InsetProtocol
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix

/// The hub of insetd's sessions: holds every client's session, the registry
/// and the outbox, whichever transport the client came by, and fans messages
/// out without ever waiting on a slow client. Each listener makes sessions of
/// it through `accept`: the Unix socket's (`UnixSocketListener`, which the
/// server runs) and the WebSocket's (`InsetWebSocketServer`).
///
/// Runs as a `Service`: `run()` listens on the Unix socket until graceful
/// shutdown, then says `bye` to every client and closes.
package final class InsetServer: Service, Sendable {
    /// Where the Unix socket listens.
    package enum Listener: Sendable, Hashable {
        /// Bind this path, mode 0660. A socket file nobody answers on is
        /// replaced; one that a running daemon serves is left alone and `run()`
        /// fails (`ServerError.socketInUse`).
        case path(String)
        /// A socket already bound and listening, passed by systemd (`LISTEN_FDS`).
        case inherited(fileDescriptor: Int32)
    }

    package struct Configuration: Sendable {
        package var listener: Listener
        package var authorization: Authorization
        /// Unsent messages per client before it is dropped as too slow.
        package var outboundCapacity: Int
        package var lineLimit: Int
        /// Connection caps and the handshake deadline.
        package var limits: ConnectionLimits
        /// The event loops to serve on; nil: a one-thread group of the server's
        /// own, shut down with it. A given group is left running.
        package var eventLoopGroup: (any EventLoopGroup)?

        package init(
            listener: Listener, authorization: Authorization = Authorization(), outboundCapacity: Int = 256,
            lineLimit: Int = LineFramer.defaultLimit, limits: ConnectionLimits = ConnectionLimits(),
            eventLoopGroup: (any EventLoopGroup)? = nil
        ) {
            self.limits = limits
            self.listener = listener
            self.authorization = authorization
            self.outboundCapacity = outboundCapacity
            self.lineLimit = lineLimit
            self.eventLoopGroup = eventLoopGroup
        }
    }

    /// Everything clients do, in order, for the daemon to handle.
    package let events: AsyncStream<ServerEvent>
    private let continuation: AsyncStream<ServerEvent>.Continuation
    private let configuration: Configuration
    private let logger: Logger
    /// The event loops its sessions are served on (give a WebSocket listener
    /// the same, as the daemon does: a keyboard change then reaches every
    /// session from the loop it runs on).
    let group: any EventLoopGroup
    let registry = ClientRegistry()
    let adjustmentLines = AdjustmentLines()
    let keyboardLines = KeyboardLines()
    private let nextClient = NIOLockedValueBox(1)
    /// One per event loop its clients are served on.
    private let pendingFlushes = NIOLockedValueBox([ObjectIdentifier: PendingFlushes]())
    private let ready = NIOLockedValueBox<[CheckedContinuation<Void, Never>]?>([])
    private let admission: ConnectionAdmission
    /// Shared with the WebSocket listener: one rate limit per reason, whichever transport refused.
    let refusals: RefusalLog

    /// The longest message a client may send, on any transport.
    package var lineLimit: Int { configuration.lineLimit }

    /// The connection caps and deadlines, for every transport.
    var limits: ConnectionLimits { configuration.limits }

    package init(configuration: Configuration, logger: Logger = Logger(label: "insetd.server")) {
        self.configuration = configuration
        self.logger = logger
        group = configuration.eventLoopGroup ?? MultiThreadedEventLoopGroup(numberOfThreads: 1)
        (events, continuation) = AsyncStream.makeStream(of: ServerEvent.self, bufferingPolicy: .unbounded)
        admission = ConnectionAdmission(limits: configuration.limits)
        refusals = RefusalLog(logger: logger)
        EncodingFaults.report { [logger] fault in logger.error("\(fault)") }
    }

    /// Connected clients that have said hello or not yet.
    package var connectionCount: Int { registry.count }

    package func connection(_ id: ClientID) -> ClientConnection? { registry.connection(id) }

    package var connections: [ClientConnection] { registry.connections }

    /// Returns once the socket is listening (or `run()` has failed).
    package func waitUntilListening() async {
        await withCheckedContinuation { continuation in
            let pending = ready.withLockedValue { waiting -> Bool in
                guard waiting != nil else { return false }
                waiting!.append(continuation)
                return true
            }
            if !pending { continuation.resume() }
        }
    }

    package func run() async throws {
        defer { markListening() }
        let unixSocket = try UnixSocketListener(configuration.listener, server: self, logger: logger)
        defer { unixSocket.close() }
        DescriptorLimit.raiseAndCheck(for: configuration.limits, logger: logger)
        markListening()
        try? await gracefulShutdown()
        unixSocket.stop()
        for client in connections { client.close(after: .bye(reason: "shutdown")) }
        // Give the goodbyes a moment to leave before the event loop stops.
        for client in connections { try? await client.channel.closeFuture.get() }
        continuation.finish()
        if configuration.eventLoopGroup == nil { try await group.shutdownGracefully() }
    }

    /// What every accepted connection's channel is given, on either
    /// transport: a 64 KiB high-water mark before the bounded queue takes
    /// over, and a receive buffer that starts small. Each connection keeps its
    /// receive buffer between reads; messages from clients are short, so it
    /// starts at 256 bytes instead of NIO's 2 KiB (1.8 MiB less with 1000
    /// clients), and a client that sends more grows its own.
    static func connectionBootstrap(group: any EventLoopGroup) -> ClientBootstrap {
        ClientBootstrap(group: group)
            .channelOption(.writeBufferWaterMark, value: .init(low: 16 * 1024, high: 64 * 1024))
            .channelOption(.recvAllocator, value: AdaptiveRecvByteBufferAllocator(minimum: 64, initial: 256, maximum: 65536))
    }

    private func markListening() {
        let waiting = ready.withLockedValue { waiting -> [CheckedContinuation<Void, Never>] in
            defer { waiting = nil }
            return waiting ?? []
        }
        for continuation in waiting { continuation.resume() }
    }

    /// Makes `channel` a session of this server, within the connection limits,
    /// on `transport` (which adds the session's handler and frames its messages).
    /// `socket`: the connection's descriptor, when insetd accepted it itself.
    func accept(
        _ channel: any Channel, peer: SessionPeer, transport: any SessionTransport, socket: ConnectedSocket?
    ) throws {
        let key = transport.admissionKey(peer, limits: configuration.limits)
        if let refusal = admission.admit(key) {
            refusals.refused(refusal.reason, metadata: ["peer": "\(peer)"])
            return try channel.pipeline.syncOperations.addHandler(
                RefusingHandler(reason: "too-many-connections", transport: transport))
        }
        channel.closeFuture.whenComplete { [admission] _ in admission.release(key) }
        let id = ClientID(nextClient.withLockedValue { value in
            defer { value += 1 }
            return "c\(value)"
        })
        let loop = channel.eventLoop
        let flushes = pendingFlushes.withLockedValue { batches in
            if let batch = batches[ObjectIdentifier(loop)] { return batch }
            let batch = PendingFlushes(eventLoop: loop)
            batches[ObjectIdentifier(loop)] = batch
            return batch
        }
        let connection = ClientConnection(
            id: id, peer: peer, transport: transport, channel: channel, socket: socket,
            capacity: configuration.outboundCapacity,
            pendingFlushes: flushes, logger: logger)
        registry.add(connection)
        channel.closeFuture.whenComplete { [registry] _ in registry.remove(id) }
        let session = ClientSession(
            connection: connection, authorization: configuration.authorization, registry: registry,
            events: continuation, refusals: refusals, logger: logger)
        try channel.pipeline.syncOperations.addHandler(
            transport.sessionHandler(
                session: session, messageLimit: configuration.lineLimit,
                handshakeTimeout: configuration.limits.handshakeTimeout, logger: logger))
    }
}

/// A system call the server needed failed, or the socket is another daemon's.
package struct ServerError: Error, CustomStringConvertible {
    package var operation: String
    package var errno: Int32

    package init(_ operation: String, errno: Int32) {
        self.operation = operation
        self.errno = errno
    }

    /// Another process accepts connections on `path`.
    package static func socketInUse(_ path: String) -> ServerError {
        ServerError("\(path) is in use by a running insetd (stop it first, or choose another --socket)", errno: EADDRINUSE)
    }

    package var description: String {
        errno == EADDRINUSE ? operation : "\(operation): \(String(cString: strerror(errno)))"
    }
}
