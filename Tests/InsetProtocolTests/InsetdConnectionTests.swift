#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc
import InsetCore
import InsetSocket
import Testing

@testable import InsetProtocol

/// The connection every Swift client of insetd sits on, on real sockets: lines
/// in order across reads, a timeout with half a line held, the peer's close, a
/// line past the limit, reading without waiting, the hello's bytes, replies
/// matched by request id, and a connect to a real listening socket.
@Suite struct InsetdConnectionTests {
    func pair(limit: Int = LineFramer.defaultLimit) throws -> (InsetdConnection, Int32) {
        var ends: [Int32] = [-1, -1]
        try #require(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &ends) == 0)
        return (InsetdConnection(descriptor: ends[0], limit: limit), ends[1])
    }

    func write(_ fd: Int32, _ text: String) {
        _ = Array(text.utf8).withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
    }

    /// Everything readable on `fd` within 1 s, as text.
    func readAll(_ fd: Int32) -> String {
        var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&poller, 1, 1000) == 1 else { return "" }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        return String(decoding: buffer[..<max(0, count)], as: UTF8.self)
    }

    func text(_ line: [UInt8]?) -> String? { line.map { String(decoding: $0, as: UTF8.self) } }

    @Test func linesComeInOrderAndHalfALineWaits() throws {
        let (connection, theirs) = try pair()
        write(theirs, "{\"a\":1}\n{\"b\":2}\r\n{\"c\"")
        #expect(text(try connection.line(timeout: 1)) == "{\"a\":1}")
        #expect(text(try connection.line(timeout: 1)) == "{\"b\":2}")
        #expect(try connection.line(timeout: 0.05) == nil, "half a line: the timeout")
        #expect(connection.pendingCount == 4, "{\"c\" held")
        write(theirs, ":3}\n")
        #expect(text(try connection.line(timeout: 1)) == "{\"c\":3}")
        close(theirs)
        #expect(throws: InsetdConnection.Failure.closed) { try connection.line(timeout: 1) }
    }

    @Test func aLinePastTheLimitIsRefused() throws {
        let (connection, theirs) = try pair(limit: 64)
        defer { close(theirs) }
        // 64 bytes pass; the 65th byte of one line ends the stream.
        write(theirs, String(repeating: "x", count: 64) + "\n")
        #expect(try connection.line(timeout: 1)?.count == 64)
        write(theirs, String(repeating: "y", count: 40))
        #expect(try connection.line(timeout: 0.05) == nil)
        write(theirs, String(repeating: "y", count: 25) + "\n")
        #expect(throws: InsetdConnection.Failure.tooLong) { try connection.line(timeout: 1) }
    }

    @Test func readingWithoutWaitingTakesWhatArrivedAndSeesTheClose() throws {
        let (connection, theirs) = try pair()
        #expect(try connection.availableLines().isEmpty, "nothing yet, and no wait")
        write(theirs, "one\ntw")
        #expect(try connection.availableLines().map { text($0) } == ["one"])
        write(theirs, "o\nthree\n")
        #expect(try connection.availableLines().map { text($0) } == ["two", "three"])
        close(theirs)
        #expect(throws: InsetdConnection.Failure.closed) { try connection.availableLines() }
    }

    @Test func theHelloAndRequestsGoOutAsTheProtocolsLines() throws {
        let (connection, theirs) = try pair()
        defer { close(theirs) }
        connection.sendHello(client: "test")
        #expect(readAll(theirs) == "{\"client\":\"test\",\"type\":\"hello\",\"version\":1}\n")
        connection.send(ClientRequest(id: .number(7), message: .status))
        #expect(readAll(theirs) == "{\"id\":7,\"type\":\"status\"}\n")
        #expect(!connection.wantsWrite)
    }

    @Test func theWelcomeNamesTheClientAndAReplyIsFoundByItsId() throws {
        let (connection, theirs) = try pair()
        defer { close(theirs) }
        let state = StateSnapshot(keyboard: nil, screen: Size(width: 1280, height: 800), mode: .auto, tabletMode: false, hardwareKeyboard: false)
        let welcome = String(decoding: DaemonMessage.welcome(version: 1, client: "c7", state: state).line(), as: UTF8.self)
        write(theirs, welcome + "not json\n{\"type\":\"ok\",\"id\":\"x\"}\n{\"type\":\"ok\",\"id\":\"mine\"}\n")
        var skipped: [DaemonMessage] = []
        let reply = try connection.reply(to: .string("mine"), timeout: 1) { skipped.append($0) }
        #expect(reply?.requestID == .string("mine"))
        #expect(skipped.count == 2, "the welcome and the other ok; the broken line is no message")
        #expect(connection.client == ClientID("c7"))
        #expect(try connection.reply(to: .string("mine"), timeout: 0.05) == nil, "no second reply: the timeout")
    }

    @Test func itConnectsToARealListeningSocketFoundByThePathRule() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("conn-\(getpid())-\(UInt32.random(in: 0...UInt32.max))").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = "\(directory)/insetd.sock"
        let listener = try UnixSocket.bind(path)
        defer { close(listener) }
        #expect(InsetdSocketPath.forClient(explicit: nil, environment: ["XDG_RUNTIME_DIR": directory]) == path)
        #expect(InsetdConnection.socketPath(explicit: path) == path)
        let connection = try InsetdConnection(path: path)
        let accepted = accept(listener, nil, nil)
        try #require(accepted >= 0)
        defer { close(accepted) }
        write(accepted, "{\"type\":\"ok\"}\n")
        #expect(text(try connection.line(timeout: 1)) == "{\"type\":\"ok\"}")
        connection.close()
        #expect(readAll(accepted) == "", "the peer sees the close")
    }

    @Test func nobodyListeningIsAnErrorNamingThePath() throws {
        #expect(throws: UnixSocketError.self) { try InsetdConnection(path: "/nonexistent/insetd.sock") }
    }
}
