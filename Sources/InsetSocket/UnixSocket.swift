import CSocketCalls
import Glibc

/// Unix-domain sockets, the one place a `sockaddr_un` is built: for insetd's
/// own socket (its clients, its stale-socket probe), systemd's notification
/// socket, sway's IPC socket and the tests' sockets. Every socket is
/// close-on-exec, so children never inherit one; a raw address never leaves
/// this type.
public enum UnixSocket {
    /// A socket connected to `path`. `nonBlocking`: the connect does not wait
    /// (a listener with a full queue answers `EAGAIN`).
    public static func connect(
        _ path: String, type: __socket_type = SOCK_STREAM, nonBlocking: Bool = false
    ) throws(UnixSocketError) -> Int32 {
        try open(path, type: type, nonBlocking: nonBlocking, operation: "connect") { fd, address, length in
            Glibc.connect(fd, address, length)
        }
    }

    /// A socket bound to `path`; a stream socket also listens.
    public static func bind(_ path: String, type: __socket_type = SOCK_STREAM) throws(UnixSocketError) -> Int32 {
        try open(path, type: type, nonBlocking: false, operation: "bind") { fd, address, length in
            let bound = Glibc.bind(fd, address, length)
            return bound == 0 && type == SOCK_STREAM ? listen(fd, 128) : bound
        }
    }

    /// Sends one datagram to the socket at `path` (a leading `@` names an
    /// abstract socket, as `NOTIFY_SOCKET` may).
    public static func sendDatagram(_ message: [UInt8], to path: String) throws(UnixSocketError) {
        let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw UnixSocketError(operation: "socket", path: path, errno: errno) }
        defer { close(fd) }
        let sent = try withAddress(of: path) { address, length in
            message.withUnsafeBytes { sendto(fd, $0.baseAddress, $0.count, 0, address, length) }
        }
        guard sent == message.count else { throw UnixSocketError(operation: "send to", path: path, errno: errno) }
    }

    private static func open(
        _ path: String, type: __socket_type, nonBlocking: Bool, operation: String,
        _ body: (Int32, UnsafePointer<sockaddr>, socklen_t) -> Int32
    ) throws(UnixSocketError) -> Int32 {
        let flags = Int32(SOCK_CLOEXEC.rawValue) | (nonBlocking ? Int32(SOCK_NONBLOCK.rawValue) : 0)
        let fd = socket(AF_UNIX, Int32(type.rawValue) | flags, 0)
        guard fd >= 0 else { throw UnixSocketError(operation: "socket", path: path, errno: errno) }
        let rc: Int32
        do throws(UnixSocketError) {
            rc = try withAddress(of: path) { address, length in body(fd, address, length) }
        } catch {
            close(fd)
            throw error
        }
        guard rc == 0 else {
            let failure = errno
            close(fd)
            throw UnixSocketError(operation: operation, path: path, errno: failure)
        }
        return fd
    }

    /// Runs `body` with `path` as a socket address and its length.
    private static func withAddress<T>(
        of path: String, _ body: (UnsafePointer<sockaddr>, socklen_t) -> T
    ) throws(UnixSocketError) -> T {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        var bytes = Array(path.utf8)
        let abstract = bytes.first == UInt8(ascii: "@")
        if abstract { bytes[0] = 0 }
        // A path needs its terminating NUL within sun_path; an abstract name does not.
        guard !bytes.isEmpty, bytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
            throw UnixSocketError(operation: "address", path: path, errno: ENAMETOOLONG)
        }
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
        let length = abstract ? MemoryLayout<sa_family_t>.size + bytes.count : MemoryLayout<sockaddr_un>.size
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(length)) }
        }
    }
}

/// A socket call that failed: what was tried, on which path, and errno.
public struct UnixSocketError: Error, Equatable, CustomStringConvertible {
    public var operation: String
    public var path: String
    public var errno: Int32

    public init(operation: String, path: String, errno: Int32) {
        self.operation = operation
        self.path = path
        self.errno = errno
    }

    /// strerror's words for `errno`.
    public var reason: String { String(cString: strerror(errno)) }

    /// Nobody listens there (no file, or a file nobody accepts on): the
    /// socket's owner is not running.
    public var nobodyListens: Bool { errno == ENOENT || errno == ECONNREFUSED }

    public var description: String {
        errno == ENAMETOOLONG ? "socket path is too long: \(path)" : "\(operation) \(path): \(reason)"
    }
}

extension UnixSocket {
    /// Accepts one waiting connection on `listener` (any stream socket, Unix or
    /// TCP): its descriptor, non-blocking and close-on-exec from the start, or
    /// -1 with `errno` set, as accept4(2).
    public static func acceptConnection(on listener: Int32) -> Int32 {
        csocket_accept_nonblocking(listener)
    }
}

extension UnixSocket {
    /// The process listening on the stream socket at `path` (`SO_PEERCRED` of a
    /// connection made and closed at once): who a session's Wayland compositor
    /// is, which no protocol message says. The connect does not wait on a
    /// listener with a full queue (`EAGAIN`); a listener in another pid
    /// namespace has no pid here (`ESRCH`).
    public static func listeningProcess(at path: String) throws(UnixSocketError) -> Int32 {
        let fd = try connect(path, nonBlocking: true)
        defer { close(fd) }
        var credentials = PeerCredentialsRecord()
        var length = socklen_t(MemoryLayout<PeerCredentialsRecord>.size)
        guard getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &credentials, &length) == 0 else {
            throw UnixSocketError(operation: "peer credentials of", path: path, errno: errno)
        }
        guard credentials.pid > 0 else { throw UnixSocketError(operation: "peer credentials of", path: path, errno: ESRCH) }
        return credentials.pid
    }
}

/// `struct ucred` (pid, uid, gid), which Glibc's Swift module leaves out because
/// it is guarded by `_GNU_SOURCE`; its layout is fixed kernel ABI. What
/// `SO_PEERCRED` answers, here and for insetd's accepted clients.
public struct PeerCredentialsRecord: Sendable {
    public var pid: Int32 = 0
    public var uid: UInt32 = 0
    public var gid: UInt32 = 0

    public init() {}
}
