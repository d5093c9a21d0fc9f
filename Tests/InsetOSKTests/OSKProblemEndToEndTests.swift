import Foundation
import Glibc
import InputTestbed
import InsetCore
import InsetProtocol
import Testing

@testable import InsetOSK

/// When the real keyboard is not on the screen though insetd shows it: a show
/// the OSK does not confirm is asked again and then given up on (insetd hides,
/// views are not padded, status and events say why), and a shown OSK under a
/// full-screen window is reported once and left as it is.
@Suite(.serialized, .enabled(if: OSKSession.canRun, "needs root, sway, squeekboard, wvkbd, dbus"))
struct OSKProblemEndToEndTests {
    static let kwin = ["org.kde.KWin", "/VirtualKeyboard", "org.kde.kwin.VirtualKeyboard"]
    static let sm = ["sm.puri.OSK0", "/sm/puri/OSK0", "sm.puri.OSK0"]

    /// KWin's interface on python3-dbusmock: `active` is what the bridge sets,
    /// `visible` changes only when the test says the keyboard appeared.
    func startKWin(_ session: OSKSession) async throws {
        let kwin = Self.kwin
        _ = try session.spawn(["python3", "-m", "dbusmock", "--session"] + kwin, log: "kwin.log")
        #expect(await waitUntil(seconds: 10) { (try? await session.run(["busctl", "--user", "status", kwin[0]]))?.status == 0 })
        try await session.run(
            ["busctl", "--user", "call", kwin[0], kwin[1], "org.freedesktop.DBus.Mock", "AddProperties", "sa{sv}", kwin[2],
             "5", "available", "b", "true", "enabled", "b", "false", "active", "b", "false", "visible", "b", "false",
             "activeClientSupportsTextInput", "b", "true"])
    }

    func emitVisible(_ session: OSKSession, _ visible: Bool) async throws {
        try await session.run(["busctl", "--user", "set-property"] + Self.kwin + ["visible", "b", "\(visible)"])
        try await session.run(
            ["busctl", "--user", "call", Self.kwin[0], Self.kwin[1], "org.freedesktop.DBus.Mock", "EmitSignal", "sssav",
             Self.kwin[2], "visibleChanged", "", "0"])
    }

    /// How often the bridge set KWin's `active` to true (dbus-monitor's log of Set calls).
    func activations(_ session: OSKSession) -> Int {
        session.log("monitor.log").components(separatedBy: "boolean true").count - 1
    }

    @Test func aShowTheOSKNeverConfirmsIsAskedAgainThenGivenUpAndSaidWhy() async throws {
        try await withSession("kwp") { session in
        try await startKWin(session)
        _ = try session.spawn(
            ["stdbuf", "-oL", "dbus-monitor", "--session", "type='method_call',interface='org.freedesktop.DBus.Properties',member='Set',arg1='active'"],
            log: "monitor.log")
        _ = try session.bridge("kwin")
        #expect(await waitUntil(seconds: 10) { await session.busBool(Self.kwin[0], Self.kwin[1], Self.kwin[2], "enabled") == true })
        let app = try #require(await App(socket: session.socket))
        let events = try #require(await InsetdLauncher.connect(session.socket))
        events.sendLine(#"{"type":"subscribe","topics":["events"]}"#)

        // Shown by insetd, asked of KWin, never confirmed: 4 requests in 1.48 s, then insetd is told.
        // In this sway session the bridge measures the keyboard, so insetd's
        // first show waits for it (2 s, longer than the bridge's 1.48 s):
        // the views are never padded for a keyboard that never came.
        app.focus()
        let problem = "kwin did not show after 4 attempts"
        #expect(await waitUntil(seconds: 5) { await status(session.socket)?.oskProblem == problem })
        #expect(activations(session) == 4, "\(session.log("monitor.log"))")
        #expect(await waitUntil(seconds: 5) { keyboardFrame(await status(session.socket)) == nil })
        let adjustments = await app.adjustmentsSoFar()
        #expect(!adjustments.isEmpty && adjustments.allSatisfy { $0.additionalBottomInset == 0 }, "\(adjustments)")
        #expect(await session.busBool(Self.kwin[0], Self.kwin[1], Self.kwin[2], "active") == false)
        #expect(session.log("insetd-osk.log").components(separatedBy: problem).count == 2, "one line")
        // `insetctl events` has the reason, before the hide it caused.
        var timeline: [TimelineDecision] = []
        while let message = await events.readMessage() {
            // The keyboard notifications every client gets come in between: entries only.
            guard let entry = message.timelineEntry else { continue }
            timeline.append(entry.decision)
            if case .keyboard(.hidden, _, _) = entry.decision { break }
        }
        let reported = try #require(
            timeline.firstIndex { if case .oskProblem = $0 { true } else { false } }, "\(timeline)")
        #expect(timeline[reported] == .oskProblem(bridge: "kwin", problem: problem), "\(timeline[reported])")
        #expect(timeline.lastIndex { if case .keyboard = $0 { true } else { false } }! > reported)
        let insetctl = OSKSession.binaries.appendingPathComponent("insetctl").path
        let shown = try await ChildProcess.run([insetctl, "status", "--socket", session.socket])
        #expect(shown.output.contains("OSK problem:       \(problem)"), "\(shown.output)")

        // The next focus asks again; KWin confirms after the bridge's second request: the problem is over.
        app.blur()
        try await Task.sleep(for: .milliseconds(300))
        let before = activations(session)
        app.focus()
        #expect(await waitUntil(seconds: 5) { self.activations(session) >= before + 2 })
        try await emitVisible(session, true)
        #expect(await waitUntil(seconds: 5) { await status(session.socket)?.oskProblem == nil })
        try await Task.sleep(for: .seconds(2))
        #expect(keyboardFrame(await status(session.socket)) == [0, 544, 390, 300], "shown, and kept")
        }
    }

    /// The drop of issue 23 with the real squeekboard: it forgets a SetVisible
    /// at the next text-input change (Chromium enabling its text input for the
    /// focused field). Two foot windows take text input, so moving sway's focus
    /// between them is such a change. Whether the change comes right after
    /// squeekboard showed or races the bridge's request, the bridge asks again
    /// and squeekboard ends up shown; insetd never hears of a problem.
    /// The change is made the moment the bridge says it saw squeekboard show
    /// (its log), on sway's socket from here (`SwayIPC.run(command:)`), and the bridge
    /// runs with a 1.5 s settle: squeekboard hides some 200 ms after the
    /// change, and on a loaded machine it is slower still, while a hide after
    /// the settle is, by the bridge's rule, the user's (docs/OSK.md; the 0.5 s
    /// default is held to exact times in `BridgeMachineTests`).
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/foot")))
    func aShowSqueekboardDropsAtATextInputChangeIsAskedAgain() async throws {
        try await withSession("sqdrop") { session in
        func visible() async -> Bool? { await session.busBool(Self.sm[0], Self.sm[1], Self.sm[2], "Visible") }
        _ = try session.spawn(["squeekboard"], log: "squeekboard.log")
        #expect(await waitUntil(seconds: 10) { await visible() == false })
        // foot runs a command, not the session user's login shell (nologin here).
        for window in ["footA", "footB"] { _ = try session.spawn(["foot", "-a", window, "sleep", "600"], log: "\(window).log") }
        #expect(await waitUntil(seconds: 10) {
            let tree = (try? await session.run(["swaymsg", "-t", "get_tree"]))?.output ?? ""
            return tree.contains(#""app_id": "footA""#) && tree.contains(#""app_id": "footB""#)
        })
        // Whichever window sway mapped last has the focus: footB's, so that moving it to footA is a change.
        let sway = try #require(SwayIPC(session: session))
        #expect(try sway.run(command: "[app_id=footB] focus"))
        _ = try session.bridge("squeekboard", ["--settle-ms", "1500"])
        #expect(await waitUntil(seconds: 5) { session.log("insetd-osk.log").contains("driving squeekboard") })
        let app = try #require(await App(socket: session.socket))
        var next = "footA"
        func moveTextInput() throws {
            #expect(try sway.run(command: "[app_id=\(next)] focus"))
            next = next == "footA" ? "footB" : "footA"
        }
        // What the bridge logged (--verbose): when it saw squeekboard show, and took a hide for a drop.
        func count(_ line: String) -> Int { session.log("insetd-osk.log").components(separatedBy: line).count - 1 }
        let shown = "squeekboard shown (confirmed at attempt"
        let dropped = "squeekboard hid again right after showing: asserting the show again"
        /// The bridge's last word is a confirmed show, no drop after it.
        func confirmedAfterLastDrop() -> Bool {
            let log = session.log("insetd-osk.log")
            guard let show = log.range(of: shown, options: .backwards) else { return false }
            guard let drop = log.range(of: dropped, options: .backwards) else { return true }
            return show.lowerBound > drop.lowerBound
        }

        // squeekboard's first show makes its panel and loads its layout, which a
        // loaded machine takes seconds over (and a text-input change waits behind):
        // done once before the cycles.
        app.focus()
        #expect(await waitUntil(seconds: 10) { await visible() == true })
        app.blur()
        #expect(await waitUntil(seconds: 10) { await visible() == false })

        // The change right after squeekboard showed: it hides, inside the settle.
        for cycle in 0..<4 {
            let shows = count(shown)
            let drops = count(dropped)
            app.focus()
            #expect(await waitUntil(seconds: 5, every: .milliseconds(2)) { count(shown) > shows }, "cycle \(cycle)")
            try moveTextInput()
            #expect(await waitUntil(seconds: 5) {
                guard count(dropped) > drops, confirmedAfterLastDrop() else { return false }
                return await visible() == true
            },
                "dropped and shown again, cycle \(cycle): \(session.log("insetd-osk.log"))")
            app.blur()
            #expect(await waitUntil(seconds: 5) { await visible() == false })
        }

        // The change racing insetd's show: dropped silently or after showing, asked again either way.
        for cycle in 0..<4 {
            let shows = count(shown)
            app.focus()
            try moveTextInput()
            #expect(await waitUntil(seconds: 5) {
                guard count(shown) > shows, confirmedAfterLastDrop(), await visible() == true else { return false }
                return keyboardFrame(await status(session.socket)) != nil
            }, "shown, cycle \(cycle): \(session.log("insetd-osk.log"))")
            app.blur()
            #expect(await waitUntil(seconds: 5) { await visible() == false })
        }
        #expect(await status(session.socket)?.oskProblem == nil)
        #expect(!session.log("insetd-osk.log").contains("did not show"))
        #expect(!session.log("insetd-osk.log").contains("hidden by itself or its user"))
        }
    }

    /// squeekboard shown under a full-screen window (foot, made full screen by
    /// swaymsg): sway draws it below the window. One line, one report; insetd's
    /// keyboard stays; the report goes when the window leaves full screen.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/foot")))
    func aFullScreenWindowOverTheOSKIsReportedOnce() async throws {
        try await withSession("sqfs") { session in
        _ = try session.spawn(["squeekboard"], log: "squeekboard.log")
        #expect(await waitUntil(seconds: 10) { await session.busBool(Self.sm[0], Self.sm[1], Self.sm[2], "Visible") == false })
        _ = try session.spawn(["foot", "sleep", "600"], log: "foot.log")
        #expect(await waitUntil(seconds: 10) {
            (try? await session.run(["swaymsg", "-t", "get_tree"]))?.output.contains(#""app_id": "foot""#) == true
        }, "foot did not start: \(session.log("foot.log"))")
        try await session.run(["swaymsg", #"[app_id="foot"] fullscreen enable"#])
        _ = try session.bridge("squeekboard")
        let app = try #require(await App(socket: session.socket))

        app.focus()
        #expect(await waitUntil(seconds: 5) { await session.busBool(Self.sm[0], Self.sm[1], Self.sm[2], "Visible") == true })
        #expect(await waitUntil(seconds: 5) {
            (await status(session.socket)?.oskProblem)?.contains("full-screen window foot") == true
        })
        let line = "squeekboard is shown under the full-screen window foot"
        // Blur and focus again, and let the bridge look a few more times: still one line.
        app.blur()
        #expect(await waitUntil(seconds: 5) { await session.busBool(Self.sm[0], Self.sm[1], Self.sm[2], "Visible") == false })
        app.focus()
        #expect(await waitUntil(seconds: 5) { await session.busBool(Self.sm[0], Self.sm[1], Self.sm[2], "Visible") == true })
        try await Task.sleep(for: .seconds(2.5))
        let log = session.log("insetd-osk.log")
        #expect(log.components(separatedBy: line).count == 2, "one line:\n\(log)")
        #expect(log.contains("use a maximized or app window, or an OSK on the overlay layer"))
        // insetd's keyboard is left as it is: shown, no show/hide loop.
        #expect(keyboardFrame(await status(session.socket)) != nil)
        #expect(!log.contains("did not show"))

        try await session.run(["swaymsg", #"[app_id="foot"] fullscreen disable"#])
        #expect(await waitUntil(seconds: 5) { await status(session.socket)?.oskProblem == nil })
        #expect(session.log("insetd-osk.log").contains("squeekboard is no longer under a full-screen window"))
        }
    }
}
