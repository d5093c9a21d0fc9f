import Foundation
import Glibc
import InputTestbed
import InsetCore
import InsetProtocol
import Testing

/// The real keyboard's frame, once a bridge reported it, outlives insetd: the
/// real binary with a state directory (systemd's `StateDirectory=`) keeps it,
/// and the next run's first show publishes it before any bridge connects.
@Suite(.serialized) struct LearnedFramesAcrossRestartsTests {
    @Test func aReportedFrameIsTheNextRunsKeyboard() async throws {
        let state = FileManager.default.temporaryDirectory.appendingPathComponent("state-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: state, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: state) }
        let config = "screen:\n  width: 540\n  height: 960\n"
        let squeekboard = #"{"x":0,"y":788,"width":540,"height":172}"#

        do {
            let first = try SocketHardeningTests.Daemon(config: config, environment: ["STATE_DIRECTORY": state])
            let bridge = try #require(await InsetdLauncher.connect(first.socket))
            bridge.sendLine(#"{"type":"oskFrame","id":2,"bridge":"squeekboard","frame":\#(squeekboard)}"#)
            #expect(await bridge.next("ok") != nil)
            #expect(await SocketHardeningTests.eventually(5) {
                (try? String(contentsOfFile: "\(state)/keyboard-frames", encoding: .utf8))?.hasSuffix("540x960 0 788 540 172\n") == true
            })
            kill(first.process.pid, SIGTERM)
            _ = first.process.wait()
        }

        let second = try SocketHardeningTests.Daemon(config: config, environment: ["STATE_DIRECTORY": state])
        guard case .status(_, let status, _, _) = try await second.status() else {
            Issue.record("no status")
            return
        }
        #expect(status.frameSource == "remembered (reported by an OSK bridge in an earlier run)")
        let client = try #require(await InsetdLauncher.connect(second.socket))
        client.sendLine(#"{"type":"command","id":3,"command":"show"}"#)
        let willShow = await client.next("keyboard") { message in
            if case .keyboard(let note, _) = message { return note.phase == .willShow }
            return false
        }
        guard case .keyboard(let note, _)? = willShow else {
            Issue.record("no willShow")
            return
        }
        // 788 + 172 = 960: squeekboard's own keyboard, not the configured 336.
        #expect(note.endFrame == Rect(x: 0, y: 788, width: 540, height: 172))
        #expect(second.logText.contains("keyboard frames remembered"))
    }
}
