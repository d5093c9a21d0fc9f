import CPerfSupport
import Glibc
import InputTestbed
import InsetProtocol
import InsetSocket

/// Why a measurement could not be taken (the daemon did not answer in time,
/// a socket failed): the harness stops and says which.
struct HarnessError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// One client of the harness: a Unix-socket line stream on the shared
/// `InsetdConnection` (lines under its limit), or a WebSocket session. Lines
/// are matched as bytes, never decoded, so the measuring side costs as little
/// as possible.
final class SocketClient {
    let fd: Int32
    /// The Unix-socket connection; nil for a WebSocket session, whose sends
    /// are masked text frames and whose "lines" are frame payloads.
    private let connection: InsetdConnection?
    private var pending: [UInt8] = []
    private var chunk = [UInt8](repeating: 0, count: 65536)

    init(path: String) throws {
        let connection = try InsetdConnection(path: path)
        self.connection = connection
        fd = connection.descriptor
    }

    /// A WebSocket session with insetd on loopback `port` (see WebSocketClient.swift).
    init(webSocketPort port: Int) throws {
        fd = try WebSocketHandshake.connect(port: port)
        connection = nil
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
    }

    /// Connects to a server that was just started, retrying (up to 1 s) until it
    /// listens, and waits for its greeting line.
    static func connectOnceListening(_ path: String, server: String, greeting: String) throws -> SocketClient {
        for _ in 0..<500 {
            if let client = try? SocketClient(path: path) {
                _ = try client.waitForLine(containing: greeting)
                return client
            }
            pause(nanoseconds: 2_000_000)
        }
        throw HarnessError("\(server) did not listen on \(path)")
    }

    deinit { if connection == nil { close(fd) } }

    /// Sends a line; a client's few bytes always fit the socket buffer.
    func send(_ line: String) throws {
        if let connection { return connection.send(bytes: Array((line + "\n").utf8)) }
        let bytes = WebSocketHandshake.maskedTextFrame(line)
        let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        guard written == bytes.count else { throw HarnessError("short write to the daemon: errno \(errno)") }
    }

    /// Complete lines read but not yet consumed.
    private var queued: [[UInt8]] = []

    /// Reads everything that has arrived, without waiting. Throws at end of stream.
    func fill() throws {
        if let connection {
            do {
                return queued += try connection.availableLines()
            } catch {
                throw HarnessError("the daemon closed a client's connection (\(error))")
            }
        }
        while true {
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count > 0 {
                pending += chunk[..<count]
                if count < chunk.count { break }  // drained: spare the EAGAIN read
                continue
            }
            if count == 0 { throw HarnessError("the daemon closed a client's connection") }
            if errno == EINTR { continue }
            break
        }
        queued += WebSocketHandshake.takeFrames(&pending)
    }

    /// Drops queued lines up to and including the first containing `pattern`;
    /// false (and nothing dropped) if none does.
    func consume(through pattern: [UInt8]) -> Bool {
        guard let index = queued.firstIndex(where: { $0.contains(pattern) }) else { return false }
        queued.removeFirst(index + 1)
        return true
    }

    /// Reads what has arrived and returns every line (or frame payload), dropping them.
    func takeAll() throws -> [[UInt8]] {
        try fill()
        defer { queued.removeAll() }
        return queued
    }

    /// Reads what has arrived and drops every line; returns how many there were.
    func discardAll() throws -> Int {
        try fill()
        defer { queued.removeAll() }
        return queued.count
    }

    /// Waits (up to `timeout` ms) for a line containing `needle`, consuming the
    /// lines up to it. Returns the monotonic time at which it was read.
    func waitForLine(containing needle: String, timeout: Int32 = 5000) throws -> UInt64 {
        let deadline = monotonicNanoseconds() + UInt64(timeout) * 1_000_000
        let pattern = Array(needle.utf8)
        while true {
            try fill()
            if consume(through: pattern) { return monotonicNanoseconds() }
            let left = Int64(deadline) - Int64(monotonicNanoseconds())
            guard left > 0 else { throw HarnessError("no line containing \(needle) within \(timeout) ms") }
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            _ = poll(&poller, 1, Int32(left / 1_000_000) + 1)
        }
    }
}

extension Array where Element == UInt8 {
    func contains(_ pattern: [UInt8]) -> Bool {
        guard let first = pattern.first, pattern.count <= count else { return false }
        var index = 0
        while index + pattern.count <= count {
            if self[index] == first, self[index..<(index + pattern.count)].elementsEqual(pattern) { return true }
            index += 1
        }
        return false
    }
}

/// Many clients watched with one epoll set, to time a broadcast: when has every
/// one of them received its line? (poll(2) over 1000 descriptors per wakeup
/// would make the harness, not the daemon, the slow side.)
final class ClientFleet {
    private(set) var clients: [SocketClient] = []
    private let epoll = epoll_create1(Int32(EPOLL_CLOEXEC))

    deinit { close(epoll) }

    var count: Int { clients.count }

    func add(_ client: SocketClient) {
        var event = epoll_event()
        event.events = EPOLLIN.rawValue
        event.data.u64 = UInt64(clients.count)
        epoll_ctl(epoll, EPOLL_CTL_ADD, client.fd, &event)
        clients.append(client)
    }

    /// Disconnects every client (closing a descriptor also takes it out of the epoll set).
    func disconnectAll() {
        clients.removeAll()
    }

    /// Waits until every client has read a line containing `needle` (each one's
    /// lines up to it are consumed); returns the time the last one arrived.
    func waitUntilEveryClientReads(_ needle: String, timeout: Int32 = 10_000) throws -> UInt64 {
        let pattern = Array(needle.utf8)
        var waiting = Set(clients.indices)
        var last: UInt64 = 0
        let deadline = monotonicNanoseconds() + UInt64(timeout) * 1_000_000
        var events = [epoll_event](repeating: epoll_event(), count: 1024)
        while !waiting.isEmpty {
            let left = Int64(deadline) - Int64(monotonicNanoseconds())
            guard left > 0 else { throw HarnessError("\(waiting.count) of \(count) clients got no \(needle) within \(timeout) ms") }
            let ready = epoll_wait(epoll, &events, Int32(events.count), Int32(left / 1_000_000) + 1)
            for event in events.prefix(Int(max(ready, 0))) {
                let index = Int(event.data.u64)
                try clients[index].fill()
                if waiting.contains(index), clients[index].consume(through: pattern) {
                    waiting.remove(index)
                    last = monotonicNanoseconds()
                }
            }
        }
        return last
    }

    /// Reads, counts and drops whatever has arrived on every client, without waiting.
    func discardAll() throws -> Int {
        try clients.reduce(0) { $0 + (try $1.discardAll()) }
    }
}
