import Glibc
import Testing

@testable import InsetProtocol

/// The blocking clients' line reader on a real socket pair: lines in order
/// across reads, a timeout with half a line held, the peer's close, and a line
/// past the limit.
@Suite struct LineReaderTests {
    func pair() throws -> (Int32, Int32) {
        var ends: [Int32] = [-1, -1]
        try #require(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &ends) == 0)
        return (ends[0], ends[1])
    }

    func write(_ fd: Int32, _ text: String) {
        _ = Array(text.utf8).withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
    }

    @Test func linesComeInOrderAndHalfALineWaits() throws {
        let (mine, theirs) = try pair()
        defer { close(mine) }
        var reader = LineReader(descriptor: mine)
        write(theirs, "{\"a\":1}\n{\"b\":2}\r\n{\"c\"")
        #expect(try reader.line(timeout: 1).map { String(decoding: $0, as: UTF8.self) } == "{\"a\":1}")
        #expect(try reader.line(timeout: 1).map { String(decoding: $0, as: UTF8.self) } == "{\"b\":2}")
        #expect(try reader.line(timeout: 0.05) == nil, "half a line: the timeout")
        #expect(reader.pendingCount == 4, "{\"c\" held")
        write(theirs, ":3}\n")
        #expect(try reader.line(timeout: 1).map { String(decoding: $0, as: UTF8.self) } == "{\"c\":3}")
        close(theirs)
        #expect(throws: LineReader.Failure.closed) { try reader.line(timeout: 1) }
    }

    @Test func aLinePastTheLimitIsRefused() throws {
        let (mine, theirs) = try pair()
        defer {
            close(mine)
            close(theirs)
        }
        var reader = LineReader(descriptor: mine, limit: 8)
        write(theirs, "123456789\n")
        #expect(throws: LineReader.Failure.tooLong) { try reader.line(timeout: 1) }
    }
}
