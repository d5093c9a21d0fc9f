import Foundation
import Glibc
import InputTestbed
import InsetProtocol
import Testing

/// What a local user with access to the socket must not be able to do, each
/// tried against the real insetd binary.
@Suite(.serialized) struct SocketHardeningTests {
    /// insetd on a fresh socket, with its log and (optionally) a configuration.
    final class Daemon {
        let socket: String
        let log: String
        let config: String?
        let process: SpawnedProcess

        init(
            config yaml: String? = nil, under wrapper: [String] = [], socket: String? = nil,
            environment extra: [String: String] = [:]
        ) throws {
            let tag = UUID().uuidString.prefix(8)
            let directory = FileManager.default.temporaryDirectory.path
            self.socket = socket ?? "\(directory)/hardening-\(tag).sock"
            log = "\(directory)/hardening-\(tag).log"
            if let yaml {
                let path = "\(directory)/hardening-\(tag).yaml"
                try yaml.write(toFile: path, atomically: true, encoding: .utf8)
                config = path
            } else {
                config = nil
            }
            let arguments = ["--socket", self.socket, "--uevent-source", "udev"] + (config.map { ["--config", $0] } ?? [])
            let environment = ChildProcess.realSystemEnvironment.merging(extra) { _, given in given }
            if wrapper.isEmpty {
                process = try SpawnedProcess(InsetdLauncher.binary.path, arguments, environment: environment, stderr: log)
            } else {
                process = try SpawnedProcess(
                    wrapper[0], Array(wrapper.dropFirst()) + [InsetdLauncher.binary.path] + arguments,
                    environment: environment, stderr: log)
            }
        }

        var logText: String { (try? String(contentsOfFile: log, encoding: .utf8)) ?? "" }

        func status() async throws -> DaemonMessage {
            let client = try #require(await InsetdLauncher.connect(socket))
            client.sendLine(#"{"type":"status","id":1}"#)
            return try #require(await client.next("status"))
        }

        deinit {
            if process.isRunning { kill(process.pid, SIGKILL) }
            _ = process.wait()
            try? FileManager.default.removeItem(atPath: socket)
            try? FileManager.default.removeItem(atPath: log)
            if let config { try? FileManager.default.removeItem(atPath: config) }
        }
    }

    /// Waits until `condition` holds, up to `seconds`.
    static func eventually(_ seconds: Double, _ condition: () -> Bool) async -> Bool {
        for _ in 0..<Int(seconds * 20) {
            if condition() { return true }
            try? await Task.sleep(for: .milliseconds(50))
        }
        return condition()
    }

    // MARK: 1. One line must not kill the daemon

    struct Refused: Sendable, CustomTestStringConvertible {
        var name: String
        var line: String
        var code: String
        /// The words the error must contain: the field, named as the client wrote it.
        var mentions: String
        var testDescription: String { name }
    }

    static let frame = #""frame":{"x":0,"y":0,"width":400,"height":800},"contentSize":{"width":400,"height":3000}"#

    static let refused: [Refused] = [
        Refused(
            name: "safe area and additional inset at the edge of Double",
            line: #"{"type":"register","id":5,"view":"v","# + frame
                + #","safeArea":{"top":0,"left":0,"bottom":1.7e308,"right":0},"additionalBottomInset":-1.7e308}"#,
            code: "invalid-field", mentions: #"register: field "safeArea.bottom": must be a number from -1000000 to 1000000"#),
        Refused(
            name: "an additional inset beyond a million points",
            line: #"{"type":"register","view":"v","# + frame + #","additionalBottomInset":-1000001}"#,
            code: "invalid-field", mentions: #"field "additionalBottomInset""#),
        Refused(
            name: "a huge scroll rectangle",
            line: #"{"type":"scroll","view":"v","rect":{"x":0,"y":1e300,"width":1,"height":1}}"#,
            code: "invalid-field", mentions: #"scroll: field "rect.y""#),
        Refused(
            name: "a negative content size",
            line: #"{"type":"update","view":"v","frame":{"x":0,"y":0,"width":400,"height":800},"contentSize":{"width":400,"height":-1}}"#,
            code: "invalid-field", mentions: #"update: field "contentSize.height": must not be negative"#),
        Refused(
            name: "a negative frame width",
            line: #"{"type":"register","view":"w","frame":{"x":0,"y":0,"width":-400,"height":800},"contentSize":{"width":1,"height":1}}"#,
            code: "invalid-field", mentions: #"field "frame.width""#),
        Refused(
            name: "an empty view name", line: #"{"type":"focus","view":"","field":{"x":0,"y":0,"width":1,"height":1}}"#,
            code: "invalid-field", mentions: #"focus: field "view": must not be empty"#),
        Refused(
            name: "a 0x0 screen", line: #"{"type":"transition","duration":0.3,"screen":{"width":0,"height":0}}"#,
            code: "invalid-field", mentions: #"transition: field "screen""#),
        Refused(
            name: "a number as the type", line: #"{"type":7,"id":8}"#, code: "unknown-type", mentions: #""type" must be a string"#),
        Refused(
            name: "a fractional id", line: #"{"type":"status","id":1.5}"#, code: "invalid-field", mentions: #"field "id""#),
        Refused(
            name: "an array where a rect goes",
            line: #"{"type":"focus","view":"v","field":[0,0,1,1]}"#, code: "invalid-field",
            mentions: #"focus: field "field": expected an object"#),
        Refused(
            name: "an unknown topic", line: #"{"type":"subscribe","topics":["devices","weather"]}"#, code: "invalid-field",
            mentions: #"subscribe: field "topics[1]": must be one of devices, policy, events, rotation"#),
        Refused(
            name: "an unknown behaviour", line: #"{"type":"register","view":"x","# + frame + #","behavior":"bogus"}"#,
            code: "invalid-field", mentions: "must be one of safeAreaInsets"),
    ]

    @Test(arguments: refused)
    func geometryAndFieldsAreValidatedWhileDecoding(_ case_: Refused) async throws {
        let daemon = try Daemon()
        let client = try #require(await InsetdLauncher.connect(daemon.socket))
        client.sendLine(#"{"type":"register","view":"v","# + Self.frame + "}")
        #expect(await client.next("adjustment") != nil)
        client.sendLine(case_.line)
        let error = try #require(await client.next("error"), "\(case_.name): no error")
        #expect(error.protocolError?.code.rawValue == case_.code, "\(case_.name): \(error)")
        let message = error.protocolError?.message ?? ""
        #expect(message.contains(case_.mentions), "\(case_.name): \(message)")
        #expect(!message.contains("DecodingError") && !message.contains("CodingKeys"), "no Swift internals: \(message)")
        client.sendLine(#"{"type":"status","id":2}"#)
        #expect(await client.next("status")?.counts?.views == 1, "\(case_.name): the daemon serves on")
        #expect(daemon.process.isRunning)
    }

    // MARK: 2. Idle connections must not lock everyone out

    @Test func aConnectionWithoutHelloIsClosedAtTheDeadline() async throws {
        let daemon = try Daemon(config: "server:\n  hello-timeout-ms: 400\n")
        _ = try await daemon.status()
        let idle = try LineClient(path: daemon.socket, receiveTimeout: 5)
        let started = ContinuousClock.now
        let bye = await idle.readMessage()
        let waited = ContinuousClock.now - started
        #expect(bye?.byeReason == "hello-timeout", "\(String(describing: bye))")
        #expect(await idle.isClosedByPeer())
        #expect(waited >= .milliseconds(300), "closed after \(waited), before its deadline")
        let helloed = try #require(await InsetdLauncher.connect(daemon.socket))
        try await Task.sleep(for: .milliseconds(700))
        helloed.sendLine(#"{"type":"status","id":1}"#)
        #expect(await helloed.next("status") != nil, "a client that said hello is not subject to the deadline")
        #expect(daemon.logText.contains("client refused: no hello in time"))
    }

    @Test func connectionsBeyondTheCapsAreRefusedAndServedAgainOnceSomeLeave() async throws {
        let daemon = try Daemon(config: "server:\n  max-connections: 6\n  max-connections-per-user: 4\n")
        var clients: [LineClient] = []
        for index in 0..<4 { clients.append(try #require(await InsetdLauncher.connect(daemon.socket), "client \(index)")) }
        let fifth = try LineClient(path: daemon.socket)
        let bye = await fifth.readMessage()
        #expect(bye?.byeReason == "too-many-connections", "\(String(describing: bye))")
        #expect(await fifth.isClosedByPeer())
        #expect(daemon.logText.contains("client refused: too many connections from this user"))

        clients.removeLast().close()
        let replacement = await Self.eventuallyConnect(daemon.socket)
        #expect(replacement != nil, "a place freed is a place to take")
    }

    @Test func theTotalCapHoldsBelowThePerUserCap() async throws {
        let daemon = try Daemon(config: "server:\n  max-connections: 2\n  max-connections-per-user: 10\n")
        let first = try #require(await InsetdLauncher.connect(daemon.socket))
        let second = try #require(await InsetdLauncher.connect(daemon.socket))
        let third = try LineClient(path: daemon.socket)
        #expect(await third.readMessage()?.byeReason == "too-many-connections")
        #expect(daemon.logText.contains("client refused: too many connections"))
        _ = (first, second)
    }

    static func eventuallyConnect(_ socket: String) async -> LineClient? {
        for _ in 0..<20 {
            if let client = await InsetdLauncher.connect(socket) { return client }
            try? await Task.sleep(for: .milliseconds(100))
        }
        return nil
    }

    /// With its descriptors exhausted (a limit of 64 and caps far above it),
    /// insetd neither spins in `accept` nor stops serving for good: it backs off,
    /// and once the hello deadline has closed the idle connections, a new client
    /// is served.
    @Test func runningOutOfDescriptorsBacksOffAndRecovers() async throws {
        let daemon = try Daemon(
            config: "server:\n  hello-timeout-ms: 1500\n  max-connections: 1000\n  max-connections-per-user: 1000\n",
            under: ["/usr/bin/python3", "-c", Self.limitedTo64Descriptors])
        // Up to 10 s: beside the whole suite, a start can take longer than connect's 3 s.
        #expect(await Self.eventuallyServed(daemon.socket, within: 10), "insetd starts with 64 descriptors")
        var idle: [LineClient] = []
        for _ in 0..<90 { if let client = try? LineClient(path: daemon.socket) { idle.append(client) } }
        #expect(await Self.eventually(3) { daemon.logText.contains("accept failed") }, "descriptors ran out")
        let facts = ProcessFacts(pid: daemon.process.pid)
        let ticks = facts.cpuTicks
        try await Task.sleep(for: .milliseconds(500))
        let used = facts.cpuTicks - ticks
        #expect(used <= 15, "accept spun: \(used) ticks of 50 in 0.5 s")
        let served = await Self.eventuallyServed(daemon.socket, within: 8)
        #expect(served, "served again once the idle connections were closed")
        idle.forEach { $0.close() }
    }

    /// Runs argv[1:] with a descriptor limit of 64 and none of this process's
    /// descriptors: the test process shares whatever it has open (not close-on-
    /// exec) with its children, which beside the whole suite can be more than 64.
    static let limitedTo64Descriptors = """
        import os, resource, sys
        os.closerange(3, 65536)
        resource.setrlimit(resource.RLIMIT_NOFILE, (64, 64))
        os.execv(sys.argv[1], sys.argv[1:])
        """

    static func eventuallyServed(_ socket: String, within seconds: Int) async -> Bool {
        for _ in 0..<(seconds * 4) {
            if let client = try? LineClient(path: socket, receiveTimeout: 0.25) {
                client.sendLine(#"{"type":"hello","version":1}"#)
                if await client.readMessage()?.type == "welcome" { return true }
            }
            try? await Task.sleep(for: .milliseconds(250))
        }
        return false
    }

    // MARK: 3. Log forging

    @Test func aClientsNameCannotForgeOrFloodTheLog() async throws {
        let daemon = try Daemon()
        _ = try await daemon.status()
        let forged = "kiosk\\n<2>insetd: forged critical line\\u001b[2J\\u001b]0;owned\\u0007" + String(repeating: "A", count: 60_000)
        let client = try LineClient(path: daemon.socket)
        client.sendLine(#"{"type":"hello","version":1,"client":""# + forged + #""}"#)
        #expect(await client.next("welcome") != nil)
        #expect(await Self.eventually(3) { daemon.logText.contains("name=kiosk") })
        let log = daemon.logText
        let lines = log.split(separator: "\n")
        #expect(!lines.contains { $0.hasPrefix("<") || $0.contains("forged critical") && !$0.contains("client connected") })
        #expect(!log.utf8.contains(0x1B), "no escape byte reaches the log")
        #expect(!log.utf8.contains(0x07))
        #expect(log.contains(#"kiosk\n<2>insetd: forged critical line\u{1b}[2J"#), "control characters are shown escaped")
        let longest = lines.map(\.utf8.count).max() ?? 0
        #expect(longest < 1000, "a log line of \(longest) bytes")
        #expect(log.contains("…(+"), "the cut is marked")
    }

    // MARK: 4. A second insetd must not take a live socket

    @Test func aSecondDaemonLeavesALiveSocketAloneAndSaysWhy() async throws {
        let first = try Daemon()
        _ = try await first.status()
        let second = try Daemon(socket: first.socket)
        let ended = await Self.eventually(10) { !second.process.isRunning }
        #expect(ended, "the second insetd exits")
        #expect(second.process.wait() == .exited(1))
        let complaint = second.logText.split(separator: "\n").filter { !$0.contains(" info ") }
        #expect(complaint.count == 1, "one line: \(complaint)")
        #expect(complaint.first?.contains("\(first.socket) is in use by a running insetd") == true, "\(complaint)")
        let status = try await first.status()
        #expect(status.counts?.clients == 1, "the first insetd still serves its socket")
    }

    @Test func aStaleSocketIsReplaced() async throws {
        let first = try Daemon()
        _ = try await first.status()
        kill(first.process.pid, SIGKILL)
        _ = first.process.wait()
        #expect(FileManager.default.fileExists(atPath: first.socket), "a killed daemon leaves its socket file")
        let second = try Daemon(socket: first.socket)
        let status = try await second.status()
        #expect(status.counts?.clients == 1)
    }
}
