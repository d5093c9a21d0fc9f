import Glibc

/// Unix-domain sockets for the tests and the harness, so the `sockaddr_un`
/// set-up is written once. Every socket is close-on-exec: children started by
/// a test must not inherit them.
public enum UnixSocket {
    /// A stream socket connected to `path`.
    public static func connect(_ path: String) throws(UnixSocketError) -> Int32 {
        try open(path, type: SOCK_STREAM, operation: "connect") { fd, address, length in Glibc.connect(fd, address, length) }
    }

    /// A socket bound to `path`; a stream socket also listens.
    public static func bind(_ path: String, type: __socket_type = SOCK_STREAM) throws(UnixSocketError) -> Int32 {
        try open(path, type: type, operation: "bind") { fd, address, length in
            let bound = Glibc.bind(fd, address, length)
            return bound == 0 && type == SOCK_STREAM ? listen(fd, 128) : bound
        }
    }

    private static func open(
        _ path: String, type: __socket_type, operation: String,
        _ body: (Int32, UnsafePointer<sockaddr>, socklen_t) -> Int32
    ) throws(UnixSocketError) -> Int32 {
        let fd = socket(AF_UNIX, Int32(type.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw UnixSocketError(operation: "socket", path: path, errno: errno) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(path.utf8).prefix($0.count - 1)) }
        let rc = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard rc == 0 else {
            let error = errno
            close(fd)
            throw UnixSocketError(operation: operation, path: path, errno: error)
        }
        return fd
    }
}

/// A socket call that failed, with the path and errno.
public struct UnixSocketError: Error, CustomStringConvertible {
    public var operation: String
    public var path: String
    public var errno: Int32
    public var description: String { "\(operation) \(path): \(String(cString: strerror(errno)))" }
}
