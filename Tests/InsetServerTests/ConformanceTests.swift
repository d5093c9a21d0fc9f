import Foundation
import Glibc
import InputTestbed
import InsetCore
import InsetProtocol
import Testing

/// A client written from docs/PROTOCOL.md alone: every documented client
/// message is sent to the real insetd, and every line it answers with, on every
/// connection, must validate against docs/protocol.schema.json and keep the
/// documented rules (one reply per request id, in order).
@Suite(.serialized) struct ConformanceTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static func examples(_ role: String) throws -> [String] { try ProtocolDocument.examples(role) }

    /// Reads lines until none arrives for `quiet`.
    static func drain(_ client: LineClient, into lines: inout [String]) async {
        while let line = await client.readLine() { lines.append(line) }
    }

    /// A daemon line through the protocol's one decoder; a line it cannot read
    /// fails the test.
    static func message(_ line: String) -> DaemonMessage? {
        do { return try DaemonMessageDecoder.decode(Data(line.utf8), client: ClientID("")) } catch {
            Issue.record("insetd wrote a line its own decoder cannot read (\(error)): \(line)")
            return nil
        }
    }

    @Test func everyDocumentedMessageGetsSchemaValidReplies() async throws {
        let socket = FileManager.default.temporaryDirectory.appendingPathComponent("conformance-\(getpid()).sock").path
        let daemon = try InsetdLauncher.start(socket: socket)
        defer { kill(daemon.pid, SIGKILL); _ = daemon.wait(); unlink(socket) }

        // The documented order, except that `unregister` comes last, so the view
        // messages find the view registered.
        var requests = try Self.examples("client")
        let unregister = try #require(requests.firstIndex { $0.contains(#""type":"unregister""#) })
        requests.append(requests.remove(at: unregister))
        #expect(requests.first?.contains(#""type":"hello""#) == true)

        var first: LineClient?
        for _ in 0..<300 {
            if let client = try? LineClient(path: socket, receiveTimeout: 0.5) { first = client; break }
            try await Task.sleep(for: .milliseconds(10))
        }
        let a = try #require(first)
        var lines: [String] = []
        for request in requests {
            a.sendLine(request)
            await Self.drain(a, into: &lines)
        }
        // The first client focuses a field again (without ids: no replies); a
        // second client takes the focus, and the first is told.
        for request in [
            #"{"type":"register","view":"signup","frame":{"x":0,"y":0,"width":390,"height":844},"contentSize":{"width":390,"height":1200}}"#,
            #"{"type":"focus","view":"signup","field":{"x":16,"y":720,"width":358,"height":44}}"#,
        ] {
            a.sendLine(request)
            await Self.drain(a, into: &lines)
        }
        let b = try LineClient(path: socket, receiveTimeout: 0.5)
        var other: [String] = []
        for request in [
            #"{"type":"hello","versions":[1],"id":"h2","futureField":{"ignored":true}}"#,
            #"{"type":"register","id":1,"view":"form","frame":{"x":0,"y":0,"width":390,"height":844},"contentSize":{"width":390,"height":900}}"#,
            #"{"type":"focus","id":2,"view":"form","field":{"x":0,"y":700,"width":390,"height":44}}"#,
            #"{"type":"status","id":3}"#,
            // Each error code a client can cause without being disconnected.
            #"{"type":"unregister","id":4,"view":"nope"}"#, #"{"type":"teleport","id":5}"#, #"not json"#,
            #"{"type":"scroll","id":6,"view":"form","rect":{"x":0,"y":1e300,"width":1,"height":1}}"#,
            #"{"type":"hello","version":1,"id":7}"#,
        ] {
            b.sendLine(request)
            await Self.drain(b, into: &other)
        }
        await Self.drain(a, into: &lines)

        // Every line from the daemon validates.
        let all = lines + other
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("conformance-\(getpid()).jsonl")
        try all.map { $0 + "\n" }.joined().write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let result = try await ChildProcess.run(
            ["python3", Self.root.appendingPathComponent("scripts/validate-protocol.py").path, "--daemon", file.path])
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.contains("\(all.count) passed, 0 failed"), "\(result.output)")

        // One reply per request id, in request order, and no errors for the
        // documented examples.
        let messages = lines.compactMap(Self.message)
        let replies = messages.filter { $0.requestID != nil }
        let ids = try requests.compactMap { try ClientMessageDecoder.decode(Data($0.utf8)).id }
        #expect(replies.map(\.requestID) == ids, "replies \(replies)")
        #expect(!messages.contains { $0.type == "error" }, "\(messages.filter { $0.type == "error" })")
        #expect(replies.first?.type == "welcome", "welcome echoes hello's id")
        #expect(messages.contains { $0.type == "adjustment" })
        #expect(messages.contains(.focusLost(view: "signup")))

        let second = other.compactMap(Self.message)
        #expect(second.first?.type == "welcome" && second.first?.requestID == .string("h2"))
        let codes = second.compactMap(\.protocolError?.code)
        #expect(codes == [.unknownView, .unknownType, .malformedJSON, .invalidField, .invalidField], "\(codes)")
        let status = try #require(second.first { $0.type == "status" })
        #expect(status.counts?.clients == 2)
        #expect(status.counts?.views == 2)
    }
}
