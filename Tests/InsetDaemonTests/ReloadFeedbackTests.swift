import Foundation
import Glibc
import InputTestbed
import Testing
import InsetSocket

/// `insetctl reload` and SIGHUP against the real insetd binary: what changed,
/// what needs a restart, a bad file's errors with the running configuration
/// kept, the runtime mode kept, and what systemd is told.
@Suite(.serialized) struct ReloadFeedbackTests {
    static let insetctl = insetdBinary.deletingLastPathComponent().appendingPathComponent("insetctl").path

    final class Daemon {
        let socket = FileManager.default.temporaryDirectory.appendingPathComponent("reload-\(UUID().uuidString.prefix(8)).sock").path
        let config = FileManager.default.temporaryDirectory.appendingPathComponent("reload-\(UUID().uuidString.prefix(8)).yaml").path
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("reload-\(UUID().uuidString.prefix(8)).log").path
        var process: SpawnedProcess!

        init(_ text: String, environment: [String: String] = [:]) async throws {
            try write(text)
            process = try InsetdLauncher.start(
                socket: socket, arguments: ["--config", config],
                environment: ChildProcess.realSystemEnvironment.merging(environment) { $1 }, log: log)
            for _ in 0..<300 where !FileManager.default.fileExists(atPath: socket) {
                try await Task.sleep(for: .milliseconds(10))
            }
        }

        func write(_ text: String) throws { try text.write(toFile: config, atomically: true, encoding: .utf8) }

        func ctl(_ arguments: String...) async throws -> (status: Int32, output: String) {
            try await run([ReloadFeedbackTests.insetctl] + arguments + ["--socket", socket])
        }

        var logText: String { (try? String(contentsOfFile: log, encoding: .utf8)) ?? "" }

        func stop() async {
            await process.terminate()
            for path in [socket, config, log] { unlink(path) }
        }
    }

    @Test func reloadPrintsWhatChangedAndWhatNeedsARestart() async throws {
        let daemon = try await Daemon("keyboard: {mode: auto}\n")
        try daemon.write("keyboard: {mode: always}\nfilter: {window-ms: 50}\ninput: {hotkeys: []}\n")
        let result = try await daemon.ctl("reload")
        #expect(result.status == 0)
        #expect(
            result.output == """
                reloaded \(daemon.config)
                changed: keyboard.mode, filter.window-ms
                needs a restart (systemctl restart insetd): input.hotkeys

                """)
        #expect(try await daemon.ctl("mode").output == "always\n")
        // Reloading the same file again changes nothing.
        #expect(try await daemon.ctl("reload").output == "reloaded \(daemon.config)\nchanged: nothing\n")
        #expect(daemon.logText.contains("configuration reloaded changed=keyboard.mode,filter.window-ms config=\(daemon.config) needs-restart=input.hotkeys"))
        await daemon.stop()
    }

    @Test func aBadFileFailsTheReloadWithItsErrorsAndTheRunningConfigurationStays() async throws {
        let daemon = try await Daemon("keyboard: {mode: never}\n")
        try daemon.write("keyboard:\n  modee: always\n")
        let result = try await daemon.ctl("reload")
        #expect(result.status == 1)
        #expect(
            result.output == """
                Error: not reloaded; insetd keeps its running configuration. The file has errors:
                \(daemon.config):2:3: keyboard.modee: unknown key; did you mean 'keyboard.mode'?

                """)
        #expect(try await daemon.ctl("mode").output == "never\n")
        #expect(daemon.logText.contains("reload failed; the running configuration stays"))
        await daemon.stop()
    }

    @Test func aModeSetAtRunTimeSurvivesAReloadUnlessTheFilesModeChanged() async throws {
        let daemon = try await Daemon("keyboard: {mode: auto}\n")
        #expect(try await daemon.ctl("mode", "never").output == "never\n")
        try daemon.write("keyboard: {mode: auto, portrait-height: 300}\n")
        #expect(try await daemon.ctl("reload").output.contains("changed: keyboard.portrait-height\n"))
        #expect(try await daemon.ctl("mode").output == "never\n", "the file's mode did not change")
        try daemon.write("keyboard: {mode: always, portrait-height: 300}\n")
        _ = try await daemon.ctl("reload")
        #expect(try await daemon.ctl("mode").output == "always\n", "the file's mode changed")
        let log = daemon.logText
        #expect(log.contains("info insetd.core: keyboard mode changed by=") && log.contains("mode=never"))
        #expect(log.contains("info insetd.core: keyboard mode changed by=reload mode=always"))
        await daemon.stop()
    }

    /// SIGHUP still reloads; systemd hears RELOADING=1 with MONOTONIC_USEC, then
    /// READY=1 with a STATUS= that says whether the reload worked.
    @Test func sighupReloadsAndTellsSystemdTheOutcome() async throws {
        let notify = FileManager.default.temporaryDirectory.appendingPathComponent("hup-\(UUID().uuidString.prefix(8)).notify").path
        let fd = try UnixSocket.bind(notify, type: SOCK_DGRAM)
        defer { close(fd); unlink(notify) }
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        func datagram() -> String? {
            var buffer = [UInt8](repeating: 0, count: 4096)
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            return count > 0 ? String(decoding: buffer[..<count], as: UTF8.self) : nil
        }
        let daemon = try await Daemon("keyboard: {mode: auto}\n", environment: ["NOTIFY_SOCKET": notify])
        #expect(datagram()?.hasPrefix("READY=1") == true)

        try daemon.write("keyboard: {mode: never}\n")
        daemon.process.signal(SIGHUP)
        let reloading = try #require(datagram())
        let fields = reloading.split(separator: "\n")
        #expect(fields.first == "RELOADING=1")
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let usec = try #require(fields.last.flatMap { UInt64($0.dropFirst("MONOTONIC_USEC=".count)) })
        #expect(fields.last?.hasPrefix("MONOTONIC_USEC=") == true)
        #expect(usec <= UInt64(now.tv_sec) * 1_000_000 + UInt64(now.tv_nsec) / 1000 && usec > 0)
        #expect(datagram() == "READY=1\nSTATUS=serving; configuration reloaded from \(daemon.config)")
        #expect(try await daemon.ctl("mode").output == "never\n")

        try daemon.write("keyboard: [never]\n")
        daemon.process.signal(SIGHUP)
        #expect(datagram()?.hasPrefix("RELOADING=1\nMONOTONIC_USEC=") == true)
        #expect(
            datagram()
                == "READY=1\nSTATUS=serving with the previous configuration; reload failed: \(daemon.config):1:1: keyboard: is a section (mode, portrait-height, landscape-height, accessory-bar-height, hardware-hold-off-ms, ignore-external-keyboards, animation-ms, animation-curve), not a value"
        )
        #expect(try await daemon.ctl("mode").output == "never\n")
        await daemon.stop()
    }
}
