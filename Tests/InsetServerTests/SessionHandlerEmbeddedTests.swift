import InsetCore
import InsetProtocol
import Logging
import NIOCore
import NIOEmbedded
import NIOWebSocket
import Testing

@testable import InsetServer

/// Each transport's session handler on NIO's embedded channel: bytes or frames
/// in, the session's events and the bytes written out, with no socket and no
/// event-loop thread.
@Suite struct SessionHandlerEmbeddedTests {
    /// A session on an embedded channel, its handler installed by `transport`,
    /// and the events it yields.
    struct Harness {
        let channel = EmbeddedChannel()
        let events: AsyncStream<ServerEvent>
        let transport: any SessionTransport
        let connection: ClientConnection

        init(_ transport: any SessionTransport, peer: SessionPeer, messageLimit: Int = 64) throws {
            self.transport = transport
            let (events, continuation) = AsyncStream.makeStream(of: ServerEvent.self)
            self.events = events
            let logger = Logger(label: "test")
            connection = ClientConnection(
                id: ClientID("c1"), peer: peer, transport: transport, channel: channel, socket: nil, capacity: 8,
                pendingFlushes: PendingFlushes(eventLoop: channel.eventLoop), logger: logger)
            let session = ClientSession(
                connection: connection, authorization: Authorization(uids: [0]), registry: ClientRegistry(),
                events: continuation, refusals: RefusalLog(logger: logger), logger: logger)
            if transport is WebSocketTransport {
                try channel.pipeline.syncOperations.addHandler(ByteToMessageHandler(WebSocketFrameDecoder(maxFrameSize: messageLimit)))
            }
            try channel.pipeline.syncOperations.addHandler(
                transport.sessionHandler(session: session, messageLimit: messageLimit, handshakeTimeout: .seconds(5), logger: logger))
            try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 1)).wait()
        }

        /// Everything written to the peer so far, after the loop's pending tasks ran.
        func written() throws -> [UInt8] {
            channel.embeddedEventLoop.run()
            var bytes: [UInt8] = []
            while let buffer = try channel.readOutbound(as: ByteBuffer.self) { bytes += buffer.readableBytesView }
            return bytes
        }

        func firstEvent() async -> ServerEvent? {
            var iterator = events.makeAsyncIterator()
            return await iterator.next()
        }
    }

    /// A client's masked frame (key 0: the payload as it is).
    static func frame(_ opcode: UInt8, _ payload: [UInt8]) -> ByteBuffer {
        ByteBuffer(bytes: [0x80 | opcode, 0x80 | UInt8(payload.count), 0, 0, 0, 0] + payload)
    }

    @Test func aLineOnTheSocketIsAHello() async throws {
        let harness = try Harness(UnixSocketTransport(), peer: .local(PeerCredentials(pid: 7, uid: 1000, gid: 1000)))
        try harness.channel.writeInbound(ByteBuffer(string: #"{"type":"hello","version":1}"# + "\n"))
        guard case .joined(let client, let version, _) = await harness.firstEvent() else {
            Issue.record("no joined event")
            return
        }
        #expect(client == ClientID("c1"))
        #expect(version == 1)
    }

    @Test func anOverlongLineOnTheSocketIsAnsweredAndCloses() throws {
        let harness = try Harness(UnixSocketTransport(), peer: .local(nil), messageLimit: 16)
        try harness.channel.writeInbound(ByteBuffer(string: String(repeating: "x", count: 40)))
        let text = String(decoding: try harness.written(), as: UTF8.self)
        #expect(text.contains(#""code":"line-too-long""#))
        #expect(text.contains("a line is longer than 16 bytes; closing"))
        #expect(!harness.channel.isActive)
    }

    @Test func anOverlongMessageOnAWebSocketIsAnsweredWith1009() throws {
        let harness = try Harness(WebSocketTransport(control: false), peer: .webPage(address: "127.0.0.1"), messageLimit: 16)
        _ = try? harness.channel.writeInbound(Self.frame(0x1, Array(String(repeating: "x", count: 40).utf8)))
        let bytes = try harness.written()
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text.contains("a message is longer than 16 bytes; closing"))
        #expect(bytes.suffix(4) == [0x88, 2, 0x03, 0xF1], "close 1009 after the error")
    }

    @Test(arguments: [
        ([0x81, 0xFE] as [UInt8], 0x1 as UInt8, UInt16(1007)),
        ([0x7B, 0x7D], 0x2, 1003),
    ])
    func aWebSocketRefusesWhatIsNotUTF8Text(payload: [UInt8], opcode: UInt8, code: UInt16) throws {
        let harness = try Harness(WebSocketTransport(control: false), peer: .webPage(address: "127.0.0.1"))
        try harness.channel.writeInbound(Self.frame(opcode, payload))
        #expect(try harness.written() == [0x88, 2, UInt8(code >> 8), UInt8(code & 0xFF)])
        // Our direction is closed; the rest waits on the peer or 500 ms.
        _ = try? harness.channel.writeInbound(Self.frame(0x1, Array(#"{"type":"hello","version":1}"#.utf8)))
        #expect(try harness.written() == [], "nothing follows the close frame")
    }

    /// Control commands: a socket peer by its credentials, a page only with
    /// websocket.control; the refusal is worded for the transport.
    @Test(arguments: [
        (UnixSocketTransport() as any SessionTransport, SessionPeer.local(PeerCredentials(pid: 1, uid: 0, gid: 0)), true),
        (UnixSocketTransport(), .local(PeerCredentials(pid: 1, uid: 1000, gid: 1000)), false),
        (UnixSocketTransport(), .local(nil), false),
        (WebSocketTransport(control: false), .webPage(address: "127.0.0.1"), false),
        (WebSocketTransport(control: true), .webPage(address: "127.0.0.1"), true),
    ])
    func controlIsTheTransportsDecision(transport: any SessionTransport, peer: SessionPeer, allowed: Bool) {
        #expect(transport.allowsControl(peer, authorization: Authorization(uids: [0])) == allowed)
        #expect(transport.notAuthorized(peer).contains(transport is UnixSocketTransport ? "root or a configured" : "websocket.control"))
    }
}
