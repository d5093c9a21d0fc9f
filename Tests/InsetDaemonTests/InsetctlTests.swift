import Foundation
import InputTestbed
import InsetCore
import InsetProtocol
import Testing

/// insetctl, the binary, against insetd, the binary, on a real socket.
@Suite(.serialized) struct InsetctlTests {
    static let insetctl = insetdBinary.deletingLastPathComponent().appendingPathComponent("insetctl").path

    final class Daemon {
        let socket = FileManager.default.temporaryDirectory.appendingPathComponent("insetctl-\(UUID().uuidString.prefix(8)).sock").path
        let process: SpawnedProcess

        init() async throws {
            process = try InsetdLauncher.start(socket: socket)
            for _ in 0..<300 where !FileManager.default.fileExists(atPath: socket) {
                try await Task.sleep(for: .milliseconds(10))
            }
        }

        func ctl(_ arguments: String...) async throws -> (status: Int32, output: String) {
            try await run([insetctl] + arguments + ["--socket", socket])
        }

        func stop() async { await process.terminate() }
    }

    /// `status --json`'s line read as a client reads it; nil when it is no status.
    func decodedStatus(_ output: String) throws -> (clients: Int, views: Int)? {
        let line = Array(output.utf8.prefix { $0 != UInt8(ascii: "\n") })
        guard case .status(_, _, let clients, let views) = try DaemonMessageDecoder.decode(line, client: ClientID("")) else { return nil }
        return (clients, views)
    }

    @Test func statusDevicesShowAndSimulate() async throws {
        let daemon = try await Daemon()
        let status = try await daemon.ctl("status")
        #expect(status.status == 0)
        #expect(status.output.contains("keyboard:          hidden"))
        #expect(status.output.contains("screen:            1280x800 landscape"))

        let devices = try await daemon.ctl("devices", "--json")
        #expect(devices.status == 0)
        #expect(devices.output == "[]\n", "no input hardware here without a testbed")

        let focus = try await daemon.ctl("simulate", "focus", "--rect", "0,600,300,44", "--wait", "400")
        #expect(focus.status == 0)
        #expect(focus.output.contains("keyboard willShow (local): 0,800 1280x209 -> 0,591 1280x209 in 0.25s"))
        #expect(focus.output.contains("view insetctl: bottom inset 209 (total 209), offset 0,53"))

        let show = try await daemon.ctl("show")
        #expect(show.output == "ok\n", "insetctl show exited \(show.status): \(show.output)")
        let shown = try await daemon.ctl("status")
        #expect(shown.output.contains("keyboard:          shown at 0,591 1280x209"), "insetctl status: \(shown.output)")
        let json = try await daemon.ctl("status", "--json")
        #expect(try decodedStatus(json.output) != nil)
        await daemon.stop()
    }

    @Test func watchPrintsKeyboardChangesAsTheyHappen() async throws {
        let daemon = try await Daemon()
        let socket = daemon.socket
        async let watched = run([Self.insetctl, "watch", "--count", "2", "--socket", socket])
        // Until the watcher has said hello (status counts it beside the asker),
        // then a moment for its subscribe, which follows hello at once.
        for _ in 0..<500 {
            let status = try await daemon.ctl("status", "--json")
            if try decodedStatus(status.output)?.clients == 2 { break }
            try await Task.sleep(for: .milliseconds(20))
        }
        try await Task.sleep(for: .milliseconds(100))
        _ = try await daemon.ctl("show")
        let output = try await watched
        #expect(output.status == 0)
        #expect(
            output.output == """
                keyboard willShow: 0,800 1280x209 -> 0,591 1280x209 in 0.25s
                keyboard didShow: 0,800 1280x209 -> 0,591 1280x209 in 0.25s

                """)
        await daemon.stop()
    }

    @Test func errorsNameTheSocketAndWhatToDo() async throws {
        let result = try await run([Self.insetctl, "status", "--socket", "/nonexistent/insetd.sock"])
        #expect(result.status == 1)
        #expect(result.output.contains("cannot connect to /nonexistent/insetd.sock"))
        #expect(result.output.contains("Is insetd running"))
        let bad = try await run([Self.insetctl, "simulate", "focus", "--rect", "1,2"])
        #expect(bad.status == 64)
        #expect(bad.output.contains("--rect must be x,y,width,height"))
    }

    @Test func completionsAreGenerated() async throws {
        let bash = try await run([Self.insetctl, "--generate-completion-script", "bash"])
        #expect(bash.status == 0)
        #expect(bash.output.contains("simulate"))
        #expect(bash.output.contains("devices"))
    }
}
