import Foundation
import InputTestbed
import InsetCore
import InsetProtocol
import Testing

@testable import InsetOSK

@Suite struct WvkbdHeightTests {
    /// wvkbd's own flags: -H portrait height, -L landscape height (hand-picked cases).
    @Test(arguments: [
        (["wvkbd-mobintl", "--hidden", "-H", "300", "-L", "200"], false, 300.0 as Double?),
        (["wvkbd-mobintl", "--hidden", "-H", "300", "-L", "200"], true, 200),
        (["wvkbd-mobintl", "-L", "180"], false, nil),
        (["wvkbd-mobintl", "-H"], false, nil),
        (["wvkbd-mobintl", "-H", "tall"], false, nil),
        (["wvkbd-mobintl", "-H", "-5"], false, nil),
    ])
    func heightFromArguments(arguments: [String], landscape: Bool, expected: Double?) {
        #expect(Wvkbd.height(in: arguments, landscape: landscape) == expected)
    }
}

@Suite struct OSKMessageTests {
    @Test func visibilityAndFrameDecode() throws {
        let hidden = try ClientMessageDecoder.decode(Data(#"{"type":"oskVisibility","bridge":"squeekboard","visible":false}"#.utf8))
        #expect(hidden.message == .oskVisibility(bridge: "squeekboard", visible: false))
        #expect(hidden.message.pipelineEvent(for: ClientID("c1")) == .oskVisibility(false))
        let frame = try ClientMessageDecoder.decode(
            Data(#"{"type":"oskFrame","id":4,"bridge":"wvkbd","frame":{"x":0,"y":564,"width":390,"height":280}}"#.utf8))
        #expect(frame.id == .number(4))
        #expect(frame.message == .oskFrame(bridge: "wvkbd", frame: Rect(x: 0, y: 564, width: 390, height: 280)))
        #expect(frame.message.pipelineEvent(for: ClientID("c1")) == .floatingFrame(Rect(x: 0, y: 564, width: 390, height: 280)))
        // null: the bridge measures the frame and will report it (a show waits for it).
        let unknown = try ClientMessageDecoder.decode(Data(#"{"type":"oskFrame","bridge":"squeekboard","frame":null}"#.utf8))
        #expect(unknown.message == .oskFrame(bridge: "squeekboard", frame: nil))
        #expect(unknown.message.pipelineEvent(for: ClientID("c1")) == .frameAwaited(true))
        let ended = try ClientMessageDecoder.decode(Data(#"{"type":"oskRunning","bridge":"squeekboard","running":false}"#.utf8))
        #expect(ended.message == .oskRunning(bridge: "squeekboard", running: false))
        #expect(ended.message.pipelineEvent(for: ClientID("c1")) == .oskRunning(false))
    }

    /// Bad reports get an error naming what to fix.
    @Test(arguments: [
        (#"{"type":"oskVisibility","bridge":"squeekboard"}"#, "visible"),
        (#"{"type":"oskVisibility","bridge":"","visible":true}"#, "bridge"),
        (#"{"type":"oskVisibility","bridge":"two words","visible":true}"#, "bridge"),
        (#"{"type":"oskVisibility","visible":true}"#, "bridge"),
        (#"{"type":"oskFrame","bridge":"wvkbd","frame":{"x":0,"y":0,"width":0,"height":280}}"#, "positive width"),
        (#"{"type":"oskFrame","bridge":"wvkbd","frame":{"x":0,"y":0,"width":390,"height":-1}}"#, "\"frame.height\": must not be negative"),
        (#"{"type":"oskFrame","bridge":"wvkbd","frame":{"x":0,"y":0}}"#, "frame.width"),
        (#"{"type":"oskRunning","bridge":"squeekboard"}"#, "running"),
        (#"{"type":"oskRunning","bridge":"squeekboard","running":"no"}"#, "running"),
        (#"{"type":"oskRunning","bridge":"bad\u0001name","running":true}"#, "bridge"),
    ])
    func badReportsAreRejected(line: String, mentions: String) {
        #expect {
            _ = try ClientMessageDecoder.decode(Data(line.utf8))
        } throws: { error in
            guard let error = error as? ProtocolError else { return false }
            return error.code == .invalidField && error.message.contains(mentions)
        }
    }
}

@Suite struct InsetdOSKCommandTests {
    static var binary: String { OSKSession.binaries.appendingPathComponent("insetd-osk").path }

    @Test func helpAndVersion() async throws {
        let help = try await ChildProcess.run([Self.binary, "--help"])
        #expect(help.status == 0)
        #expect(help.output.contains("--backend"))
        #expect(help.output.contains("squeekboard"))
        #expect(help.output.contains("--settle-ms"))
        let version = try await ChildProcess.run([Self.binary, "--version"])
        // The one version every binary shows (scripts/version: VERSION's number, then the commit).
        #expect(version.status == 0)
        #expect(version.output.hasPrefix("0.1.0"), "\(version.output)")
    }

    @Test(arguments: [["--backend", "onboard"], ["--wvkbd-heights", "300"], ["--settle-ms=-5"], ["--settle-ms", "soon"]])
    func badArgumentsSayWhatIsWrong(arguments: [String]) async throws {
        let result = try await ChildProcess.run([Self.binary] + arguments)
        #expect(result.status != 0)
        #expect(result.output.hasPrefix("Error: "))
    }

    /// The user unit, with ExecStart pointing at the binary just built, passes `systemd-analyze verify`.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/systemd-analyze")))
    func userUnitVerifies() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("osk-unit-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let unit = try String(contentsOf: repositoryRoot.appendingPathComponent("systemd/insetd-osk.service"), encoding: .utf8)
            .replacingOccurrences(of: "/usr/bin/insetd-osk", with: Self.binary)
        try unit.write(to: directory.appendingPathComponent("insetd-osk.service"), atomically: true, encoding: .utf8)
        let result = try await ChildProcess.run(["systemd-analyze", "verify", "insetd-osk.service"], in: directory)
        #expect(result.status == 0)
        #expect(result.output.isEmpty, "verify said: \(result.output)")
    }
}

/// The reason a bridge gives insetd for a keyboard that is not on the screen:
/// shown to people as it is, so short, plain and printable.
@Suite struct OSKProblemMessageTests {
    @Test(arguments: [
        (#"{"type":"oskProblem","bridge":"squeekboard","problem":"squeekboard did not show after 4 attempts"}"#,
         "squeekboard did not show after 4 attempts" as String?),
        (#"{"type":"oskProblem","bridge":"squeekboard","problem":null}"#, nil),
        (#"{"type":"oskProblem","bridge":"squeekboard"}"#, nil),
        ("{\"type\":\"oskProblem\",\"bridge\":\"wvkbd\",\"problem\":\"\(String(repeating: "x", count: 256))\"}", String(repeating: "x", count: 256)),
    ])
    func aProblemDecodes(line: String, problem: String?) throws {
        let request = try ClientMessageDecoder.decode(Data(line.utf8))
        guard case .oskProblem(_, let decoded) = request.message else {
            Issue.record("\(request)")
            return
        }
        #expect(decoded == problem)
        #expect(request.message.pipelineEvent(for: ClientID("c1")) == nil, "news for people, not for the pipeline")
        // The encoder writes what the decoder reads.
        let again = try ClientMessageDecoder.decode(ClientRequest(message: request.message).lineBytes().dropLast())
        #expect(again.message == request.message)
    }

    @Test(arguments: [
        (#"{"type":"oskProblem","bridge":"squeekboard","problem":""}"#, "problem"),
        ("{\"type\":\"oskProblem\",\"bridge\":\"wvkbd\",\"problem\":\"\(String(repeating: "x", count: 257))\"}", "problem"),
        (#"{"type":"oskProblem","bridge":"squeekboard","problem":"line\nbreak"}"#, "problem"),
        (#"{"type":"oskProblem","bridge":"squeekboard","problem":"escape \u001b[31m"}"#, "problem"),
        (#"{"type":"oskProblem","bridge":"squeekboard","problem":"caf\u00e9"}"#, "problem"),
        (#"{"type":"oskProblem","bridge":"squeekboard","problem":42}"#, "problem"),
        (#"{"type":"oskProblem","bridge":"two words","problem":"x"}"#, "bridge"),
        (#"{"type":"oskProblem","problem":"x"}"#, "bridge"),
    ])
    func aBadProblemIsRefused(line: String, mentions: String) {
        #expect {
            _ = try ClientMessageDecoder.decode(Data(line.utf8))
        } throws: { error in
            guard let error = error as? ProtocolError else { return false }
            return error.code == .invalidField && error.message.contains(mentions)
        }
    }
}

@Suite struct SwayFullscreenTests {
    static func tree(fullscreenMode: Int, on workspace: String, current: String) -> Any {
        [
            "type": "root",
            "nodes": [
                ["type": "output", "name": "__i3", "nodes": [] as [Any]],
                [
                    "type": "output", "name": "HEADLESS-1", "current_workspace": current,
                    "nodes": [
                        [
                            "type": "workspace", "name": workspace, "fullscreen_mode": 1,
                            "nodes": [
                                ["type": "con", "app_id": "foot", "fullscreen_mode": 0, "nodes": [] as [Any]],
                                ["type": "con", "app_id": "chromium\u{1b}[0m", "fullscreen_mode": fullscreenMode, "nodes": [] as [Any]],
                            ],
                            "floating_nodes": [] as [Any],
                        ]
                    ],
                ],
            ],
        ] as [String: Any]
    }

    /// sway's get_tree: a window with fullscreen_mode 1 (or 2, global) on the visible workspace.
    @Test(arguments: [
        (1, "1", "1", "chromium0m" as String?),  // the name is made plain for a log line
        (2, "1", "1", "chromium0m"),
        (0, "1", "1", nil),
        (1, "2", "1", nil),  // on a workspace nobody sees
    ])
    func aFullScreenWindowOnTheVisibleWorkspaceIsFound(mode: Int, workspace: String, current: String, expected: String?) {
        let tree = Self.tree(fullscreenMode: mode, on: workspace, current: current)
        #expect(SwayIPC.fullscreenWindow(inTree: tree, output: "HEADLESS-1") == expected)
        #expect(SwayIPC.fullscreenWindow(inTree: tree, output: "HEADLESS-2") == nil)
    }
}
