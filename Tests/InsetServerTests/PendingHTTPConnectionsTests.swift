import Glibc
import NIOConcurrencyHelpers
import NIOCore
import NIOEmbedded
import Testing

@testable import InsetServer

/// The caps on the WebSocket listener's unfinished connections: which one
/// makes room (the slow, never the busy), when the acceptor waits, and what
/// the caps are for a descriptor limit.
@Suite struct PendingHTTPConnectionsTests {
    /// Caps of 3 and 5; a connection is slow from the start (no `slowAfter`)
    /// but for the tests of that grace.
    static let limits = PendingHTTPConnections.Limits(
        perAddress: 3, total: 5, requestTimeout: .seconds(5), slowAfter: .zero)

    /// `arrivals` connect in order (by address); an address ending in `*` is a
    /// connection whose whole request waits unread in its socket (busy), any
    /// other has sent none or part of one (slow).
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var arrivals: [String]
        /// Index of the arrival closed to make room for each arrival, or nil.
        var evicted: [Int?]
        /// Whether the acceptor may take one more after the last arrival.
        var roomAfter: Bool
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "under both caps nothing is closed", arrivals: ["a", "b", "a"], evicted: [nil, nil, nil], roomAfter: true),
        Case(
            name: "the fourth from one address closes that address's oldest",
            arrivals: ["a", "b", "a", "a", "a"], evicted: [nil, nil, nil, nil, 0], roomAfter: true),
        Case(
            // a a a b b: 5 in all; the sixth (d) is under its address's cap but
            // over the total: a, holding 3, gives up its oldest, arrival 0.
            name: "over the total the busiest address gives up its oldest",
            arrivals: ["a", "a", "a", "b", "b", "d"], evicted: [nil, nil, nil, nil, nil, 0], roomAfter: true),
        Case(
            name: "a page behind a flood from its own address gets in",
            arrivals: ["lo", "lo", "lo", "lo", "lo", "lo"], evicted: [nil, nil, nil, 0, 1, 2], roomAfter: true),
        Case(
            // lo* lo lo*: at the cap of 3 the slow one (1) makes room, not the older busy one.
            name: "over an address's cap its oldest slow one makes room, not a busy older one",
            arrivals: ["lo*", "lo", "lo*", "lo*"], evicted: [nil, nil, nil, 1], roomAfter: true),
        Case(
            // Four busy from one address: nobody is closed, the fourth is
            // counted beyond the address's cap (it is served in a moment).
            name: "a burst of complete requests from one address is all kept",
            arrivals: ["lo*", "lo*", "lo*", "lo*"], evicted: [nil, nil, nil, nil], roomAfter: true),
        Case(
            // Five busy fill the total: the acceptor waits instead of closing one.
            name: "with every place busy the acceptor waits",
            arrivals: ["lo*", "lo*", "x*", "x*", "y*"], evicted: [nil, nil, nil, nil, nil], roomAfter: false),
        Case(
            // Over the total, the busiest address (lo, all busy) has no slow one:
            // the oldest slow one anywhere (y, arrival 3) makes room.
            name: "over the total a slow one of another address makes room for busy ones",
            arrivals: ["lo*", "lo*", "lo*", "y", "x*", "lo*"], evicted: [nil, nil, nil, nil, nil, 3], roomAfter: false),
    ]

    @Test(arguments: cases)
    func theOldestSlowConnectionMakesRoom(_ case_: Case) throws {
        let busy = Set(case_.arrivals.indices.filter { case_.arrivals[$0].hasSuffix("*") }.map(Int32.init))
        let pending = PendingHTTPConnections(limits: Self.limits, requestWaiting: { busy.contains($0) })
        var channels: [EmbeddedChannel] = []
        for (index, address) in case_.arrivals.enumerated() {
            let channel = EmbeddedChannel()
            channels.append(channel)
            let evicted = pending.admit(channel, address: String(address.prefix { $0 != "*" }), descriptor: Int32(index))
                .evicted
            let expected = case_.evicted[index].map { channels[$0] }
            #expect((evicted as? EmbeddedChannel) === expected, "arrival \(index) (\(address))")
        }
        #expect(pending.hasRoom == case_.roomAfter)
    }

    /// A first request waiting unread waits on insetd: however long insetd
    /// takes, it is never closed for room. An answered connection whose next
    /// requests stay unread (its peer never reads the answers) is safe for
    /// `busyFor` (1 s) after its answer, then slow.
    @Test func aWaitingFirstRequestIsNeverClosedForRoom() {
        let clock = NIOLockedValueBox(NIODeadline.uptimeNanoseconds(1_000_000_000))
        let pending = PendingHTTPConnections(
            limits: Self.limits, requestWaiting: { _ in true }, now: { clock.withLockedValue { $0 } })
        let channels = (0..<5).map { _ in EmbeddedChannel() }
        var tickets: [UInt64] = []
        for (index, channel) in channels.enumerated() {
            let admitted = pending.admit(channel, address: "lo", descriptor: Int32(index))
            #expect(admitted.evicted == nil)
            tickets.append(admitted.ticket)
        }
        clock.withLockedValue { $0 = $0 + .seconds(30) }
        #expect(!pending.hasRoom, "30 s on: still waiting on insetd")
        pending.awaitingRequest(tickets[2])
        clock.withLockedValue { $0 = $0 + .milliseconds(999) }
        #expect(!pending.hasRoom, "answered 999 ms ago, its next request in")
        clock.withLockedValue { $0 = $0 + .milliseconds(2) }
        #expect(pending.hasRoom, "1001 ms: its peer does not read its answers")
        let evicted = pending.admit(EmbeddedChannel(), address: "lo", descriptor: 9).evicted
        #expect((evicted as? EmbeddedChannel) === channels[2])
    }

    /// A new connection has `slowAfter` (100 ms by default) to send its
    /// request: silent ones fill every place, the acceptor waits until the
    /// oldest has had its time, and then it makes room.
    @Test func aNewConnectionHasTimeToSendItsRequest() {
        #expect(PendingHTTPConnections.Limits(perAddress: 3, total: 5, requestTimeout: .seconds(5)).slowAfter == .milliseconds(100))
        var limits = Self.limits
        limits.slowAfter = .milliseconds(250)
        let clock = NIOLockedValueBox(NIODeadline.uptimeNanoseconds(1_000_000_000))
        let pending = PendingHTTPConnections(
            limits: limits, requestWaiting: { _ in false }, now: { clock.withLockedValue { $0 } })
        let channels = (0..<5).map { _ in EmbeddedChannel() }
        for (index, channel) in channels.enumerated() {
            #expect(pending.admit(channel, address: "lo", descriptor: Int32(index)).evicted == nil, "arrival \(index)")
            clock.withLockedValue { $0 = $0 + .milliseconds(10) }
        }
        // The oldest came 50 ms ago.
        #expect(!pending.hasRoom)
        clock.withLockedValue { $0 = $0 + .milliseconds(199) }
        #expect(!pending.hasRoom, "249 ms: not slow yet")
        clock.withLockedValue { $0 = $0 + .milliseconds(1) }
        #expect(pending.hasRoom, "250 ms")
        let evicted = pending.admit(EmbeddedChannel(), address: "lo", descriptor: 9).evicted
        #expect((evicted as? EmbeddedChannel) === channels[0])
    }

    /// A request being answered is not slow though its socket is empty; once
    /// answered (keep-alive) it waits for the next one and is slow.
    @Test func aConnectionBeingAnsweredIsNotSlow() {
        let pending = PendingHTTPConnections(limits: Self.limits, requestWaiting: { _ in false })
        let first = EmbeddedChannel()
        let ticket = pending.admit(first, address: "a", descriptor: 0).ticket
        pending.answering(ticket)
        for index in 1...2 { _ = pending.admit(EmbeddedChannel(), address: "a", descriptor: Int32(index)) }
        let evicted = pending.admit(EmbeddedChannel(), address: "a", descriptor: 3).evicted
        #expect(evicted != nil && (evicted as? EmbeddedChannel) !== first, "the answered one stays")
        pending.awaitingRequest(ticket)
        let next = pending.admit(EmbeddedChannel(), address: "a", descriptor: 4).evicted
        #expect((next as? EmbeddedChannel) === first, "answered and idle: the oldest slow one")
    }

    /// The look into a socket: a whole head waiting is seen, half of one is
    /// not, and nothing is taken from the socket.
    @Test(arguments: [
        ("GET / HTTP/1.1\r\nHost: a\r\n\r\n", true),
        ("GET / HTTP/1.1\r\nHost: a\r\nX-Slow: ", false),
        ("", false),
    ])
    func aWholeRequestHeadIsSeenWithoutReadingIt(sent: String, complete: Bool) throws {
        var ends: [Int32] = [-1, -1]
        try #require(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &ends) == 0)
        defer { ends.forEach { close($0) } }
        _ = Array(sent.utf8).withUnsafeBytes { write(ends[1], $0.baseAddress, $0.count) }
        #expect(completeRequestWaiting(ends[0]) == complete)
        var bytes = [UInt8](repeating: 0, count: 256)
        let left = bytes.withUnsafeMutableBytes { recv(ends[0], $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
        #expect(left == (sent.isEmpty ? -1 : sent.utf8.count), "the bytes are still there")
    }

    @Test func aRemovedConnectionFreesItsPlaceOnce() {
        let pending = PendingHTTPConnections(limits: Self.limits, requestWaiting: { _ in false })
        let tickets = (0..<3).map { pending.admit(EmbeddedChannel(), address: "a", descriptor: Int32($0)).ticket }
        pending.remove(tickets[1])
        pending.remove(tickets[1])
        #expect(pending.count == 2)
        #expect(
            pending.admit(EmbeddedChannel(), address: "a", descriptor: 3).evicted == nil,
            "the place freed is taken, nothing closed")
        #expect(
            pending.admit(EmbeddedChannel(), address: "a", descriptor: 4).evicted != nil,
            "then the address is at its cap again")
    }

    /// Descriptor limit, max-connections → total, per address. With 1024 and
    /// 768 (DAEMON.md's example): 1024 − 128 reserved − 768 = 128.
    @Test(arguments: [
        (1024, 768, 128, 32),
        (8192, 4096, 128, 32),
        (1024, 4096, 16, 16),
        (1024, 860, 36, 32),
        (nil, 4096, 128, 32),
    ] as [(Int?, Int, Int, Int)])
    func capsLeaveTheSocketItsDescriptors(limit: Int?, maximumConnections: Int, total: Int, perAddress: Int) {
        let limits = PendingHTTPConnections.Limits.derived(
            descriptorLimit: limit, maximumConnections: maximumConnections, reserve: 128, requestTimeout: .seconds(5))
        #expect(limits.total == total)
        #expect(limits.perAddress == perAddress)
    }

    /// A quarter of max-connections stays for the Unix socket.
    @Test(arguments: [(768, 576), (4096, 3072), (4, 3), (1, 1), (2, 1)])
    func webSocketSessionsLeaveAQuarterToTheSocket(maximum: Int, webSocket: Int) {
        #expect(ConnectionLimits(maximumConnections: maximum).maximumWebSocketConnections == webSocket)
    }
}
