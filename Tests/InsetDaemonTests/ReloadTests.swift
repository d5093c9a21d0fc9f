import Foundation
import InputTestbed
import InsetProtocol
import Testing

/// SIGHUP: a bad file is refused and the running configuration stays; a good
/// file takes effect without a restart.
@Suite struct ReloadTests {
    @Test func aBadReloadKeepsTheRunningConfigurationAndAGoodOneApplies() async throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("reload-\(UUID().uuidString.prefix(8))")
        let socket = base.path + ".sock"
        let config = base.path + ".yaml"
        let log = base.appendingPathExtension("log")
        try "keyboard: {mode: auto}\n".write(toFile: config, atomically: true, encoding: .utf8)
        let daemon = try InsetdLauncher.start(socket: socket, arguments: ["--config", config], log: log.path)
        for _ in 0..<300 where !FileManager.default.fileExists(atPath: socket) { try await Task.sleep(for: .milliseconds(10)) }
        let client = try LineClient(path: socket)
        client.sendLine(#"{"type":"hello","version":1}"#)
        _ = await client.readLine()
        func mode() async -> String? {
            client.sendLine(#"{"type":"status","id":1}"#)
            while let message = await client.readMessage() {
                if case .status(_, let state, _, _) = message { return state.mode.rawValue }
            }
            return nil
        }
        func logText() -> String { (try? String(contentsOf: log, encoding: .utf8)) ?? "" }

        try "keyboard: {mode: sometimes}\n".write(toFile: config, atomically: true, encoding: .utf8)
        kill(daemon.processIdentifier, SIGHUP)
        for _ in 0..<300 where !logText().contains("reload failed") { try await Task.sleep(for: .milliseconds(10)) }
        #expect(logText().contains("reload failed; the running configuration stays"))
        #expect(logText().contains("keyboard.mode: 'sometimes' is not one of auto, always, never"))
        #expect(await mode() == "auto", "still serving, with the old configuration")

        try "keyboard: {mode: never}\n".write(toFile: config, atomically: true, encoding: .utf8)
        kill(daemon.processIdentifier, SIGHUP)
        var now: String?
        for _ in 0..<100 {
            now = await mode()
            if now == "never" { break }
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(now == "never")
        await daemon.terminate()
        for path in [socket, config, log.path] { try? FileManager.default.removeItem(atPath: path) }
    }
}
