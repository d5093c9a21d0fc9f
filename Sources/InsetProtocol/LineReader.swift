import Glibc

/// Reads insetd's lines from a connected, blocking socket, with a timeout:
/// the one way the project's blocking clients (insetctl, the tests'
/// `LineClient`) take lines off a socket. Lines are split by `LineFramer`, so
/// each has its limit; the socket stays the caller's to close.
public struct LineReader {
    /// Why no line came.
    public enum Failure: Error, Equatable {
        /// The peer closed the connection.
        case closed
        /// A line longer than the framer's limit: the stream cannot be
        /// resynchronised.
        case tooLong
        /// `poll(2)` or `read(2)` failed with this errno.
        case failed(errno: Int32)
    }

    public let descriptor: Int32
    private var framer: LineFramer
    private var lines: [[UInt8]] = []
    private var next = 0

    public init(descriptor: Int32, limit: Int = LineFramer.defaultLimit) {
        self.descriptor = descriptor
        framer = LineFramer(limit: limit)
    }

    /// Bytes received and not yet returned as lines (whole or partial).
    public var pendingCount: Int { framer.pendingCount + lines[next...].reduce(0) { $0 + $1.count + 1 } }

    /// The next line, without its newline; nil when `timeout` seconds passed
    /// first (nil `timeout`: wait as long as it takes).
    public mutating func line(timeout: Double?) throws(Failure) -> [UInt8]? {
        while true {
            if next < lines.count {
                defer { next += 1 }
                return lines[next]
            }
            lines.removeAll(keepingCapacity: true)
            next = 0
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, timeout.map { Int32(max(0, $0) * 1000) } ?? -1)
            if ready == 0 { return nil }
            if ready < 0 {
                if errno == EINTR { continue }
                throw .failed(errno: errno)
            }
            var chunk = [UInt8](repeating: 0, count: 65536)
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                // The socket's own receive timeout (`SO_RCVTIMEO`).
                if errno == EAGAIN || errno == EWOULDBLOCK { return nil }
                throw .failed(errno: errno)
            }
            guard count > 0 else { throw .closed }
            for output in framer.feed(chunk[..<count]) {
                switch output {
                case .line(let line): lines.append(line)
                case .tooLong: throw .tooLong
                }
            }
        }
    }
}
