import InsetCore
import Logging
import NIOCore
import NIOEmbedded
import Testing

@testable import InsetServer

/// What one loop task sends a client leaves as one write: a broadcast's shared
/// bytes and the client's own line, framed for its transport. The connection
/// reuses its buffer from task to task; that must never touch bytes another
/// session shares or bytes still on their way out.
@Suite struct ConnectionStagingTests {
    struct Connection {
        let channel = EmbeddedChannel()
        let connection: ClientConnection

        init(_ transport: SessionTransport) throws {
            connection = ClientConnection(
                id: ClientID("c1"), peer: .local(nil), transport: transport, channel: channel, capacity: 8,
                pendingFlushes: PendingFlushes(eventLoop: channel.eventLoop), logger: Logger(label: "test"))
            try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 1)).wait()
        }

        /// Each write the channel was given, as bytes.
        func writes() throws -> [[UInt8]] {
            var writes: [[UInt8]] = []
            while let buffer = try channel.readOutbound(as: ByteBuffer.self) { writes.append(Array(buffer.readableBytesView)) }
            return writes
        }
    }

    static func line(_ text: String) -> [UInt8] { Array((text + "\n").utf8) }

    @Test func aSharedLineAndAnOwnLineLeaveAsOneWriteEachTaskOnTheSocket() throws {
        let client = try Connection(.unixSocket)
        var first = SharedLine(Self.line("will"))
        let firstShared = first.wire(for: .lines)
        client.connection.send(framed: firstShared)
        client.connection.send(.bye(reason: "x"))
        client.channel.embeddedEventLoop.run()
        // The second task stages while the first write is still held (unread here).
        var second = SharedLine(Self.line("did"))
        client.connection.send(framed: second.wire(for: .lines))
        client.connection.send(.bye(reason: "y"))
        client.channel.embeddedEventLoop.run()
        #expect(try client.writes() == [
            Self.line("will") + Self.line(#"{"reason":"x","type":"bye"}"#),
            Self.line("did") + Self.line(#"{"reason":"y","type":"bye"}"#),
        ])
        // The shared line every other session also sends is as it was.
        #expect(Array(firstShared.readableBytesView) == Self.line("will"))
    }

    @Test func eachTaskOnAWebSocketIsFramedMessageByMessage() throws {
        let client = try Connection(.webSocket(control: false))
        for reason in ["a", "b", "c"] {
            var shared = SharedLine(Self.line("{}"))
            client.connection.send(framed: shared.wire(for: .messages))
            client.connection.send(.bye(reason: reason))
            client.channel.embeddedEventLoop.run()
            // Read at once: the next task reuses the connection's buffer.
            let bye = Array(#"{"reason":"\#(reason)","type":"bye"}"#.utf8)
            #expect(try client.writes() == [[0x81, 2] + Array("{}".utf8) + [0x81, UInt8(bye.count)] + bye])
        }
    }
}
