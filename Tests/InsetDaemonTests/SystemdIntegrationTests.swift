import Foundation
import InputTestbed
import Testing

@testable import InsetDaemon
import InsetSocket

@Suite struct SystemdIntegrationTests {
    @Test(arguments: [
        (String?.some("/tmp/x.sock"), ["RUNTIME_DIRECTORY": "/run/insetd"], UInt32(0), "/tmp/x.sock"),
        (nil, ["RUNTIME_DIRECTORY": "/run/insetd:/run/other"], 1000, "/run/insetd/insetd.sock"),
        (nil, ["XDG_RUNTIME_DIR": "/run/user/1000"], 1000, "/run/user/1000/insetd.sock"),
    ])
    func socketLocation(explicit: String?, environment: [String: String], uid: UInt32, expected: String) throws {
        #expect(try SocketLocation.resolve(explicit: explicit, environment: environment, uid: uid) == expected)
    }

    @Test func aUserWithoutARuntimeDirectoryIsToldWhatToDo() {
        #expect(throws: SocketLocationError.self) { try SocketLocation.resolve(explicit: nil, environment: [:], uid: 1000) }
        #expect(SocketLocationError().description.contains("pass --socket PATH"))
    }

    @Test func watchdogIntervalFollowsWatchdogUsecForThisProcessOnly() {
        #expect(SystemdNotifier.watchdogInterval(environment: ["WATCHDOG_USEC": "30000000"]) == .seconds(30))
        #expect(SystemdNotifier.watchdogInterval(environment: ["WATCHDOG_USEC": "30000000", "WATCHDOG_PID": "1"]) == nil)
        #expect(SystemdNotifier.watchdogInterval(environment: [:]) == nil)
        #expect(!SystemdNotifier(environment: [:]).isActive)
        #expect(!SystemdNotifier(environment: [:]).notify("READY=1"), "no NOTIFY_SOCKET: a no-op")
    }

    @Test func journalPrioritiesMatchSdDaemon() {
        #expect(
            [.trace, .debug, .info, .notice, .warning, .error, .critical].map(DaemonLogHandler.priority) == [7, 7, 6, 5, 4, 3, 2])
    }

    @Test func anInvalidConfigurationStopsTheDaemonWithTheReason() async throws {
        let config = FileManager.default.temporaryDirectory.appendingPathComponent("bad-\(UUID().uuidString.prefix(8)).yaml").path
        try "filter: {window-ms: -5}\n".write(toFile: config, atomically: true, encoding: .utf8)
        let result = try await ChildProcess.run([insetdBinary.path, "--config", config, "--socket", config + ".sock"])
        #expect(result.status == 78, "EX_CONFIG, which the unit's RestartPreventExitStatus= names")
        #expect(result.output.contains("insetd: invalid configuration"))
        #expect(result.output.contains("\(config):1:21: filter.window-ms: '-5' is out of range (0 to 5000)"))
        try? FileManager.default.removeItem(atPath: config)
    }
}
