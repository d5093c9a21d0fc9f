import Foundation
import Glibc
import InputTestbed
import InsetClient
import InsetCore
import Testing
import InsetSocket

/// systemd's socket activation, played by the test: it owns the listening
/// socket and hands it to each insetd it starts, so connections made while the
/// daemon is down wait in the backlog instead of failing.
final class ActivationSocket {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("activated-\(UUID().uuidString.prefix(8)).sock").path
    let fd: Int32

    init() throws {
        fd = try UnixSocket.bind(path)
    }

    /// insetd with this socket as fd 3, `LISTEN_FDS=1` and `LISTEN_PID` its own
    /// pid (set by a shell that then execs insetd, as systemd sets it after fork).
    func startInsetd() throws -> SpawnedProcess {
        var environment = ChildProcess.realSystemEnvironment
        environment["LISTEN_FDS"] = "1"
        return try SpawnedProcess(
            "/bin/sh", ["-c", #"LISTEN_PID=$$ exec "$0" "$@""#, InsetdLauncher.binary.path, "--uevent-source", "udev"],
            environment: environment, passing: [fd])
    }

    deinit {
        close(fd)
        unlink(path)
    }
}

@Suite struct SocketActivationRestartTests {
    /// SIGKILL in the middle of a stream of view updates; the restarted daemon gets
    /// the same socket; the client reconnects, resyncs, and the view ends with
    /// the adjustment it had before the kill.
    @Test func aDaemonKilledMidStreamComesBackWithTheSameAdjustments() async throws {
        let activation = try ActivationSocket()
        var daemon = try activation.startInsetd()
        let client = InsetClient(socketPath: activation.path, name: "restart-test")
        let events = Events(client.events)
        await client.start()
        await client.register("form", InsetClientTests.view)
        await client.focus("form", field: Rect(x: 0, y: 600, width: 300, height: 44))
        #expect(await events.wait { InsetClientTests.adjustments($0).last?.additionalBottomInset == 209 })
        let before = try #require(InsetClientTests.adjustments(events.all).last)

        // Mid-stream: updates keep going out while the daemon dies.
        for height in stride(from: 2000.0, through: 2400, by: 100) {
            await client.update("form", ViewDescription(frame: InsetClientTests.view.frame, contentSize: Size(width: 1280, height: height)))
            if height == 2200 { daemon.signal(SIGKILL) }
        }
        #expect(daemon.wait() == .signalled(SIGKILL))
        #expect(await events.wait { $0.contains(.disconnected) })
        let settled = InsetClientTests.adjustments(events.all).count
        daemon = try activation.startInsetd()

        let resynced = await events.wait { events in
            let adjustments = InsetClientTests.adjustments(events)
            return adjustments.count > settled && adjustments.last?.contentSize.height == 2400
                && adjustments.last?.additionalBottomInset == 209
        }
        #expect(resynced, "the view was registered again with its last description, focus restored")
        let after = try #require(InsetClientTests.adjustments(events.all).last)
        #expect(after.additionalBottomInset == before.additionalBottomInset)
        #expect(after.adjustedContentInset == before.adjustedContentInset)
        #expect(after.contentOffset == before.contentOffset)
        #expect(events.all.filter { if case .connected = $0 { true } else { false } }.count == 2)
        await client.stop()
        #expect(await daemon.terminate() == .exited(0))
    }
}
