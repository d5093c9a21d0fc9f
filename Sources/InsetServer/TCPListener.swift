import Glibc
import NIOCore

/// The WebSocket's listening TCP socket, opened by insetd rather than NIO's
/// `ServerBootstrap`, so that insetd accepts its connections itself
/// (`ConnectionAcceptor` says why).
///
/// The host is resolved as NIO's bootstrap resolves it (its first address), and
/// a failure carries its errno in an `IOError`, as NIO's would
/// (`WebSocketListenError` reads it from there).
enum TCPListener {
    /// A socket bound to `host`:`port` and listening (close-on-exec), and the
    /// port it has: `port`, or the one the kernel chose for port 0. The queue
    /// is as long as the kernel allows: every tab of a kiosk may connect at
    /// once, and the acceptor leaves connections queued while it has no room.
    static func open(host: String, port: Int, backlog: Int32 = SOMAXCONN) throws -> (descriptor: Int32, port: Int) {
        let address = try SocketAddress.makeAddressResolvingHost(host, port: port)
        let family = address.protocol == .inet6 ? AF_INET6 : AF_INET
        let fd = socket(family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw IOError(errnoCode: errno, reason: "socket") }
        do {
            var one: Int32 = 1
            guard setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size)) == 0 else {
                throw IOError(errnoCode: errno, reason: "setsockopt")
            }
            guard address.withSockAddr({ bind(fd, $0, socklen_t($1)) }) == 0 else {
                throw IOError(errnoCode: errno, reason: "bind")
            }
            guard listen(fd, backlog) == 0 else { throw IOError(errnoCode: errno, reason: "listen") }
            return (fd, try boundPort(of: fd))
        } catch {
            close(fd)
            throw error
        }
    }

    private static func boundPort(of fd: Int32) throws -> Int {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let named = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard named == 0 else { throw IOError(errnoCode: errno, reason: "getsockname") }
        // In network order, where each family's address keeps it.
        let family = Int32(storage.ss_family)
        let networkOrder = withUnsafeBytes(of: &storage) { bytes in
            family == AF_INET6
                ? bytes.load(fromByteOffset: MemoryLayout<sockaddr_in6>.offset(of: \.sin6_port)!, as: UInt16.self)
                : bytes.load(fromByteOffset: MemoryLayout<sockaddr_in>.offset(of: \.sin_port)!, as: UInt16.self)
        }
        return Int(UInt16(bigEndian: networkOrder))
    }
}
