import Foundation
import InputTestbed
import Testing

/// The daemon's threads are its own: the main thread (parked), the one NIO
/// event loop that runs every task (`DaemonRuntime`), the input reader and
/// the thread that accepts connections on the socket (`ConnectionAcceptor`). A
/// libdispatch worker pool (started by `dispatchMain()`, by `DispatchSource`
/// signal handling, or by tasks when the event loop is not the global
/// executor) would add threads named `com.apple.root.*-qos*` and, under the
/// unit's syscall filter, journal noise at every start. Checked after a client
/// connected and a SIGHUP reload. (scripts/systemd-test checks the same of the
/// `--static-swift-stdlib` build.)
@Suite struct DaemonThreadsTests {
    @Test func aServingDaemonThatReloadedRunsNoDispatchWorkers() async throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("threads-\(UUID().uuidString.prefix(8))")
        let socket = base.path + ".sock"
        let config = base.path + ".yaml"
        let log = base.path + ".log"
        try "keyboard: {mode: auto}\n".write(toFile: config, atomically: true, encoding: .utf8)
        let daemon = try InsetdLauncher.start(socket: socket, arguments: ["--config", config], log: log)
        defer { for path in [socket, config, log] { try? FileManager.default.removeItem(atPath: path) } }
        _ = try #require(await InsetdLauncher.connect(socket))

        kill(daemon.processIdentifier, SIGHUP)
        func logText() -> String { (try? String(contentsOfFile: log, encoding: .utf8)) ?? "" }
        for _ in 0..<300 where !logText().contains("configuration reloaded") { try await Task.sleep(for: .milliseconds(10)) }
        #expect(logText().contains("configuration reloaded"))

        let tasks = try FileManager.default.contentsOfDirectory(atPath: "/proc/\(daemon.processIdentifier)/task")
        let names = try tasks.map {
            try String(contentsOfFile: "/proc/\(daemon.processIdentifier)/task/\($0)/comm", encoding: .utf8)
                .trimmingCharacters(in: .whitespacesAndNewlines)
        }
        // NIO names the singleton group's loop NIO-SGLTN-<group>-#<loop>.
        let kinds = names.map { $0.hasPrefix("NIO-SGLTN-") ? "NIO-SGLTN" : $0 }
        #expect(kinds.sorted() == ["NIO-SGLTN", "insetd", "insetd-accept", "insetd-input"], "\(names)")

        // SIGTERM still stops it gracefully (exit 0) without the pool.
        #expect(await daemon.terminate() == .exited(0))
    }
}
