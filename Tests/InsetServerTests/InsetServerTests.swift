import Foundation
import InsetCore
import InsetProtocol
import InputTestbed
import NIOCore
import Testing

@testable import InsetServer

/// A server on a fresh socket path, with its events echoed back as `ok` so tests
/// can see what reached the daemon side.
final class RunningServer {
    let path: String
    let server: InsetServer
    private let task: Task<Void, any Error>
    private let consumer: Task<Void, Never>

    init(
        authorization: Authorization = Authorization(uids: [getuid()]), capacity: Int = 256, lineLimit: Int = 64 * 1024,
        limits: ConnectionLimits = ConnectionLimits()
    ) async throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("insetd-test-\(UUID().uuidString.prefix(8)).sock").path
        let server = InsetServer(
            configuration: .init(
                listener: .path(path), authorization: authorization, outboundCapacity: capacity, lineLimit: lineLimit,
                limits: limits))
        self.server = server
        task = Task { try await server.run() }
        consumer = Task {
            for await event in server.events {
                switch event {
                case .joined(let client, let version, let id):
                    server.send(
                        .welcome(
                            version: version, client: client.rawValue,
                            state: StateSnapshot(
                                keyboard: nil, screen: Size(width: 390, height: 844), mode: .auto, tabletMode: false,
                                hardwareKeyboard: false), id: id), to: client)
                case .request(let client, let request):
                    server.send(.ok(id: request.id), to: client)
                case .left:
                    break
                }
            }
        }
        await server.waitUntilListening()
    }

    func stop() async {
        task.cancel()
        _ = try? await task.value
        consumer.cancel()
        try? FileManager.default.removeItem(atPath: path)
    }

    func client(hello: Bool = true) async throws -> LineClient {
        let client = try LineClient(path: path)
        if hello {
            client.sendLine(#"{"type":"hello","version":1}"#)
            _ = await client.readLine()
        }
        return client
    }
}

@Suite struct InsetServerTests {
    @Test func helloGetsAWelcomeAndTheSocketIsMode0660() async throws {
        let running = try await RunningServer()
        let client = try await running.client(hello: false)
        client.sendLine(#"{"type":"hello","versions":[7,1],"client":"test"}"#)
        let welcome = try #require(await client.readMessage())
        guard case .welcome(let version, _, _, _) = welcome else { Issue.record("not a welcome: \(welcome)"); return }
        #expect(version == 1)
        var info = stat()
        stat(running.path, &info)
        #expect(info.st_mode & 0o777 == 0o660)
        await running.stop()
    }

    @Test func badInputGetsAnErrorAndTheConnectionStays() async throws {
        let running = try await RunningServer()
        let client = try await running.client(hello: false)
        client.sendLine(#"{"type":"status","id":1}"#)
        #expect(await client.readLine() == #"{"code":"hello-required","id":1,"message":"say hello first","type":"error"}"#)
        client.sendLine(#"{"type":"hello","version":9}"#)
        #expect(await client.readMessage()?.protocolError?.code.rawValue == "unsupported-version")
        client.sendLine(#"{"type":"hello","version":1}"#)
        #expect(await client.readMessage()?.type == "welcome")
        client.sendLine("{oops")
        #expect(await client.readMessage()?.protocolError?.code.rawValue == "malformed-json")
        client.sendLine(#"{"type":"focus","id":"f","view":"v"}"#)
        let error = try #require(await client.readMessage()?.protocolError)
        #expect(error.code == .invalidField)
        #expect(error.message == #"focus: field "field" is required"#)
        #expect(error.id == .string("f"))
        // Still served.
        client.sendLine(#"{"type":"status","id":2}"#)
        #expect(await client.readLine() == #"{"id":2,"type":"ok"}"#)
        await running.stop()
    }

    @Test func anOverlongLineIsRefusedAndTheConnectionClosed() async throws {
        let running = try await RunningServer(lineLimit: 1024)
        let client = try await running.client()
        client.send(String(repeating: "x", count: 2000))
        let error = try #require(await client.readMessage()?.protocolError)
        #expect(error.code == .lineTooLong)
        #expect(await client.isClosedByPeer())
        // Other clients are unaffected.
        let other = try await running.client()
        other.sendLine(#"{"type":"status","id":1}"#)
        #expect(await other.readLine() == #"{"id":1,"type":"ok"}"#)
        await running.stop()
    }

    @Test func controlCommandsNeedAuthorization() async throws {
        let running = try await RunningServer(authorization: Authorization(uids: [], gids: []))
        let client = try await running.client()
        client.sendLine(#"{"type":"command","command":"show","id":5}"#)
        let error = try #require(await client.readMessage()?.protocolError)
        #expect(error.code == .notAuthorized)
        #expect(error.id == .number(5))
        client.sendLine(#"{"type":"subscribe","topics":["devices"],"id":6}"#)
        #expect(await client.readLine() == #"{"id":6,"type":"ok"}"#, "everyone may subscribe")
        await running.stop()
    }

    @Test func aClientThatNeverReadsIsDroppedAndTheOthersAreServed() async throws {
        let running = try await RunningServer(capacity: 64)
        let silent = try await running.client()
        let healthy = try await running.client()
        let silentID = try #require(running.server.connections.first { $0.id.rawValue == "c1" })
        // 20 000 distinct lines: far more than a socket buffer plus 64 queued.
        let filler = String(repeating: "y", count: 200)
        for index in 0..<20_000 {
            silentID.send(.error(ProtocolError(.unknownView, "\(index) \(filler)")))
        }
        healthy.sendLine(#"{"type":"status","id":1}"#)
        #expect(await healthy.readLine() == #"{"id":1,"type":"ok"}"#)
        // The silent client is gone (its connection closed by the server).
        var waited = 0
        while running.server.connection(silentID.id) != nil, waited < 300 {
            try await Task.sleep(for: .milliseconds(10))
            waited += 1
        }
        #expect(running.server.connection(silentID.id) == nil)
        _ = silent
        await running.stop()
    }

    /// The connection sends on its descriptor while the channel holds none of
    /// its bytes, and through the channel once the socket is full: a client
    /// that falls behind and catches up gets every line, whole and in order,
    /// across the switches between the two.
    @Test func aClientThatFallsBehindGetsEveryLineInOrder() async throws {
        let running = try await RunningServer(capacity: 8192)
        let client = try await running.client()
        let connection = try #require(running.server.connections.first)
        // 4000 lines of about 300 bytes, 1.2 MB: several socket buffers' worth.
        let filler = String(repeating: "z", count: 280)
        let sender = Task.detached {
            for index in 0..<4000 {
                connection.send(.error(ProtocolError(.unknownView, "\(index) \(filler)")))
                if index % 500 == 0 { try? await Task.sleep(for: .milliseconds(20)) }
            }
        }
        try await Task.sleep(for: .milliseconds(300))  // the socket fills before anything is read
        var received: [Int] = []
        while received.count < 4000, let message = await client.readMessage() {
            guard case .error(let error) = message else {
                Issue.record("not an error line: \(message)")
                break
            }
            let words = error.message.split(separator: " ")
            #expect(words.count == 2 && words[1] == Substring(filler), "line \(received.count) cut or mixed")
            received.append(Int(words[0]) ?? -1)
        }
        await sender.value
        #expect(received.count == 4000)
        #expect(received.indices.allSatisfy { received[$0] == $0 }, "first out of order at \(received.indices.first { received[$0] != $0 } ?? -1)")
        await running.stop()
    }

    /// A client that left leaves its descriptor's number free, and the next
    /// client to connect usually gets it: nothing still sent to the one that
    /// left may reach the next.
    @Test func aConnectionThatClosedSendsNothingToItsDescriptorsNextOwner() async throws {
        let running = try await RunningServer()
        let gone = try await running.client()
        let stale = try #require(running.server.connections.first)
        gone.close()
        let deadline = ContinuousClock.now + .seconds(5)
        while running.server.connectionCount > 0, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(10))
        }
        let next = try await running.client()
        stale.send(.bye(reason: "stale"))
        stale.send(framed: ByteBuffer(string: "stale\n"))
        next.sendLine(#"{"type":"status","id":1}"#)
        #expect(await next.readLine() == #"{"id":1,"type":"ok"}"#)
        await running.stop()
        // After the bye of the shutdown, nothing: no stale line came before or after.
        #expect(await next.readLine() == #"{"reason":"shutdown","type":"bye"}"#)
        #expect(await next.isClosedByPeer())
    }

    @Test func shutdownSaysByeToEveryClient() async throws {
        let running = try await RunningServer()
        let a = try await running.client()
        let b = try await running.client()
        await running.stop()
        #expect(await a.readLine() == #"{"reason":"shutdown","type":"bye"}"#)
        #expect(await b.readLine() == #"{"reason":"shutdown","type":"bye"}"#)
    }
}

@Suite struct OutboundQueueTests {
    @Test func newerAdjustmentsReplaceUnsentOnesAndTheBoundHolds() {
        var queue = OutboundQueue(capacity: 3)
        func bytes(_ text: String) -> ByteBuffer { ByteBuffer(string: text) }
        let accepted = [
            queue.enqueue(bytes("a1"), coalescingView: "a"), queue.enqueue(bytes("k")),
            queue.enqueue(bytes("a2"), coalescingView: "a"),
        ]
        #expect(accepted == [true, true, true])
        #expect(queue.count == 2)
        let b = queue.enqueue(bytes("b"), coalescingView: "b")
        let overflow = queue.enqueue(bytes("k2"))
        #expect(b && !overflow)
        let drained = [queue.dequeue(), queue.dequeue(), queue.dequeue(), queue.dequeue()]
        #expect(drained == [bytes("a2"), bytes("k"), bytes("b"), nil])
    }
}
