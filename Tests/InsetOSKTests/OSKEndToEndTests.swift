import Foundation
import Glibc
import InputTestbed
import InsetCore
import InsetProtocol
import Testing

/// Real on-screen keyboards following insetd through insetd-osk, in a headless
/// sway session (see `OSKSession`). Expected frames come from the compositor
/// (sway's usable area shrinks by the OSK's exclusive zone) or from wvkbd's own
/// `-H`, never from insetd-osk's output.
@Suite(.serialized, .enabled(if: OSKSession.canRun, "needs root, sway, squeekboard, wvkbd, dbus"))
struct OSKEndToEndTests {
    static let sm = ["sm.puri.OSK0", "/sm/puri/OSK0", "sm.puri.OSK0"]

    @Test func squeekboardFollowsFocusReportsItsRealFrameAndTheUsersHide() async throws {
        try await withSession("sq") { session in
        // The user's own value of GNOME's switch, which the bridge must put back.
        #expect(await waitUntil(seconds: 10) {
            _ = try? await session.run(
                ["gsettings", "set", "org.gnome.desktop.a11y.applications", "screen-keyboard-enabled", "true"])
            return await gnomeSetting(session) == true
        })
        _ = try session.spawn(["squeekboard"], log: "squeekboard.log")
        #expect(await waitUntil(seconds: 10) { await session.busBool(Self.sm[0], Self.sm[1], Self.sm[2], "Visible") == false })
        let monitor = try session.spawn(
            ["dbus-monitor", "--session", "--profile", "type='method_call',interface='sm.puri.OSK0',member='SetVisible'"],
            log: "monitor.log")
        _ = try session.bridge("squeekboard")
        #expect(await waitUntil(seconds: 5) { session.log("insetd-osk.log").contains("connected to insetd") })
        let app = try #require(await App(socket: session.socket))

        // Focus: squeekboard shows, and insetd's frame becomes the one sway shows.
        var focusedAt: [Double] = [Date().timeIntervalSince1970]
        app.focus()
        #expect(await waitUntil(seconds: 5) { await session.busBool(Self.sm[0], Self.sm[1], Self.sm[2], "Visible") == true })
        let height = try #require(await session.agreedKeyboardHeight(seconds: 5))
        #expect(height > 100 && height < 400 && height != 300, "squeekboard's own height, not the configured 300")
        let real = [0, 844 - height, 390, height]
        #expect(await status(session.socket)?.frameSource == "reported by squeekboard")
        // The view's bottom inset is the real keyboard's overlap with it (full screen: its height).
        #expect(await app.adjustment(bottomInset: height) != nil)
        try await session.screenshot("squeekboard-shown.png")

        // The user hides squeekboard with its own SetVisible(false): insetd hides and the view restores.
        // (A hide within 0.5 s of a show is taken for a drop and the show asserted again: docs/OSK.md.)
        try await Task.sleep(for: .milliseconds(600))
        try await session.run(["busctl", "--user", "call"] + Self.sm + ["SetVisible", "b", "false"])
        #expect(await app.adjustment(bottomInset: 0) != nil)
        #expect(await waitUntil(seconds: 5) { keyboardFrame(await status(session.socket)) == nil })
        #expect(session.log("insetd-osk.log").contains("squeekboard was hidden by itself or its user"))
        #expect(await session.busBool(Self.sm[0], Self.sm[1], Self.sm[2], "Visible") == false, "not shown again")

        // Blur, focus, blur: shown with the real frame, then hidden.
        app.blur()
        app.focus()
        #expect(await waitUntil(seconds: 5) { await session.busBool(Self.sm[0], Self.sm[1], Self.sm[2], "Visible") == true })
        #expect(await waitUntil(seconds: 5) { keyboardFrame(await status(session.socket)) == real })
        app.blur()
        #expect(await waitUntil(seconds: 5) { await session.busBool(Self.sm[0], Self.sm[1], Self.sm[2], "Visible") == false })
        #expect(await waitUntil(seconds: 5) { keyboardFrame(await status(session.socket)) == nil })

        // Latency focus → SetVisible(true) on the bus, over a few cycles (printed, not asserted).
        for _ in 0..<8 {
            app.blur()
            #expect(await waitUntil(seconds: 5) { await session.busBool(Self.sm[0], Self.sm[1], Self.sm[2], "Visible") == false })
            focusedAt.append(Date().timeIntervalSince1970)
            app.focus()
            #expect(await waitUntil(seconds: 5) { await session.busBool(Self.sm[0], Self.sm[1], Self.sm[2], "Visible") == true })
        }
        _ = await monitor.terminate(within: .seconds(2))
        printLatency(session.log("monitor.log"), focusedAt: focusedAt, label: "squeekboard")

        // insetd restarts: the bridge notices, reconnects and follows the new one.
        app.blur()
        #expect(await waitUntil(seconds: 5) { await session.busBool(Self.sm[0], Self.sm[1], Self.sm[2], "Visible") == false })
        await session.stopInsetd()
        #expect(await waitUntil(seconds: 5) { session.log("insetd-osk.log").contains("lost insetd") })
        try session.startInsetd()
        let next = try #require(await App(socket: session.socket))
        next.focus()
        #expect(await waitUntil(seconds: 10) { await session.busBool(Self.sm[0], Self.sm[1], Self.sm[2], "Visible") == true })
        #expect(await gnomeSetting(session) == true, "no hardware keyboard: the user's own value stays")
        #expect(noRepeatedLines(session.log("insetd-osk.log")), "one line per failure, not one per retry")
        }
    }

    /// A USB keyboard hot-plugged (insetd-testbed's emulated hardware) while
    /// insetd, the bridge and squeekboard run and a field is focused: with
    /// accessory-bar-height 0 the hardware keyboard leaves nothing on screen, so
    /// squeekboard hides and GNOME's switch goes off; unplugged, the switch is
    /// the user's again and squeekboard comes back for the still focused field.
    @Test func squeekboardStepsAsideForAHotPluggedKeyboard() async throws {
        try await withSession("sqhw", testbed: true) { session in
        #expect(await waitUntil(seconds: 10) {
            _ = try? await session.run(
                ["gsettings", "set", "org.gnome.desktop.a11y.applications", "screen-keyboard-enabled", "true"])
            return await gnomeSetting(session) == true
        })
        _ = try session.spawn(["squeekboard"], log: "squeekboard.log")
        #expect(await waitUntil(seconds: 10) { await session.busBool(Self.sm[0], Self.sm[1], Self.sm[2], "Visible") == false })
        _ = try session.bridge("squeekboard")
        #expect(await waitUntil(seconds: 5) { session.log("insetd-osk.log").contains("connected to insetd") })
        let app = try #require(await App(socket: session.socket))
        app.focus()
        #expect(await waitUntil(seconds: 5) { await session.busBool(Self.sm[0], Self.sm[1], Self.sm[2], "Visible") == true })
        let height = try #require(await session.agreedKeyboardHeight(seconds: 5))
        #expect(height > 100 && height < 400 && height != 300, "squeekboard's own height, not the configured 300")
        #expect(await status(session.socket)?.hardwareKeyboard == false)
        #expect(await app.adjustment(bottomInset: height) != nil)

        try await session.testbed(TestbedRequest(.plug, kind: "usb-keyboard"))
        // Usable after insetd's 200 ms hold-off: then the bar (0 pt) replaces the keyboard.
        #expect(await waitUntil(seconds: 5) { await status(session.socket)?.hardwareKeyboard == true })
        #expect(await waitUntil(seconds: 5) { await gnomeSetting(session) == false })
        #expect(await waitUntil(seconds: 5) { await session.busBool(Self.sm[0], Self.sm[1], Self.sm[2], "Visible") == false })
        #expect(await waitUntil(seconds: 5) { await session.swayBottomGap() == 0 })
        #expect(keyboardFrame(await status(session.socket)) == nil, "accessory bar 0: nothing shown")
        #expect(await app.adjustment(bottomInset: 0) != nil)

        try await session.testbed(TestbedRequest(.unplug, name: "usb-keyboard"))
        #expect(await waitUntil(seconds: 5) { await status(session.socket)?.hardwareKeyboard == false })
        #expect(await waitUntil(seconds: 5) { await gnomeSetting(session) == true })
        #expect(await waitUntil(seconds: 5) { await session.busBool(Self.sm[0], Self.sm[1], Self.sm[2], "Visible") == true })
        #expect(await waitUntil(seconds: 5) { await session.swayBottomGap() == height })
        #expect(await waitUntil(seconds: 5) { keyboardFrame(await status(session.socket)) == [0, 844 - height, 390, height] })
        #expect(await app.adjustment(bottomInset: height) != nil)
        }
    }

    /// The same hot-plug with wvkbd (-H 280): hidden by SIGUSR1 while the
    /// keyboard is plugged, shown by SIGUSR2 once it is gone.
    @Test func wvkbdStepsAsideForAHotPluggedKeyboard() async throws {
        try await withSession("wvhw", testbed: true) { session in
        let wvkbd = try session.spawn(["wvkbd-mobintl", "--hidden", "-H", "280", "-L", "200"], log: "wvkbd.log")
        #expect(await waitUntil(seconds: 5) { await session.swayBottomGap() == 0 })
        _ = try session.bridge("wvkbd", ["--wvkbd-pid", "\(wvkbd.pid)"])
        #expect(await waitUntil(seconds: 5) { await status(session.socket)?.frameSource == "reported by wvkbd" })
        let app = try #require(await App(socket: session.socket))
        app.focus()
        #expect(await waitUntil(seconds: 5) { await session.swayBottomGap() == 280 })
        #expect(keyboardFrame(await status(session.socket)) == [0, 564, 390, 280])
        #expect(await app.adjustment(bottomInset: 280) != nil)

        try await session.testbed(TestbedRequest(.plug, kind: "usb-keyboard"))
        #expect(await waitUntil(seconds: 5) { await session.swayBottomGap() == 0 })
        #expect(await waitUntil(seconds: 5) { keyboardFrame(await status(session.socket)) == nil })
        #expect(await app.adjustment(bottomInset: 0) != nil)

        try await session.testbed(TestbedRequest(.unplug, name: "usb-keyboard"))
        #expect(await waitUntil(seconds: 5) { await session.swayBottomGap() == 280 })
        #expect(await waitUntil(seconds: 5) { keyboardFrame(await status(session.socket)) == [0, 564, 390, 280] })
        #expect(await app.adjustment(bottomInset: 280) != nil)
        }
    }

    @Test func wvkbdFollowsFocusBySignalsWithItsOwnHeight() async throws {
        try await withSession("wv") { session in
        let wvkbd = try session.spawn(["wvkbd-mobintl", "--hidden", "-H", "280", "-L", "200"], log: "wvkbd.log")
        #expect(await waitUntil(seconds: 5) { await session.swayBottomGap() == 0 })
        _ = try session.bridge("wvkbd", ["--wvkbd-pid", "\(wvkbd.pid)"])
        let app = try #require(await App(socket: session.socket))
        // -H 280 on a 390x844 output: (0, 844-280) 390x280, before wvkbd ever shows.
        #expect(await waitUntil(seconds: 5) { await status(session.socket)?.frameSource == "reported by wvkbd" })
        app.focus()
        #expect(await waitUntil(seconds: 5) { await session.swayBottomGap() == 280 })
        #expect(keyboardFrame(await status(session.socket)) == [0, 564, 390, 280])
        #expect(await app.adjustment(bottomInset: 280) != nil)
        try await session.screenshot("wvkbd-shown.png")
        // The user hides wvkbd (SIGUSR1 from a gesture binding), once it has settled: insetd hides too, the view restores.
        try await Task.sleep(for: .milliseconds(600))
        wvkbd.signal(SIGUSR1)
        #expect(await app.adjustment(bottomInset: 0) != nil)
        #expect(await waitUntil(seconds: 5) { keyboardFrame(await status(session.socket)) == nil })
        #expect(session.log("insetd-osk.log").contains("wvkbd was hidden by itself or its user"))
        // Blur, focus, blur: shown (sway's usable area shrinks by 280), then hidden.
        app.blur()
        app.focus()
        #expect(await waitUntil(seconds: 5) { await session.swayBottomGap() == 280 })
        app.blur()
        #expect(await waitUntil(seconds: 5) { await session.swayBottomGap() == 0 })
        #expect(await waitUntil(seconds: 5) { keyboardFrame(await status(session.socket)) == nil })
        // wvkbd crashes: one clear line, and the bridge keeps looking for it.
        wvkbd.signal(SIGKILL)
        _ = wvkbd.wait()  // reaped, as its parent in a real session would
        #expect(await waitUntil(seconds: 5) { session.log("insetd-osk.log").contains("wvkbd: pid \(wvkbd.pid) exited") })
        }
    }

    @Test func kwinThroughDbusmockAndTheErrorPaths() async throws {
        try await withSession("kw") { session in
        let kwin = ["org.kde.KWin", "/VirtualKeyboard", "org.kde.kwin.VirtualKeyboard"]
        // insetd works without any bridge: the configured frame.
        let app = try #require(await App(socket: session.socket))
        app.focus()
        #expect(await waitUntil(seconds: 5) { keyboardFrame(await status(session.socket)) == [0, 544, 390, 300] })
        #expect(await status(session.socket)?.frameSource == "configured")
        app.blur()

        // No OSK on the bus: one clear line, retried with back-off.
        _ = try session.bridge("kwin")
        try await Task.sleep(for: .seconds(2))
        let missing = session.log("insetd-osk.log")
        #expect(missing.components(separatedBy: "ServiceUnknown").count == 2, "one line, not one per retry:\n\(missing)")

        // KWin's interface appears: the bridge enables the keyboard and drives `active`.
        // forceActivate: KWin 5.24 and later (activates and shows the panel); without it, `active`.
        func startKWin(forceActivate: Bool = false) async throws -> SpawnedProcess {
            let mock = try session.spawn(["python3", "-m", "dbusmock", "--session"] + kwin, log: "kwin.log")
            #expect(await waitUntil(seconds: 10) {
                (try? await session.run(["busctl", "--user", "status", kwin[0]]))?.status == 0 })
            // The method and the effects first: the bridge attaches once `enabled` reads.
            if forceActivate {
                try await session.run(
                    ["busctl", "--user", "call", kwin[0], kwin[1], "org.freedesktop.DBus.Mock", "AddMethod", "sssss", kwin[2],
                     "forceActivate", "", "", "self.Set('\(kwin[2])', 'active', True)"])
                // No sliding popups: KWin on software rendering supports no animated effect.
                try await session.run(
                    ["busctl", "--user", "call", kwin[0], kwin[1], "org.freedesktop.DBus.Mock", "AddObject", "ssa{sv}a(ssss)",
                     "/Effects", "org.kde.kwin.Effects", "0", "1", "isEffectSupported", "s", "b", "ret = args[0] != 'slidingpopups'"])
            }
            try await session.run(
                ["busctl", "--user", "call", kwin[0], kwin[1], "org.freedesktop.DBus.Mock", "AddProperties", "sa{sv}", kwin[2],
                 "5", "available", "b", "true", "enabled", "b", "false", "active", "b", "false", "visible", "b", "false",
                 "activeClientSupportsTextInput", "b", "true"])
            return mock
        }
        func forceActivations() async -> Int? {
            // GetMethodCalls answers "a(tav) N ...": N calls so far.
            let reply = try? await session.run(
                ["busctl", "--user", "call", kwin[0], kwin[1], "org.freedesktop.DBus.Mock", "GetMethodCalls", "s", "forceActivate"])
            return reply.flatMap { Int($0.output.split(separator: " ").dropFirst().first ?? "") }
        }
        func emit(visible: Bool) async throws {
            try await session.run(["busctl", "--user", "set-property"] + kwin + ["visible", "b", "\(visible)"])
            try await session.run(
                ["busctl", "--user", "call", kwin[0], kwin[1], "org.freedesktop.DBus.Mock", "EmitSignal", "sssav", kwin[2],
                 "visibleChanged", "", "0"])
        }
        var mock = try await startKWin()
        #expect(await waitUntil(seconds: 10) { await session.busBool(kwin[0], kwin[1], kwin[2], "enabled") == true })
        app.focus()
        #expect(await waitUntil(seconds: 5) { await session.busBool(kwin[0], kwin[1], kwin[2], "active") == true })
        try await emit(visible: true)
        app.blur()
        #expect(await waitUntil(seconds: 5) { await session.busBool(kwin[0], kwin[1], kwin[2], "active") == false })
        try await emit(visible: false)

        // The user closes KWin's keyboard: insetd hides and the view restores.
        app.focus()
        #expect(await waitUntil(seconds: 5) { await session.busBool(kwin[0], kwin[1], kwin[2], "active") == true })
        // KWin shows it. In this sway session the bridge says it measures the
        // keyboard (sway's usable area), so insetd's first show waits for a
        // measurement that never comes here (up to 2 s); a show KWin never
        // confirmed would be given up (1.48 s) and padded nothing.
        try await emit(visible: true)
        #expect(await app.adjustment(bottomInset: 300) != nil)
        // Settled (a hide sooner is taken for a drop and the show asserted again: docs/OSK.md).
        try await Task.sleep(for: .milliseconds(600))
        try await session.run(["busctl", "--user", "set-property"] + kwin + ["active", "b", "false"])
        try await emit(visible: false)
        #expect(await app.adjustment(bottomInset: 0) != nil)
        #expect(await waitUntil(seconds: 5) { keyboardFrame(await status(session.socket)) == nil })
        #expect(session.log("insetd-osk.log").contains("kwin was hidden by itself or its user"))

        #expect(session.log("insetd-osk.log").contains("has no forceActivate"))
        #expect(!session.log("insetd.log").contains("keyboard animation reported by an OSK bridge"))

        // KWin crashes and comes back, a KWin with forceActivate: the bridge
        // drives the new one, and shows with forceActivate (`active` alone
        // shows no panel to an app whose toolkit talks to insetd instead).
        mock.signal(SIGKILL)
        _ = mock.wait()
        app.blur()
        try await Task.sleep(for: .milliseconds(500))
        mock = try await startKWin(forceActivate: true)
        app.focus()
        #expect(await waitUntil(seconds: 10) { await session.busBool(kwin[0], kwin[1], kwin[2], "active") == true })
        #expect(await (forceActivations() ?? 0) >= 1)
        // The first KWin could not say how its panel moves (no /Effects); this one draws it whole.
        #expect(await waitUntil(seconds: 5) {
            session.log("insetd.log").contains("keyboard animation reported by an OSK bridge animation=none bridge=kwin") })
        #expect(session.log("insetd-osk.log").components(separatedBy: "driving kwin").count == 3)

        // The session bus goes away: one line, and insetd keeps serving.
        // This session's bus only: other suites' sessions run beside it as the same user.
        for pid in session.processes(named: "dbus-daemon") { kill(pid, SIGKILL) }
        #expect(await waitUntil(seconds: 5) { session.log("insetd-osk.log").contains("lost the session bus") })
        try await Task.sleep(for: .seconds(1))
        #expect(noRepeatedLines(session.log("insetd-osk.log")), "one line per failure, not one per retry")
        app.blur()
        #expect(await status(session.socket) != nil)
        }
    }
}

/// True when no failure line of the bridge's log follows an identical one
/// (a retry that fails the same way must stay quiet).
func noRepeatedLines(_ log: String) -> Bool {
    let lines = log.split(separator: "\n")
    return zip(lines, lines.dropFirst()).allSatisfy { !$0.contains("retrying") || $0 != $1 }
}

/// GNOME's screen-keyboard-enabled as the session's gsettings reads it.
func gnomeSetting(_ session: OSKSession) async -> Bool? {
    guard let result = try? await session.run(
        ["gsettings", "get", "org.gnome.desktop.a11y.applications", "screen-keyboard-enabled"]), result.status == 0
    else { return nil }
    return result.output.contains("true")
}

/// Prints focus → `SetVisible(true)` latencies from `dbus-monitor --profile`
/// (`mc <seconds.micros> ...` per method call), paired in order with the focus times.
func printLatency(_ monitor: String, focusedAt: [Double], label: String) {
    let calls = monitor.split(separator: "\n").filter { $0.hasPrefix("mc") }.compactMap { line -> Double? in
        let fields = line.split(separator: "\t")
        return fields.count > 1 ? Double(fields[1]) : nil
    }
    var latencies: [Double] = []
    var index = 0
    for focus in focusedAt {
        while index < calls.count, calls[index] < focus { index += 1 }
        guard index < calls.count else { break }
        latencies.append((calls[index] - focus) * 1000)
        index += 1
    }
    let sorted = latencies.sorted()
    guard !sorted.isEmpty else { return print("OSK latency (\(label)): no SetVisible calls seen") }
    print(
        "OSK latency focus→SetVisible (\(label)): n=\(sorted.count) median \(String(format: "%.1f", sorted[sorted.count / 2])) ms, max \(String(format: "%.1f", sorted.last!)) ms, all \(sorted.map { String(format: "%.1f", $0) })"
    )
}

/// The feedback messages are authorized like control commands: a peer that may
/// not send `command` gets `not-authorized` for them too, and nothing changes.
@Suite(.enabled(if: OSKSession.canRun, "needs root to connect as another uid"))
struct OSKFeedbackAuthorizationTests {
    @Test func anUnauthorizedPeerIsRefused() async throws {
        let dir = "/tmp/osk-auth-\(getpid())"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        try "screen:\n  width: 390\n  height: 844\nserver:\n  control-users: []\n  control-groups: []\n"
            .write(toFile: "\(dir)/insetd.yaml", atomically: true, encoding: .utf8)
        let insetd = try InsetdLauncher.start(socket: "\(dir)/insetd.sock", arguments: ["--config", "\(dir)/insetd.yaml"])
        // On an early exit the SpawnedProcess's deinit kills it.
        // Listening (and its own mode set) once a hello is answered; then open to uid 65534.
        let probe = try #require(await InsetdLauncher.connect("\(dir)/insetd.sock"))
        probe.close()
        chmod("\(dir)/insetd.sock", 0o666)
        chmod(dir, 0o755)
        // A client as uid 65534 (not root, not configured) reports a hide, a
        // frame, a problem, a 5 s animation and its OSK ended.
        let script = """
            import json, socket, sys
            s = socket.socket(socket.AF_UNIX); s.connect(sys.argv[1]); f = s.makefile("rw")
            for m in [{"type": "hello", "version": 1, "client": "rogue"},
                      {"type": "oskVisibility", "id": 1, "bridge": "rogue", "visible": True},
                      {"type": "oskFrame", "id": 2, "bridge": "rogue", "frame": {"x": 0, "y": 0, "width": 390, "height": 844}},
                      {"type": "oskProblem", "id": 3, "bridge": "rogue", "problem": "the keyboard is broken, call 555-0100"},
                      {"type": "oskAnimation", "id": 4, "bridge": "rogue", "animation": {"duration": 5, "curve": "linear"}},
                      {"type": "oskRunning", "id": 5, "bridge": "rogue", "running": False},
                      {"type": "focusedWindow", "id": 6, "bridge": "rogue", "frame": {"x": 0, "y": 400, "width": 390, "height": 444}}]:
                f.write(json.dumps(m) + "\\n"); f.flush()
            for _ in range(7): print(f.readline().strip())
            """
        try script.write(toFile: "\(dir)/rogue.py", atomically: true, encoding: .utf8)
        let result = try await ChildProcess.run(
            ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "/usr/bin/python3", "\(dir)/rogue.py", "\(dir)/insetd.sock"])
        let replies = result.output.split(separator: "\n").compactMap {
            try? DaemonMessageDecoder.decode(Data($0.utf8), client: ClientID(""))
        }
        #expect(replies.count == 7, "\(result.output)")
        // The refusals come from the session, the welcome from the core: in either order.
        let refusals = replies.compactMap(\.protocolError)
        #expect(refusals.map(\.code) == Array(repeating: .notAuthorized, count: 6))
        #expect(refusals.map(\.id) == [.number(1), .number(2), .number(3), .number(4), .number(5), .number(6)])
        let state = await status("\(dir)/insetd.sock")
        #expect(keyboardFrame(state) == nil)
        #expect(state?.oskProblem == nil)
        #expect(state?.frameSource == "configured")
        _ = await insetd.terminate()
        _ = try await ChildProcess.run(["rm", "-rf", dir])
    }
}
