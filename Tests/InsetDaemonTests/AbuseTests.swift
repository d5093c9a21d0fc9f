import Foundation
import Glibc
import InputTestbed
import InsetProtocol
import Testing

/// The real insetd under hostile or careless clients: bounded in count and time.
@Suite(.serialized) struct AbuseTests {
    final class Daemon {
        let socket = FileManager.default.temporaryDirectory.appendingPathComponent("abuse-\(UUID().uuidString.prefix(8)).sock").path
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("abuse-\(UUID().uuidString.prefix(8)).log").path
        let process: SpawnedProcess

        init() throws {
            process = try InsetdLauncher.start(socket: socket, log: log)
        }

        var pid: Int32 { process.processIdentifier }

        var facts: ProcessFacts { ProcessFacts(pid: pid) }
        var openDescriptors: Int { facts.openDescriptors }
        var cpuTicks: Int { facts.cpuTicks }

        func status() async throws -> DaemonMessage {
            let client = try #require(await InsetdLauncher.connect(socket))
            client.sendLine(#"{"type":"status","id":1}"#)
            return try #require(await client.next("status"))
        }

        deinit {
            if process.isRunning { kill(pid, SIGKILL) }
            try? FileManager.default.removeItem(atPath: socket)
            try? FileManager.default.removeItem(atPath: log)
        }
    }

    static let register = #"{"type":"register","view":"v","frame":{"x":0,"y":0,"width":400,"height":800},"contentSize":{"width":400,"height":3000}}"#

    struct BadMessage: Sendable, CustomTestStringConvertible {
        var name: String
        var line: String
        var code: String
        /// Words the error's message must contain, where it can name the field.
        var mentions: String? = nil
        var testDescription: String { name }
    }

    static let binary: String = {
        let bytes: [UInt8] = (0..<200).map { UInt8(($0 * 37 + 11) % 256) }
        return String(decoding: bytes.filter { $0 != 10 }, as: UTF8.self)
    }()
    static let deepArrays: String = String(repeating: "[", count: 30000) + String(repeating: "]", count: 30000)
    static let deepObjects: String = {
        let open = String(repeating: #"{"a":"#, count: 6000)
        return #"{"type":"focus","view":"v","field":"# + open + "1" + String(repeating: "}", count: 6001)
    }()

    static let badMessages: [BadMessage] = [
        BadMessage(name: "truncated JSON", line: #"{"type":"register","view":"v","frame":{"x":0,"#, code: "malformed-json"),
        BadMessage(name: "binary bytes", line: binary, code: "malformed-json"),
        BadMessage(name: "NUL bytes", line: "{\"type\":\"status\u{0}\"}\u{0}\u{0}", code: "malformed-json"),
        BadMessage(name: "nested arrays 30000 deep", line: deepArrays, code: "malformed-json"),
        // Foundation refuses nesting past its depth limit (512) before any field is read.
        BadMessage(name: "nested objects in a field", line: deepObjects, code: "malformed-json"),
        BadMessage(name: "a number too large", line: #"{"type":"transition","duration":1e999}"#, code: "malformed-json"),
        BadMessage(
            name: "a string where a number goes",
            line: #"{"type":"scroll","view":"v","rect":{"x":"0","y":0,"width":1,"height":1}}"#, code: "invalid-field",
            mentions: #"scroll: field "rect.x": expected a number"#),
        BadMessage(name: "a JSON array", line: "[1,2,3]", code: "malformed-json"),
    ]

    @Test(arguments: badMessages)
    func badMessagesGetAnErrorAndTheDaemonServesOn(_ message: BadMessage) async throws {
        let (name, line, code) = (message.name, message.line, message.code)
        let daemon = try Daemon()
        let client = try #require(await InsetdLauncher.connect(daemon.socket))
        client.sendLine(Self.register)
        _ = await client.next("adjustment")
        client.sendLine(line)
        let error = await client.next("error")
        #expect(error?.protocolError?.code.rawValue == code, "\(name): \(String(describing: error))")
        if let mentions = message.mentions {
            #expect(error?.protocolError?.message.contains(mentions) == true, "\(name): \(String(describing: error))")
        }
        client.sendLine(#"{"type":"status","id":2}"#)
        #expect(await client.next("status")?.counts?.views == 1, "\(name): the same connection still works")
        #expect(daemon.process.isRunning)
        await daemon.process.terminate()
    }

    @Test func anOversizedLineClosesThatClientOnly() async throws {
        let daemon = try Daemon()
        let bystander = try #require(await InsetdLauncher.connect(daemon.socket))
        let client = try #require(await InsetdLauncher.connect(daemon.socket))
        client.send(String(repeating: "x", count: 70_000))
        #expect(await client.next("error")?.protocolError?.code.rawValue == "line-too-long")
        #expect(await client.isClosedByPeer())
        bystander.sendLine(#"{"type":"status","id":3}"#)
        #expect(await bystander.next("status")?.counts?.clients == 1)
        await daemon.process.terminate()
    }

    @Test func aThousandConnectionsComeAndGoWithoutLeakingAndTheDaemonGoesIdle() async throws {
        let daemon = try Daemon()
        _ = try await daemon.status()
        try await Task.sleep(for: .milliseconds(100))
        let descriptorsBefore = daemon.openDescriptors
        for index in 0..<1000 {
            let client = try #require(await InsetdLauncher.connect(daemon.socket), "connection \(index)")
            // Half leave with a registered view, half right after hello.
            if index % 2 == 0 {
                client.sendLine(Self.register)
                _ = await client.next("adjustment")
            }
            // At once, not whenever the object goes: with ~1360 descriptors open in
            // this process, Foundation's Process.run (used by tests running beside
            // this one) over-reads /proc/self/fd and crashes (swift-corelibs-foundation#5472).
            client.close()
        }
        let status = try await daemon.status()
        #expect(status.counts?.clients == 1, "only the asking client remains")
        #expect(status.counts?.views == 0, "every view left with its client")
        try await Task.sleep(for: .milliseconds(200))
        #expect(daemon.openDescriptors == descriptorsBefore, "descriptors before \(descriptorsBefore), after \(daemon.openDescriptors)")

        let ticks = daemon.cpuTicks
        try await Task.sleep(for: .seconds(1))
        #expect(daemon.cpuTicks - ticks <= 2, "busy while idle: \(daemon.cpuTicks - ticks) ticks in 1 s")
        await daemon.process.terminate()
    }
}
