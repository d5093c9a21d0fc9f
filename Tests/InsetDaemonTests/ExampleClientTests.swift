import Foundation
import InputTestbed
import Testing

/// The standard-library Python example client against the real daemon.
@Suite struct ExampleClientTests {
    @Test func thePythonClientRegistersFocusesAndPrintsItsAdjustments() async throws {
        let socket = FileManager.default.temporaryDirectory.appendingPathComponent("py-\(UUID().uuidString.prefix(8)).sock").path
        let daemon = try InsetdLauncher.start(socket: socket)
        for _ in 0..<300 where !FileManager.default.fileExists(atPath: socket) { try await Task.sleep(for: .milliseconds(10)) }
        let script = repositoryRoot.appendingPathComponent("Examples/python/insetd_client.py").path
        let result = try await ChildProcess.run(["python3", script, "--socket", socket, "--focus", "0,600,300,44", "--count", "4"])
        await daemon.terminate()
        #expect(result.status == 0, "\(result.output)")
        // Registration, willShow, the adjusted view (1280x800: 209 pt keyboard, field
        // bottom 644 -> 644 - 800 + 209 = 53), didShow.
        #expect(
            result.output.split(separator: "\n").map(String.init) == [
                "adjustment main: bottom inset 0, offset 0,0, animate 0s",
                "keyboard willShow: height 209 at y 591 (local: True)",
                "adjustment main: bottom inset 209, offset 0,53, animate 0.25s",
                "keyboard didShow: height 209 at y 591 (local: True)",
            ])
    }

    @Test func thePythonClientInAWindowGetsWhatTheKeyboardCoversOfIt() async throws {
        let socket = FileManager.default.temporaryDirectory.appendingPathComponent("py-\(UUID().uuidString.prefix(8)).sock").path
        let daemon = try InsetdLauncher.start(socket: socket)
        for _ in 0..<300 where !FileManager.default.fileExists(atPath: socket) { try await Task.sleep(for: .milliseconds(10)) }
        let script = repositoryRoot.appendingPathComponent("Examples/python/insetd_client.py").path
        let result = try await ChildProcess.run(
            ["python3", script, "--socket", socket, "--window", "0,100,1280,600", "--focus", "0,400,300,44", "--count", "4"])
        await daemon.terminate()
        #expect(result.status == 0, "\(result.output)")
        // The window covers screen 100...700, the keyboard 591...800: 109 covered;
        // the field (400...444) fits above 600 - 109 = 491, so no scrolling.
        #expect(
            result.output.split(separator: "\n").map(String.init) == [
                "adjustment main: bottom inset 0, offset 0,0, animate 0s",
                "keyboard willShow: height 209 at y 591 (local: True)",
                "adjustment main: bottom inset 109, offset 0,0, animate 0.25s",
                "keyboard didShow: height 209 at y 591 (local: True)",
            ])
    }

    @Test func thePythonClientSaysWhenItCannotConnect() async throws {
        let script = repositoryRoot.appendingPathComponent("Examples/python/insetd_client.py").path
        let result = try await ChildProcess.run(["python3", script, "--socket", "/nonexistent/insetd.sock"])
        #expect(result.status == 1)
        #expect(result.output.contains("cannot connect to /nonexistent/insetd.sock"))
    }
}
