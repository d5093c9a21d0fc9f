import Glibc
import InsetSocket
import InsetProtocol
import Logging
import NIOCore

/// The socket path's previous occupant: a file left by a daemon that died is
/// removed; a socket some process still accepts on is not.
///
/// Why not NIO's `cleanupExistingSocketFile`: it unlinks whatever is there, so a
/// second insetd started by mistake would take the path from a running one,
/// which would go on running with nobody able to reach it.
enum StaleSocket {
    static func removeIfStale(_ path: String) throws {
        var info = stat()
        guard lstat(path, &info) == 0 else {
            if errno == ENOENT { return }
            throw ServerError("stat \(path)", errno: errno)
        }
        guard info.st_mode & S_IFMT == S_IFSOCK else {
            throw ServerError("\(path) exists and is not a socket", errno: EEXIST)
        }
        switch probe(path) {
        case 0, EAGAIN, EINPROGRESS: throw ServerError.socketInUse(path)
        case ECONNREFUSED:
            guard unlink(path) == 0 || errno == ENOENT else { throw ServerError("remove stale socket \(path)", errno: errno) }
        case ENOENT: return
        case let error: throw ServerError("connect to the existing socket \(path)", errno: error)
        }
    }

    /// Connects without blocking: 0 or the errno (EAGAIN: a listener whose
    /// queue is full, which is still a live listener).
    private static func probe(_ path: String) -> Int32 {
        do {
            close(try UnixSocket.connect(path, nonBlocking: true))
            return 0
        } catch {
            return error.errno
        }
    }
}

/// The descriptor limit the connection caps live within.
enum DescriptorLimit {
    /// Descriptors kept for everything that is not a client: input devices,
    /// udev, the journal, the listening socket.
    static let reserve = 128

    /// The hard descriptor limit (the soft one is raised to it at start), or
    /// nil when there is none.
    static var hard: Int? {
        var limit = rlimit()
        guard getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_max != rlim_t.max else {
            return nil
        }
        return Int(clamping: limit.rlim_max)
    }

    /// Raises the soft limit to the hard one (systemd's `LimitNOFILE=` sets both;
    /// a shell's soft limit is often 1024), then warns when the caps do not fit:
    /// insetd still runs, and accepting backs off whenever descriptors run out.
    static func raiseAndCheck(for limits: ConnectionLimits, logger: Logger) {
        var limit = rlimit()
        guard getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return }
        if limit.rlim_cur < limit.rlim_max {
            var raised = limit
            raised.rlim_cur = limit.rlim_max
            if setrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &raised) == 0 { limit = raised }
        }
        let needed = rlim_t(limits.maximumConnections + reserve)
        if limit.rlim_cur != rlim_t.max, limit.rlim_cur < needed {  // rlim_t.max: RLIM_INFINITY
            logger.warning(
                "the descriptor limit is below server.max-connections plus \(reserve) for devices; raise LimitNOFILE= or lower the cap",
                metadata: ["limit": "\(limit.rlim_cur)", "maxConnections": "\(limits.maximumConnections)"])
        }
    }
}

/// Says `bye` to a connection the caps do not admit, and closes it.
final class RefusingHandler: ChannelInboundHandler, Sendable {
    typealias InboundIn = ByteBuffer
    let reason: String
    let transport: any SessionTransport

    init(reason: String, transport: any SessionTransport) {
        self.reason = reason
        self.transport = transport
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { refuse(context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        refuse(context)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {}

    // What the peer sends meanwhile (a WebSocket frame error, say) changes nothing.
    func errorCaught(context: ChannelHandlerContext, error: any Error) {}

    private func refuse(_ context: ChannelHandlerContext) {
        // A WebSocket's close code: 1013, try again later.
        transport.finish(context.channel, last: transport.framing.wire(.bye(reason: reason)), code: 1013)
    }
}
