import NIOCore
import Testing

@testable import InsetServer

/// What one loop task sends a client leaves as one write: a broadcast's shared
/// bytes and the client's own message, framed for its transport. The connection
/// reuses its buffer from task to task; that must never touch bytes another
/// session shares or bytes still on their way out.
@Suite struct ConnectionStagingTests {
    /// A connection on an embedded channel, its transport's session handler installed.
    typealias Connection = SessionHandlerEmbeddedTests.Harness

    static func line(_ text: String) -> [UInt8] { Array((text + "\n").utf8) }

    @Test func aSharedLineAndAnOwnLineLeaveAsOneWriteEachTaskOnTheSocket() throws {
        let client = try Connection(UnixSocketTransport(), peer: .local(nil))
        var first = SharedLine(.focusLost(view: "will"))
        let firstShared = first.wire(for: .lines)
        client.connection.send(framed: firstShared)
        client.connection.send(.bye(reason: "x"))
        client.channel.embeddedEventLoop.run()
        // The second task stages while the first write is still held (unread here).
        var second = SharedLine(.focusLost(view: "did"))
        client.connection.send(framed: second.wire(for: .lines))
        client.connection.send(.bye(reason: "y"))
        client.channel.embeddedEventLoop.run()
        #expect(try client.writes() == [
            Self.line(#"{"type":"focusLost","view":"will"}"#) + Self.line(#"{"reason":"x","type":"bye"}"#),
            Self.line(#"{"type":"focusLost","view":"did"}"#) + Self.line(#"{"reason":"y","type":"bye"}"#),
        ])
        // The shared line every other session also sends is as it was.
        #expect(Array(firstShared.readableBytesView) == Self.line(#"{"type":"focusLost","view":"will"}"#))
    }

    @Test func eachTaskOnAWebSocketIsFramedMessageByMessage() throws {
        let client = try Connection(WebSocketTransport(control: false), peer: .webPage(address: "127.0.0.1"))
        for reason in ["a", "b", "c"] {
            var shared = SharedLine(.ok(id: nil))
            client.connection.send(framed: shared.wire(for: .messages))
            client.connection.send(.bye(reason: reason))
            client.channel.embeddedEventLoop.run()
            // Read at once: the next task reuses the connection's buffer.
            let bye = Array(#"{"reason":"\#(reason)","type":"bye"}"#.utf8)
            #expect(try client.writes() == [[0x81, 13] + Array(#"{"type":"ok"}"#.utf8) + [0x81, UInt8(bye.count)] + bye])
        }
    }
}

extension SessionHandlerEmbeddedTests.Harness {
    /// Each write the channel was given, as bytes, after the loop's pending tasks ran.
    func writes() throws -> [[UInt8]] {
        channel.embeddedEventLoop.run()
        var writes: [[UInt8]] = []
        while let buffer = try channel.readOutbound(as: ByteBuffer.self) { writes.append(Array(buffer.readableBytesView)) }
        return writes
    }
}
