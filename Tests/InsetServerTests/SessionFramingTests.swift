import InsetProtocol
import NIOCore
import Testing

@testable import InsetServer

/// What a daemon message looks like on each transport: the line as it is on
/// the Unix socket; one unmasked, final text frame without the newline on a
/// WebSocket (RFC 6455 5.2: 0x81, then the length in 7 bits, or 126 + 16 bits,
/// or 127 + 64 bits, big-endian).
@Suite struct SessionFramingTests {
    /// A line of `length` bytes before its newline.
    static func line(_ length: Int) -> [UInt8] {
        Array(repeating: UInt8(ascii: "x"), count: length) + [UInt8(ascii: "\n")]
    }

    @Test(arguments: [
        (0, [0x81, 0x00] as [UInt8]),
        (5, [0x81, 0x05]),
        (125, [0x81, 0x7d]),
        // 126 no longer fits 7 bits: 126, then 0x007e.
        (126, [0x81, 0x7e, 0x00, 0x7e]),
        (65535, [0x81, 0x7e, 0xff, 0xff]),
        // 65536 no longer fits 16 bits: 127, then 0x0000000000010000.
        (65536, [0x81, 0x7f, 0, 0, 0, 0, 0, 1, 0, 0]),
    ])
    func webSocketFrameHeader(length: Int, header: [UInt8]) {
        let frame = Array(SessionFraming.messages.wire(ByteBuffer(bytes: Self.line(length))).readableBytesView)
        #expect(Array(frame.prefix(header.count)) == header)
        #expect(frame.count == header.count + length)
        #expect(frame.dropFirst(header.count).allSatisfy { $0 == UInt8(ascii: "x") })
    }

    /// A message is encoded and framed at once, and staged the same way.
    @Test func aMessageIsOneFrameOnAWebSocket() {
        let expected: [UInt8] = [0x81, 13] + Array(#"{"type":"ok"}"#.utf8)
        #expect(Array(SessionFraming.messages.wire(.ok(id: nil)).readableBytesView) == expected)
        var staged = ByteBuffer(bytes: [1, 2])
        SessionFraming.messages.append(.ok(id: nil), to: &staged)
        #expect(Array(staged.readableBytesView) == [1, 2] + expected)
    }

    @Test func aLineIsSentAsItIsOnTheSocket() {
        let line = Array(#"{"type":"ok"}"#.utf8) + [UInt8(ascii: "\n")]
        #expect(Array(SessionFraming.lines.wire(.ok(id: nil)).readableBytesView) == line)
        #expect(Array(SessionFraming.lines.wire(ByteBuffer(bytes: line)).readableBytesView) == line)
    }

    /// A broadcast to many sessions is framed once: every WebSocket session
    /// gets the same buffer (the same storage, not a copy), every socket
    /// session the line's.
    @Test func aSharedLineIsFramedOncePerFraming() {
        var shared = SharedLine(.ok(id: nil))
        let first = shared.wire(for: .messages)
        let second = shared.wire(for: .messages)
        #expect(Array(first.readableBytesView) == [0x81, 13] + Array(#"{"type":"ok"}"#.utf8))
        #expect(Self.storage(first) == Self.storage(second))
        let line = shared.wire(for: .lines)
        #expect(Array(line.readableBytesView) == Array(#"{"type":"ok"}"#.utf8) + [10])
        #expect(Self.storage(line) == Self.storage(shared.wire(for: .lines)))
        #expect(Self.storage(line) != Self.storage(first))
    }

    static func storage(_ buffer: ByteBuffer) -> UnsafeRawPointer? {
        buffer.withUnsafeReadableBytes { UnsafeRawPointer($0.baseAddress) }
    }
}
