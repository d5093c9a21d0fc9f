import Foundation
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
        let result = try await daemon.ctl("wait", "keyboard=shown", "tablet-mode=off", "--timeout", "0.3")
        #expect(result.status == 1)
        #expect(
            result.output
                == "insetctl: timed out after 0.3 s; held: tablet-mode=off; not held: keyboard=shown (is hidden); state: \(Self.idle)\n")
        await daemon.stop()
    }

    @Test func eventsNameTheClientAndItsCommand() async throws {
        let daemon = try await Daemon()
        let socket = daemon.socket
        async let events = run([InsetctlTests.insetctl, "events", "--count", "2", "--socket", socket])
        try await Task.sleep(for: .milliseconds(400))
        #expect(try await daemon.ctl("show").output == "ok\n")
        let result = try await events
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
