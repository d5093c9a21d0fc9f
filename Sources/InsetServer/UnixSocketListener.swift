import Glibc
import InsetSocket
import Logging
import NIOCore

/// The Unix socket's listener, as `InsetWebSocketServer` is the WebSocket's:
/// binds the path (or takes the socket systemd passed), accepts connections
/// itself and makes each a session of its `InsetServer` on
/// `UnixSocketTransport`, its peer known by the kernel's credentials.
///
/// Why apart from the server: the server holds the sessions, the registry and
/// the outbox for every transport; what is the Unix socket's (the path, its
/// mode, a stale socket file, peer credentials) lives here.
final class UnixSocketListener: Sendable {
    private let server: InsetServer
    private let listener: Int32
    private let acceptor: ConnectionAcceptor

    /// Listens on `address` and accepts from then on, until `stop()`; the
    /// socket stays open (connecting peers wait in its queue) until `close()`.
    init(_ address: InsetServer.Listener, server: InsetServer, logger: Logger) throws {
        self.server = server
        listener = try Self.listen(address, logger: logger)
        // insetd accepts its connections itself (`ConnectionAcceptor` says why)
        // and hands each to NIO, which serves it from then on.
        do {
            acceptor = try ConnectionAcceptor(listener: listener, refusals: server.refusals) { [server] fd in
                Self.serve(fd, server: server)
            }
            try acceptor.start()
        } catch {
            Glibc.close(listener)
            throw error
        }
    }

    /// Stops accepting.
    func stop() {
        acceptor.stop()
    }

    /// Closes the listening socket, after `stop()`.
    func close() {
        Glibc.close(listener)
    }

    private static func listen(_ address: InsetServer.Listener, logger: Logger) throws -> Int32 {
        switch address {
        case .path(let path):
            try StaleSocket.removeIfStale(path)
            let listener: Int32
            do {
                listener = try UnixSocket.bind(path)
            } catch {
                throw ServerError("listen on \(path)", errno: error.errno)
            }
            guard chmod(path, 0o660) == 0 else {
                let failure = errno
                Glibc.close(listener)
                throw ServerError("chmod 0660 \(path)", errno: failure)
            }
            logger.info("listening", metadata: ["socket": "\(path)"])
            return listener
        case .inherited(let fd):
            logger.info("listening on the socket systemd passed", metadata: ["fd": "\(fd)"])
            return fd
        }
    }

    /// Makes a channel of the connection insetd accepted on `fd` (NIO owns the
    /// descriptor from here, and closes it when the channel cannot be made).
    private static func serve(_ fd: Int32, server: InsetServer) -> EventLoopFuture<Void> {
        InsetServer.connectionBootstrap(group: server.group)
            .channelInitializer { channel in
                // The peer's credentials and groups as of its `connect()`, nil
                // when the kernel's record could not be read.
                PeerCredentials.read(from: channel).flatMapThrowing { peer in
                    try server.accept(
                        channel, peer: .local(peer), transport: UnixSocketTransport(),
                        socket: ConnectedSocket(descriptor: fd))
                }
            }
            .withConnectedSocket(fd).map { _ in }
    }
}
