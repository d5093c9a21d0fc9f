import InsetCore
import InsetProtocol
import NIOCore
import Testing

@testable import InsetServer

/// A keyboard change's pass over the clients (`broadcast(_:then:)`, on the
/// event loop as the daemon's core runs it): every client gets the messages, a
/// client's own message in its place, then its own adjustments, in that order,
/// on both transports, whether it is sent at once or has bytes waiting.
@Suite struct BroadcastPassTests {
    typealias Bytes = AdjustmentLinesTests

    /// The socket client's and the page's ids, and the event loop serving them.
    static func clients(of running: RunningServer) throws -> (socket: ClientID, page: ClientID, loop: any EventLoop) {
        let joined = running.server.registry.joined()
        let socket = try #require(joined.first { $0.framing == .lines })
        let page = try #require(joined.first { $0.framing == .messages })
        return (socket.id, page.id, socket.channel.eventLoop)
    }

    @Test(arguments: [false, true])
    func eachClientGetsTheMessagesThenItsOwnAdjustments(clientsApart: Bool) async throws {
        try await WebSocketSessionTests().withPage { running, socket, page in
            let (socketID, pageID, loop) = try Self.clients(of: running)
            let messages = [
                BroadcastMessage(.ok(id: .number(1))),
                BroadcastMessage(.ok(id: .number(2)), replacing: [socketID: .bye(reason: "own")]),
            ]
            // The socket client has two views; apart, the page's comes between them.
            var adjustments = [
                Bytes.adjustment(client: socketID.rawValue, view: "one", offset: 10),
                Bytes.adjustment(client: socketID.rawValue, view: "two", offset: 20),
                Bytes.adjustment(client: pageID.rawValue, view: "list", offset: 30),
            ]
            if clientsApart { adjustments.swapAt(1, 2) }
            let (server, pass) = (running.server, adjustments)
            try await loop.submit { server.broadcast(messages, then: pass) }.get()
            #expect(await socket?.readLine() == #"{"id":1,"type":"ok"}"#)
            #expect(await socket?.readLine() == #"{"reason":"own","type":"bye"}"#)
            #expect(await socket?.readLine() == String(decoding: Bytes.line(view: "one", offset: 10).dropLast(), as: UTF8.self))
            #expect(await socket?.readLine() == String(decoding: Bytes.line(view: "two", offset: 20).dropLast(), as: UTF8.self))
            let list = Bytes.frame(Bytes.line(view: "list", offset: 30))
            #expect(
                await page.read(44 + list.count)
                    == [0x81, 20] + Array(#"{"id":1,"type":"ok"}"#.utf8) + [0x81, 20] + Array(#"{"id":2,"type":"ok"}"#.utf8)
                    + list)
        }
    }

    /// A page with bytes still waiting (more than one task stages) gets the
    /// pass's frames after them, never ahead.
    @Test func aPageWithBytesWaitingGetsThePassBehindThem() async throws {
        try await WebSocketSessionTests().withPage(capacity: 8192) { running, socket, page in
            let (socketID, pageID, loop) = try Self.clients(of: running)
            let connection = try #require(running.server.connection(pageID))
            let filler = String(repeating: "w", count: 280)
            let server = running.server
            try await loop.submit {
                for index in 0..<1000 { connection.send(.error(ProtocolError(.unknownView, "\(index) \(filler)"))) }
                server.broadcast(
                    [BroadcastMessage(.ok(id: .number(1)))],
                    then: [Bytes.adjustment(client: socketID.rawValue), Bytes.adjustment(client: pageID.rawValue)])
            }.get()
            #expect(await socket?.readLine() == #"{"id":1,"type":"ok"}"#)
            #expect(await socket?.readLine() == String(decoding: Bytes.line().dropLast(), as: UTF8.self))
            // Each frame in arrival order: an error's number, or the frame's text.
            var order: [String] = []
            while order.count < 1002, let frame = await page.readFrame() {
                if case .error(let error) = try? DaemonMessageDecoder.decode(frame.payload, client: pageID) {
                    order.append(String(error.message.split(separator: " ").first ?? ""))
                } else {
                    order.append(String(decoding: frame.payload, as: UTF8.self))
                }
            }
            #expect(order.count == 1002)
            #expect(order.prefix(1000).elementsEqual((0..<1000).map(String.init)), "first out of place: \(order.indices.first { $0 < 1000 && order[$0] != String($0) } ?? -1)")
            #expect(order.suffix(2) == [#"{"id":1,"type":"ok"}"#, String(decoding: Bytes.line().dropLast(), as: UTF8.self)])
        }
    }
}

/// The pass's shared bytes and its index of each client's adjustments.
@Suite struct PassBuffersTests {
    static let messages = [BroadcastMessage(.ok(id: .number(1))), BroadcastMessage(.ok(id: .number(2)))]
    static let one = #"{"id":1,"type":"ok"}"#
    static let two = #"{"id":2,"type":"ok"}"#

    @Test func theLinesThenTheAdjustmentAreOneBufferPerFramingAndAdjustment() throws {
        var buffers = PassBuffers(Self.messages)
        func bytes(_ framing: SessionFraming, _ adjustment: (bytes: ByteBuffer, generation: Int)?) -> ByteBuffer? {
            buffers.bytes(for: framing, then: adjustment)
        }
        let adjustment = (bytes: ByteBuffer(bytes: Array("{\"adj\":1}\n".utf8)), generation: 7)
        let plain = try #require(bytes(.lines, nil))
        #expect(Array(plain.readableBytesView) == Array("\(Self.one)\n\(Self.two)\n".utf8))
        // The first client to get an adjustment line stages it in its own
        // buffer; the second gets the lines and it joined.
        #expect(bytes(.lines, adjustment) == nil)
        let withAdjustment = try #require(bytes(.lines, adjustment))
        #expect(Array(withAdjustment.readableBytesView) == Array("\(Self.one)\n\(Self.two)\n{\"adj\":1}\n".utf8))
        // The same adjustment again: the same buffer, not a copy.
        let again = try #require(bytes(.lines, adjustment))
        #expect(again.withUnsafeReadableBytes { $0.baseAddress } == withAdjustment.withUnsafeReadableBytes { $0.baseAddress })
        let framed = try #require(bytes(.messages, nil))
        #expect(Array(framed.readableBytesView) == [0x81, 20] + Array(Self.one.utf8) + [0x81, 20] + Array(Self.two.utf8))
        // A line asked for by the other framing's clients too is joined at once for them.
        let framedAdjustment = (bytes: ByteBuffer(bytes: [0x81, 9] + Array("{\"adj\":1}".utf8)), generation: 7)
        let framedWith = try #require(bytes(.messages, framedAdjustment))
        #expect(Array(framedWith.readableBytesView).suffix(11) == [0x81, 9] + Array("{\"adj\":1}".utf8))
        // Another adjustment line (a new generation): staged by its first client, then another buffer.
        let other = (bytes: ByteBuffer(bytes: Array("{\"adj\":2}\n".utf8)), generation: 8)
        #expect(bytes(.lines, other) == nil)
        let joined = try #require(bytes(.lines, other))
        #expect(Array(joined.readableBytesView) == Array("\(Self.one)\n\(Self.two)\n{\"adj\":2}\n".utf8))
    }

    /// Clients whose adjustments all differ (each its own view or offset) get
    /// no joined buffer: each would be an allocation of its own.
    @Test func linesNoOtherClientGetsAreNotJoined() {
        var buffers = PassBuffers(Self.messages)
        for generation in 1...50 {
            let joined = buffers.bytes(for: .lines, then: (ByteBuffer(bytes: [UInt8(generation), 10]), generation))
            #expect(joined == nil)
        }
    }

    @Test func onlyTheClientsOfASpecialLineHaveOneOfTheirOwn() {
        let buffers = PassBuffers(Self.messages + [BroadcastMessage(.ok(id: nil), replacing: [ClientID("c7"): .ok(id: nil)])])
        #expect(buffers.hasOwnLine(ClientID("c7")))
        #expect(!buffers.hasOwnLine(ClientID("c8")))
    }

    static func adjustments(_ clients: [String]) -> [ViewAdjustment] {
        clients.enumerated().map { AdjustmentLinesTests.adjustment(client: $1, view: "v\($0)") }
    }

    @Test(arguments: [
        // Each client's together: one run each, in the list's order.
        (["c1", "c1", "c2", "c3", "c3", "c3"], [0..<2, 2..<3, 3..<6] as [Range<Int>]?),
        ([], []),
        // c1's apart: no runs (the pass sends them one by one).
        (["c1", "c2", "c1"], nil),
        // Past `linearLimit` runs (ten clients), found through a dictionary: the same.
        (["c1", "c1"] + (2...10).map { "c\($0)" }, [0..<2] + (2...10).map { $0..<($0 + 1) }),
        ((1...10).map { "c\($0)" } + ["c1"], nil),
    ] as [([String], [Range<Int>]?)])
    func eachClientsAdjustmentsAreOneRun(clients: [String], expected: [Range<Int>]?) {
        guard let runs = AdjustmentRuns(Self.adjustments(clients)) else {
            #expect(expected == nil)
            return
        }
        #expect(runs.remaining == expected)
        var taking = runs
        #expect(taking.take(ClientID("c2")) == (clients.isEmpty ? nil : 2..<3))
        #expect(taking.take(ClientID("c2")) == nil)
    }
}
