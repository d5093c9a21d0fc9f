import NIOCore
import NIOEmbedded
import Testing

@testable import InsetServer

/// The caps on the WebSocket listener's unfinished connections: which one
/// makes room, and what the caps are for a descriptor limit.
@Suite struct PendingHTTPConnectionsTests {
    static let limits = PendingHTTPConnections.Limits(perAddress: 3, total: 5, requestTimeout: .seconds(5))

    /// `arrivals` connect in order (by address).
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var arrivals: [String]
        /// Index of the arrival closed to make room for each arrival, or nil.
        var evicted: [Int?]
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "under both caps nothing is closed", arrivals: ["a", "b", "a"], evicted: [nil, nil, nil]),
        Case(
            name: "the fourth from one address closes that address's oldest",
            arrivals: ["a", "b", "a", "a", "a"], evicted: [nil, nil, nil, nil, 0]),
        Case(
            // a a a b b: 5 in all; the sixth (d) is under its address's cap but
            // over the total: a, holding 3, gives up its oldest, arrival 0.
            name: "over the total the busiest address gives up its oldest",
            arrivals: ["a", "a", "a", "b", "b", "d"], evicted: [nil, nil, nil, nil, nil, 0]),
        Case(
            name: "a page behind a flood from its own address gets in",
            arrivals: ["lo", "lo", "lo", "lo", "lo", "lo"], evicted: [nil, nil, nil, 0, 1, 2]),
    ]

    @Test(arguments: cases)
    func theOldestUnfinishedConnectionMakesRoom(_ case_: Case) throws {
        let pending = PendingHTTPConnections(limits: Self.limits)
        var channels: [EmbeddedChannel] = []
        for (index, address) in case_.arrivals.enumerated() {
            let channel = EmbeddedChannel()
            channels.append(channel)
            let evicted = pending.admit(channel, address: address).evicted
            let expected = case_.evicted[index].map { channels[$0] }
            #expect((evicted as? EmbeddedChannel) === expected, "arrival \(index) (\(address))")
        }
        #expect(pending.count <= Self.limits.total)
    }

    @Test func aRemovedConnectionFreesItsPlaceOnce() {
        let pending = PendingHTTPConnections(limits: Self.limits)
        let tickets = (0..<3).map { _ in pending.admit(EmbeddedChannel(), address: "a").ticket }
        pending.remove(tickets[1])
        pending.remove(tickets[1])
        #expect(pending.count == 2)
        #expect(pending.admit(EmbeddedChannel(), address: "a").evicted == nil, "the place freed is taken, nothing closed")
        #expect(pending.admit(EmbeddedChannel(), address: "a").evicted != nil, "then the address is at its cap again")
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
