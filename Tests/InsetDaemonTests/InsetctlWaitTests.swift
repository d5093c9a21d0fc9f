import Foundation
import Glibc
import InputTestbed
import Testing

/// `insetctl wait` and `insetctl events` against the real daemon, with no input
/// hardware (this machine has none; the testbed tests cover devices).
@Suite(.serialized) struct InsetctlWaitTests {
    typealias Daemon = InsetctlTests.Daemon
    static let idle = "keyboard=hidden hardware-keyboard=no tablet-mode=off mode=auto devices=0"

    @Test func returnsAtOnceWhenEveryConditionHolds() async throws {
        let daemon = try await Daemon()
        let result = try await daemon.ctl("wait", "keyboard=hidden", "devices=0", "hardware-keyboard=no")
        #expect(result.status == 0)
        #expect(result.output == Self.idle + "\n")
        await daemon.stop()
    }

    @Test func waitsForTheChangeItWasWaitingFor() async throws {
        let daemon = try await Daemon()
        let socket = daemon.socket
        async let waited = run([InsetctlTests.insetctl, "wait", "keyboard=shown", "mode=always", "--socket", socket])
        try await Task.sleep(for: .milliseconds(400))
        let client = try #require(await InsetdLauncher.connect(socket))
        client.sendLine(#"{"type":"policy","mode":"always","id":1}"#)
        #expect(await client.next("ok") != nil)
        client.sendLine(#"{"type":"command","command":"show","id":2}"#)
        #expect(await client.next("ok") != nil)
        let result = try await waited
        #expect(result.status == 0)
        #expect(result.output == "keyboard=shown hardware-keyboard=no tablet-mode=off mode=always devices=0\n")
        client.close()
        await daemon.stop()
    }

    @Test func aTimeoutSaysWhatHeldAndWhatDidNot() async throws {
        let daemon = try await Daemon()
        // The daemon answers first (a loaded machine can take a while to start it).
        #expect(try await daemon.ctl("wait", "keyboard=hidden", "--timeout", "20").status == 0)
        let result = try await daemon.ctl("wait", "keyboard=shown", "tablet-mode=off", "--timeout", "1.5")
        #expect(result.status == 1)
        #expect(
            result.output
                == "insetctl: timed out after 1.5 s; held: tablet-mode=off; not held: keyboard=shown (is hidden); state: \(Self.idle)\n")
        await daemon.stop()
    }

    @Test func eventsNameTheClientAndItsCommand() async throws {
        let daemon = try await Daemon()
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("events-\(UUID().uuidString)").path
        defer { unlink(output) }
        let events = try SpawnedProcess(
            InsetctlTests.insetctl, ["events", "--count", "2", "--socket", daemon.socket], stdout: output, stderr: output)
        // The first line is the state at subscription: from then on nothing is missed.
        for _ in 0..<2000 where ((try? String(contentsOfFile: output, encoding: .utf8)) ?? "").isEmpty {
            try await Task.sleep(for: .milliseconds(5))
        }
        #expect(try await daemon.ctl("show").output == "ok\n")
        for _ in 0..<2000 where events.isRunning { try await Task.sleep(for: .milliseconds(5)) }
        let result = (status: events.terminationStatus, output: try String(contentsOfFile: output, encoding: .utf8))
        #expect(result.status == 0)
        let lines = result.output.split(separator: "\n").map(String.init)
        try #require(lines.count == 2)
        // "SECONDS.NANOSECONDS  decision  <- cause"; the client number depends on connection order.
        #expect(lines[0].hasSuffix("  state \(Self.idle)  <- subscribed"))
        #expect(lines[1].contains("  keyboard shown (willShow to 0,591 1280x209)  <- client c"))
        #expect(lines[1].hasSuffix(" command show"))
        let time = try #require(lines[1].split(separator: " ").first)
        #expect(time.split(separator: ".").last?.count == 9)
        await daemon.stop()
    }

    @Test(arguments: [
        (["wait", "keyboard=up"], "'keyboard=up': keyboard is one of shown, bar, hidden"),
        (["wait", "devices=-1"], "'devices=-1': devices takes a count (devices=1)"),
        (["wait", "colour=red"], "'colour=red' is not a condition: write NAME=VALUE with NAME one of keyboard, hardware-keyboard, tablet-mode, mode, devices"),
        (["wait"], "name at least one condition (keyboard=shown)"),
    ])
    func badConditionsAreUsageErrors(arguments: [String], message: String) async throws {
        let result = try await run([InsetctlTests.insetctl] + arguments)
        #expect(result.status == 64)
        #expect(result.output.contains(message))
    }

    @Test func anUnreachableDaemonExits2() async throws {
        let result = try await run([
            InsetctlTests.insetctl, "wait", "keyboard=hidden", "--timeout", "0.2", "--socket", "/nonexistent/insetd.sock",
        ])
        #expect(result.status == 2)
        #expect(result.output.hasPrefix("insetctl: cannot connect to /nonexistent/insetd.sock: No such file or directory."))
        #expect(result.output.split(separator: "\n").count == 1)
    }
}
