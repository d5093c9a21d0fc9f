import Foundation
import Glibc
import InsetCore
import InputTestbed
import InsetSocket
import InsetProtocol
import Testing

@testable import InsetServer

/// A WebSocket session of the server, byte for byte (RFC 6455): the upgrade's
/// accept key, each daemon message one unmasked final text frame carrying the
/// same JSON as the socket's line, pings and the close handshake answered.
@Suite struct WebSocketSessionTests {
    @Test func theUpgradeAnswersWithTheAcceptKeyOfRFC6455() async throws {
        try await withPage { _, _, page in
            // RFC 6455 1.3: key "dGhlIHNhbXBsZSBub25jZQ==" → "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=".
            #expect(page.response.hasPrefix("HTTP/1.1 101"))
            #expect(page.header("Sec-WebSocket-Accept") == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
        }
    }

    @Test func aBroadcastIsTheSameMessageOnBothTransports() async throws {
        try await withPage { running, socket, page in
            running.server.broadcast([BroadcastMessage(.policy(mode: .auto, tabletMode: false, hardwareKeyboard: true))])
            let policy = #"{"hardwareKeyboard":true,"mode":"auto","tabletMode":false,"type":"policy"}"#
            #expect(await socket?.readLine() == policy)
            // 0x81: final text frame; 74: the payload's length, unmasked (bit 7 clear).
            #expect(await page.read(76) == [0x81, 74] + Array(policy.utf8))
        }
    }

    @Test func aMessageForOneClientIsFramedForIt() async throws {
        try await withPage { running, socket, page in
            let clients = running.server.registry.joined().map(\.id)
            let pageClient = try #require(clients.first { running.server.registry.connection($0)?.framing == .messages })
            running.server.broadcast([BroadcastMessage(.ok(id: nil), replacing: [pageClient: .bye(reason: "b")])])
            #expect(await socket?.readLine() == #"{"type":"ok"}"#)
            #expect(await page.read(29) == [0x81, 27] + Array(#"{"reason":"b","type":"bye"}"#.utf8))
        }
    }

    /// Messages broadcast together reach each client in order, each in its own
    /// frame on the WebSocket, a client's own message in its place.
    @Test func linesBroadcastTogetherArriveInOrderOnBothTransports() async throws {
        try await withPage { running, socket, page in
            let clients = running.server.registry.joined().map(\.id)
            let pageClient = try #require(clients.first { running.server.registry.connection($0)?.framing == .messages })
            running.server.broadcast([
                BroadcastMessage(.ok(id: .number(1))),
                BroadcastMessage(.ok(id: .number(2)), replacing: [pageClient: .bye(reason: "c")]),
            ])
            #expect(await socket?.readLine() == #"{"id":1,"type":"ok"}"#)
            #expect(await socket?.readLine() == #"{"id":2,"type":"ok"}"#)
            #expect(
                await page.read(51)
                    == [0x81, 20] + Array(#"{"id":1,"type":"ok"}"#.utf8) + [0x81, 27] + Array(#"{"reason":"c","type":"bye"}"#.utf8))
        }
    }

    @Test func aPingIsAnsweredWithItsPayload() async throws {
        try await withPage { _, _, page in
            page.send(opcode: 0x9, Array("abc".utf8))
            // 0x8A: final pong.
            #expect(await page.read(5) == [0x8A, 3] + Array("abc".utf8))
        }
    }

    /// A page that falls behind and catches up gets every message, each frame
    /// whole and in order, and the pongs to the pings it sent meanwhile between
    /// frames, not inside one: a session writes on its descriptor while the
    /// channel holds none of its bytes and through the channel otherwise, and a
    /// pong takes the same way.
    @Test func aPageThatFallsBehindGetsEveryFrameWholeAndInOrder() async throws {
        try await withPage(capacity: 8192) { running, _, page in
            let connection = try #require(running.server.connections.first { $0.framing == .messages })
            let filler = String(repeating: "w", count: 280)
            let sender = Task.detached {
                for index in 0..<3000 {
                    connection.send(.error(ProtocolError(.unknownView, "\(index) \(filler)")))
                    if index % 300 == 0 { try? await Task.sleep(for: .milliseconds(10)) }
                }
            }
            for ping in 0..<5 {
                page.send(opcode: 0x9, Array("p\(ping)".utf8))
                try await Task.sleep(for: .milliseconds(60))
            }
            var numbers: [Int] = []
            var pongs: [String] = []
            while numbers.count < 3000, let frame = await page.readFrame() {
                let text = String(decoding: frame.payload, as: UTF8.self)
                switch frame.opcode {
                case 0x8A:
                    pongs.append(text)
                case 0x81:
                    guard case .error(let error) = try DaemonMessageDecoder.decode(frame.payload, client: ClientID("page")) else {
                        Issue.record("not an error: \(text.prefix(80))")
                        break
                    }
                    let words = error.message.split(separator: " ")
                    #expect(words.count == 2 && words[1] == Substring(filler), "frame \(numbers.count): \(text.prefix(80))")
                    numbers.append(Int(words.first ?? "") ?? -1)
                default:
                    Issue.record("unexpected frame \(frame.opcode): \(text.prefix(80))")
                }
                if frame.opcode != 0x8A, frame.opcode != 0x81 { break }
            }
            await sender.value
            #expect(numbers.count == 3000)
            #expect(numbers.indices.allSatisfy { numbers[$0] == $0 }, "first out of order at \(numbers.indices.first { numbers[$0] != $0 } ?? -1)")
            // A pong is skipped while the channel is over its high-water mark;
            // those sent are whole, in the order of their pings.
            #expect(pongs.allSatisfy { $0.count == 2 && $0.hasPrefix("p") })
            #expect(pongs == pongs.sorted())
        }
    }

    @Test func aCloseIsAnsweredWithItsCodeAndTheConnectionEnds() async throws {
        try await withPage { _, _, page in
            page.send(opcode: 0x8, [0x03, 0xE8])  // 1000, normal closure
            // 0x88: final close, 2 bytes: the same code.
            #expect(await page.read(4) == [0x88, 2, 0x03, 0xE8])
            #expect(await page.read(1) == [])
        }
    }

    /// Frames the RFC forbids a client end the session with 1002 (0x03EA), after
    /// which nothing more is read from it.
    @Test(arguments: [
        ("an unmasked frame", [0x81, 0x02] + Array("{}".utf8)),
        ("a reserved bit set", [0xC1, 0x82, 1, 2, 3, 4, 0x7A, 0x7F]),
        ("a reserved opcode", [0x83, 0x80, 1, 2, 3, 4]),
        ("a close with 1005, which no endpoint may send", [0x88, 0x82, 0, 0, 0, 0, 0x03, 0xED]),
        ("a close with a 1-byte payload", [0x88, 0x81, 0, 0, 0, 0, 0x03]),
        ("a continuation with no message begun", [0x80, 0x80, 1, 2, 3, 4]),
    ] as [(String, [UInt8])])
    func aBrokenRuleEndsTheSessionWith1002(rule: String, frame: [UInt8]) async throws {
        try await withPage { _, _, page in
            page.sendRaw(frame)
            #expect(await page.read(4) == [0x88, 2, 0x03, 0xEA], "\(rule)")
            #expect(await page.read(1) == [], "\(rule)")
        }
    }

    /// RFC 6455 8.1: text that is not UTF-8 fails the connection with 1007
    /// (0x03EF), whole frame or fragments joined; a binary message is data
    /// insetd cannot take, 1003 (0x03EB). Neither is read any further.
    @Test(arguments: [
        ("a lone continuation byte", [0x81, 0x83, 0, 0, 0, 0, 0x7B, 0x80, 0x7D], 0xEF),
        ("an overlong encoding of \"/\"", [0x81, 0x82, 0, 0, 0, 0, 0xC0, 0xAF], 0xEF),
        ("a UTF-16 surrogate", [0x81, 0x83, 0, 0, 0, 0, 0xED, 0xA0, 0x80], 0xEF),
        ("a sequence cut at the end of a message in two fragments",
         [0x01, 0x81, 0, 0, 0, 0, 0x7B, 0x80, 0x81, 0, 0, 0, 0, 0xE2], 0xEF),
        ("a binary message", [0x82, 0x82, 1, 2, 3, 4, 0x7A, 0x7F], 0xEB),
        ("a binary message begun in fragments", [0x02, 0x81, 0, 0, 0, 0, 0x7B], 0xEB),
    ] as [(String, [UInt8], UInt8)])
    func aMessageThatIsNotUTF8TextEndsTheSession(what: String, frames: [UInt8], code: UInt8) async throws {
        try await withPage { running, socket, page in
            page.sendRaw(frames)
            #expect(await page.read(4) == [0x88, 2, 0x03, code], "\(what)")
            #expect(await page.read(1) == [], "\(what)")
            // Everyone else is served on.
            socket?.sendLine(#"{"type":"hello","version":1}"#)
            #expect(await socket?.readLine()?.contains("hello: already said") == true)
            _ = running
        }
    }

    /// Valid UTF-8 beyond ASCII (2, 3 and 4 bytes) is a message like any other:
    /// it reaches the session, whose error names the unknown type.
    @Test func textBeyondASCIIIsReadAsJSON() async throws {
        try await withPage { _, _, page in
            page.send(opcode: 0x1, Array(#"{"type":"é€😀"}"#.utf8))
            let answer = await page.readFrame()
            #expect(answer?.opcode == 0x81)
            #expect(answer.map { String(decoding: $0.payload, as: UTF8.self) }?.contains("unknown-type") == true)
        }
    }

    @Test func aCloseWithAnApplicationCodeIsEchoed() async throws {
        try await withPage { _, _, page in
            page.send(opcode: 0x8, [0x0F, 0xA0])  // 4000
            #expect(await page.read(4) == [0x88, 2, 0x0F, 0xA0])
        }
    }

    /// Over the cap, a page gets what a socket client gets, framed, and a close
    /// frame: 1013 (0x03F5), try again later.
    @Test func aRefusedPageGetsByeAndAClose() async throws {
        let limits = ConnectionLimits(maximumConnections: 0)
        try await withPage(limits: limits, hello: false) { _, _, page in
            let bye = await page.readFrame()
            #expect(bye?.opcode == 0x81)
            #expect(bye.map { String(decoding: $0.payload, as: UTF8.self) } == #"{"reason":"too-many-connections","type":"bye"}"#)
            #expect(await page.read(4) == [0x88, 2, 0x03, 0xF5])
        }
    }

    /// Pages may take three quarters of max-connections (3 of 4): the fourth is
    /// refused though the total has room, and that room is the socket's.
    @Test func pagesLeaveAQuarterOfTheConnectionsToTheSocket() async throws {
        let running = try await RunningServer(limits: ConnectionLimits(maximumConnections: 4))
        let (port, task) = try await webSocket(of: running)
        defer { task.cancel() }
        var pages: [PageClient] = []
        for index in 0..<3 {
            let page = try await PageClient.connect(port: port)
            page.send(opcode: 0x1, Array(#"{"type":"hello","version":1}"#.utf8))
            let welcome = await page.readFrame()
            #expect(welcome.map { String(decoding: $0.payload, as: UTF8.self) }?.contains("welcome") == true, "page \(index)")
            pages.append(page)
        }
        let fourth = try await PageClient.connect(port: port)
        let bye = await fourth.readFrame()
        #expect(bye.map { String(decoding: $0.payload, as: UTF8.self) } == #"{"reason":"too-many-connections","type":"bye"}"#)
        #expect(await fourth.read(4) == [0x88, 2, 0x03, 0xF5])
        _ = try await running.client()
        await running.stop()
    }

    private func webSocket(of running: RunningServer) async throws -> (port: Int, task: Task<Void, any Error>) {
        let web = InsetWebSocketServer(
            server: running.server, configuration: .init(host: "127.0.0.1", port: 0, eventLoopGroup: running.server.group))
        let task = Task { try await web.run() }
        var port: Int?
        for _ in 0..<200 where port == nil {
            port = web.boundPort
            try await Task.sleep(for: .milliseconds(10))
        }
        return (try #require(port), task)
    }

    /// A server, its WebSocket on a loopback port, a socket client and a page,
    /// both past hello (the page's welcome read) unless `hello` is false.
    func withPage(
        limits: ConnectionLimits = ConnectionLimits(), capacity: Int = 256, hello: Bool = true,
        _ body: (RunningServer, LineClient?, PageClient) async throws -> Void
    ) async throws {
        let running = try await RunningServer(capacity: capacity, limits: limits)
        let (port, task) = try await webSocket(of: running)
        defer { task.cancel() }
        let page = try await PageClient.connect(port: port)
        guard hello else {
            try await body(running, nil, page)
            return await running.stop()
        }
        let socket = try await running.client()
        page.send(opcode: 0x1, Array(#"{"type":"hello","version":1}"#.utf8))
        let welcome = await page.readFrame()
        #expect(welcome?.opcode == 0x81)
        #expect(welcome.map { String(decoding: $0.payload, as: UTF8.self) }?.contains(#""type":"welcome""#) == true)
        try await body(running, socket, page)
        await running.stop()
    }
}

/// A page's end of a WebSocket, as little as these tests need: masked frames
/// out, reads with a 5 s timeout. Its blocking calls run on a queue of its own,
/// as `LineClient`'s do: blocking a test's task would starve the server's.
final class PageClient: @unchecked Sendable {
    private let queue = DispatchQueue(label: "PageClient")
    let fd: Int32
    private(set) var response = ""

    private init(fd: Int32) {
        self.fd = fd
    }

    deinit { close(fd) }

    /// Connects to 127.0.0.1:`port` and upgrades with RFC 6455's sample key,
    /// as a page of `origin` when one is given.
    static func connect(port: Int, origin: String? = nil) async throws -> PageClient {
        let fd = try TCPSocket.connect(port: port)
        let page = PageClient(fd: fd)
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        page.write(Array(
            ("GET / HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                + (origin.map { "Origin: \($0)\r\n" } ?? "")
                + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n").utf8))
        page.response = await page.onQueue {
            var head: [UInt8] = []
            while !head.suffix(4).elementsEqual(Array("\r\n\r\n".utf8)) {
                let byte = page.blockingRead(1)
                guard !byte.isEmpty else { break }
                head += byte
            }
            return String(decoding: head, as: UTF8.self)
        }
        return page
    }

    /// A response header's value (names are case-insensitive).
    func header(_ name: String) -> String? {
        for line in response.split(separator: "\r\n") {
            let parts = line.split(separator: ":", maxSplits: 1)
            if parts.count == 2, parts[0].lowercased() == name.lowercased() {
                return parts[1].trimmingCharacters(in: .whitespaces)
            }
        }
        return nil
    }

    func sendRaw(_ bytes: [UInt8]) { write(bytes) }

    func send(opcode: UInt8, _ payload: [UInt8]) {
        let mask: [UInt8] = [1, 2, 3, 4]
        precondition(payload.count < 126)
        write([0x80 | opcode, 0x80 | UInt8(payload.count)] + mask + payload.enumerated().map { $0.element ^ mask[$0.offset % 4] })
    }

    private func write(_ bytes: [UInt8]) {
        _ = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
    }

    /// Exactly `count` bytes, or fewer if the connection ends or 5 s pass.
    func read(_ count: Int) async -> [UInt8] {
        await onQueue { self.blockingRead(count) }
    }

    /// The next frame: its first byte (FIN and opcode) and its payload.
    func readFrame() async -> (opcode: UInt8, payload: [UInt8])? {
        await onQueue {
            let head = self.blockingRead(2)
            guard head.count == 2 else { return nil }
            var length = Int(head[1] & 0x7f)
            if length == 126 { length = self.blockingRead(2).reduce(0) { $0 << 8 | Int($1) } }
            if length == 127 { length = self.blockingRead(8).reduce(0) { $0 << 8 | Int($1) } }
            return (head[0], self.blockingRead(length))
        }
    }

    private func onQueue<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in queue.async { continuation.resume(returning: work()) } }
    }

    private func blockingRead(_ count: Int) -> [UInt8] {
        var bytes: [UInt8] = []
        while bytes.count < count {
            var buffer = [UInt8](repeating: 0, count: count - bytes.count)
            let got = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            guard got > 0 else { break }
            bytes += buffer[..<got]
        }
        return bytes
    }
}
