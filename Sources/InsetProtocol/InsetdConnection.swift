#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc
import InsetCore
import InsetSocket

/// A client's connection to insetd over its Unix socket: the socket found by
/// the one path rule (`InsetdSocketPath.forClient`), the hello, lines read
/// under the framer's limit and decoded with this connection's id
/// (`InsetdLines`), requests written whole, replies matched by request id.
/// The project's socket clients (insetctl, insetd-osk, the testbed's
/// `LineClient`, the benchmark harness) sit on it and keep only what is their
/// own; it reads blocking (with a timeout) or without waiting, as each needs,
/// and owns its descriptor.
public final class InsetdConnection {
    public typealias Failure = InsetdLines.Failure

    public let descriptor: Int32
    private var lines: InsetdLines
    private var ready: [[UInt8]] = []
    private var next = 0
    private var pendingOutput: [UInt8] = []
    private var chunk = [UInt8](repeating: 0, count: 65536)
    private var closed = false

    /// Takes over a connected stream socket (closed with the connection).
    public init(descriptor: Int32, limit: Int = LineFramer.defaultLimit) {
        self.descriptor = descriptor
        lines = InsetdLines(limit: limit)
    }

    /// Connects to insetd at `path`: a Unix stream socket connects at once or fails.
    public convenience init(path: String, limit: Int = LineFramer.defaultLimit) throws(UnixSocketError) {
        self.init(descriptor: try UnixSocket.connect(path), limit: limit)
    }

    /// The socket a client connects to when it names none (`explicit` nil or
    /// empty): docs/PROTOCOL.md's rule, read from this process's environment.
    public static func socketPath(explicit: String? = nil) -> String {
        InsetdSocketPath.forClient(explicit: explicit, environment: ProcessInfo.processInfo.environment)
    }

    deinit { close() }

    /// Closes the socket now (closing twice is harmless).
    public func close() {
        guard !closed else { return }
        closed = true
        Glibc.close(descriptor)
    }

    /// This connection's id, from the welcome.
    public var client: ClientID { lines.client }

    // MARK: - Writing

    /// Whether bytes wait for the socket to take them (`POLLOUT`).
    public var wantsWrite: Bool { !pendingOutput.isEmpty }

    /// Sends `request` as one line (`ClientRequest.lineBytes`).
    public func send(_ request: ClientRequest, waiting: Bool = true) {
        send(bytes: request.lineBytes(), waiting: waiting)
    }

    /// Sends the hello, naming this client `client`.
    public func sendHello(client: String, waiting: Bool = true) {
        send(InsetdLines.hello(client: client), waiting: waiting)
    }

    /// Sends bytes as they are (a test's hand-made line, a broken one).
    /// `waiting`: returns once the socket took all of them; otherwise what it
    /// does not take now waits for `flush`.
    public func send(bytes: [UInt8], waiting: Bool = true) {
        pendingOutput += bytes
        flush(waiting: waiting)
    }

    /// Writes what waits; `waiting`: until all is written or the peer is gone.
    public func flush(waiting: Bool = false) {
        while !pendingOutput.isEmpty {
            let n = pendingOutput.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
            if n > 0 {
                pendingOutput.removeFirst(n)
                continue
            }
            let failure = n < 0 ? errno : 0
            if failure == EINTR { continue }
            guard failure == EAGAIN || failure == EWOULDBLOCK else {
                // The peer is gone: the next read says so; what it never took is dropped.
                pendingOutput = []
                return
            }
            guard waiting else { return }
            var poller = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
            _ = poll(&poller, 1, -1)
        }
    }

    // MARK: - Reading

    /// Bytes received and not yet returned as lines (whole or partial).
    public var pendingCount: Int { lines.pendingCount + ready[next...].reduce(0) { $0 + $1.count + 1 } }

    /// The next line, without its newline; nil when `timeout` seconds passed
    /// first (nil `timeout`: wait as long as it takes).
    public func line(timeout: Double?) throws(Failure) -> [UInt8]? {
        let deadline = timeout.map { Date().addingTimeInterval($0) }
        while true {
            if let line = takeReady() { return line }
            let wait = deadline.map { Int32(max(0, $0.timeIntervalSinceNow) * 1000) } ?? -1
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let polled = poll(&poller, 1, wait)
            if polled == 0 { return nil }
            if polled < 0 {
                if errno == EINTR { continue }
                throw .failed(errno: errno)
            }
            _ = try receive()
        }
    }

    /// The next line and the message it holds (nil: none this build knows).
    public func message(timeout: Double?) throws(Failure) -> (line: [UInt8], message: DaemonMessage?)? {
        guard let line = try line(timeout: timeout) else { return nil }
        return (line, lines.decode(line))
    }

    /// The next message this build knows (others are skipped); nil on timeout.
    public func nextMessage(timeout: Double?) throws(Failure) -> DaemonMessage? {
        let deadline = timeout.map { Date().addingTimeInterval($0) }
        while let received = try message(timeout: deadline.map { max(0, $0.timeIntervalSinceNow) }) {
            if let message = received.message { return message }
        }
        return nil
    }

    /// The reply (or error) carrying `id`; nil on timeout. Messages before it
    /// go to `other`.
    public func reply(
        to id: RequestID, timeout: Double, other: (DaemonMessage) -> Void = { _ in }
    ) throws(Failure) -> DaemonMessage? {
        let deadline = Date().addingTimeInterval(timeout)
        while let message = try nextMessage(timeout: max(0, deadline.timeIntervalSinceNow)) {
            if message.requestID == id { return message }
            other(message)
        }
        return nil
    }

    /// Decodes a line this connection read, learning the id from a welcome.
    public func decode(_ line: [UInt8]) throws(ProtocolError) -> DaemonMessage {
        try lines.decodeOrThrow(line)
    }

    /// Every complete line that has arrived, without waiting.
    public func availableLines() throws(Failure) -> [[UInt8]] {
        while try receive() {}
        var out: [[UInt8]] = []
        while let line = takeReady() { out.append(line) }
        return out
    }

    /// Every message that has arrived, without waiting (lines no message this build knows are skipped).
    public func availableMessages() throws(Failure) -> [DaemonMessage] {
        try availableLines().compactMap { lines.decode($0) }
    }

    private func takeReady() -> [UInt8]? {
        guard next < ready.count else {
            ready.removeAll(keepingCapacity: true)
            next = 0
            return nil
        }
        defer { next += 1 }
        return ready[next]
    }

    /// One read without waiting; true when the socket may hold more.
    private func receive() throws(Failure) -> Bool {
        let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
        if count < 0 {
            if errno == EINTR { return true }
            if errno == EAGAIN || errno == EWOULDBLOCK { return false }
            throw .failed(errno: errno)
        }
        guard count > 0 else { throw .closed }
        ready += try lines.split(chunk[..<count])
        return count == chunk.count
    }
}
