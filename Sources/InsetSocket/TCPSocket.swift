import Glibc

/// TCP sockets, the one place an IP socket address is built: insetd's
/// WebSocket listener, and the pages the tests and the benchmarks connect.
/// Every socket is close-on-exec; a raw address never leaves this type.
public enum TCPSocket {
    /// A socket bound to `host`:`port` (a name is resolved, the first address
    /// taken) and listening, and the port it has: `port`, or the one the
    /// kernel chose for port 0. The queue is as long as the kernel allows by
    /// default: every tab of a kiosk may connect at once.
    public static func listen(host: String, port: Int, backlog: Int32 = SOMAXCONN) throws(TCPSocketError) -> (
        descriptor: Int32, port: Int
    ) {
        try withAddress(host: host, port: port, passive: true) { (address, length, family) throws(TCPSocketError) in
            let fd = socket(family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            guard fd >= 0 else { throw TCPSocketError(operation: "socket", host: host, port: port, errno: errno) }
            do throws(TCPSocketError) {
                var one: Int32 = 1
                guard setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size)) == 0 else {
                    throw TCPSocketError(operation: "setsockopt", host: host, port: port, errno: errno)
                }
                guard bind(fd, address, length) == 0 else {
                    throw TCPSocketError(operation: "bind", host: host, port: port, errno: errno)
                }
                guard Glibc.listen(fd, backlog) == 0 else {
                    throw TCPSocketError(operation: "listen", host: host, port: port, errno: errno)
                }
                return (fd, try boundPort(of: fd, host: host))
            } catch {
                close(fd)
                throw error
            }
        }
    }

    /// A socket connected to `host`:`port` (blocking).
    public static func connect(host: String = "127.0.0.1", port: Int) throws(TCPSocketError) -> Int32 {
        try withAddress(host: host, port: port, passive: false) { (address, length, family) throws(TCPSocketError) in
            let fd = socket(family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            guard fd >= 0 else { throw TCPSocketError(operation: "socket", host: host, port: port, errno: errno) }
            guard Glibc.connect(fd, address, length) == 0 else {
                let failure = errno
                close(fd)
                throw TCPSocketError(operation: "connect", host: host, port: port, errno: failure)
            }
            return fd
        }
    }

    /// A loopback port nothing listens on now (bound to port 0, then released).
    public static func freeLoopbackPort() throws(TCPSocketError) -> Int {
        let (fd, port) = try listen(host: "127.0.0.1", port: 0)
        close(fd)
        return port
    }

    /// Resolves `host` as NIO's bootstrap does (getaddrinfo, the first address).
    private static func withAddress<T>(
        host: String, port: Int, passive: Bool,
        _ body: (UnsafePointer<sockaddr>, socklen_t, Int32) throws(TCPSocketError) -> T
    ) throws(TCPSocketError) -> T {
        guard (0...65535).contains(port) else { throw TCPSocketError(operation: "resolve", host: host, port: port, errno: EINVAL) }
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = passive ? AI_PASSIVE : 0
        var found: UnsafeMutablePointer<addrinfo>?
        let rc = getaddrinfo(host, String(port), &hints, &found)
        guard rc == 0, let first = found, let address = first.pointee.ai_addr else {
            let reason = rc == 0 ? "no address" : String(cString: gai_strerror(rc))
            throw TCPSocketError(operation: "resolve", host: host, port: port, errno: nil, reason: reason)
        }
        defer { freeaddrinfo(found) }
        return try body(address, first.pointee.ai_addrlen, first.pointee.ai_family)
    }

    private static func boundPort(of fd: Int32, host: String) throws(TCPSocketError) -> Int {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let named = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard named == 0 else { throw TCPSocketError(operation: "getsockname", host: host, port: 0, errno: errno) }
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

/// A TCP socket call that failed: which, for which address, and the errno it
/// set (none when the host did not resolve; `reason` says why then).
public struct TCPSocketError: Error, Equatable, CustomStringConvertible {
    public var operation: String
    public var host: String
    public var port: Int
    public var errno: Int32?
    public var reason: String

    public init(operation: String, host: String, port: Int, errno: Int32?, reason: String? = nil) {
        self.operation = operation
        self.host = host
        self.port = port
        self.errno = errno
        self.reason = reason ?? errno.map { String(cString: strerror($0)) } ?? "failed"
    }

    public var description: String { "\(operation) \(host):\(port): \(reason)" }
}
