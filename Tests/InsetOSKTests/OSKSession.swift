import Foundation
import Glibc
import InputTestbed
import InsetCore
import InsetProtocol

let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

/// A real graphical session for the OSK tests: insetd (as root, like the system
/// service) and, as the unprivileged uid 65534 inside `dbus-run-session`, a
/// headless sway (pixman) on a 390x844 output with its own session bus, where
/// the tests start the real squeekboard or wvkbd, python3-dbusmock standing in
/// for KWin, and insetd-osk itself (see /work/shared/hil/OSK.md's recipe).
final class OSKSession: @unchecked Sendable {
    static let uid: uid_t = 65534

    /// Root (sway refuses root, so the session drops to uid 65534), and the programs.
    static var canRun: Bool {
        getuid() == 0
            && ["/usr/bin/sway", "/usr/bin/squeekboard", "/usr/bin/wvkbd-mobintl", "/usr/bin/dbus-run-session",
                "/usr/bin/setpriv", "/usr/bin/busctl", "/usr/bin/swaymsg", "/usr/bin/gsettings"]
            .allSatisfy { FileManager.default.isExecutableFile(atPath: $0) }
    }

    static var binaries: URL { InsetdLauncher.binary.deletingLastPathComponent() }

    let dir: String
    var socket: String { "\(dir)/insetd.sock" }
    private var session: SpawnedProcess?
    private(set) var insetd: SpawnedProcess?
    /// How many insetds this session started (OSK_KEEP numbers their logs).
    private var insetdStarts = 0
    private var children: [SpawnedProcess] = []

    /// With `testbed`, insetd runs inside `insetd-testbed run` (see `startInsetd`).
    init(name: String, testbed: Bool = false) async throws {
        dir = "/tmp/osk-\(name)-\(getpid())"
        _ = try await ChildProcess.run(["rm", "-rf", dir])
        for sub in ["", "/xdg", "/config"] { mkdir(dir + sub, 0o700) }
        for sub in ["", "/xdg", "/config"] { chown(dir + sub, Self.uid, Self.uid) }
        try """
            screen:
              width: 390
              height: 844
            keyboard:
              portrait-height: 300
              landscape-height: 200
              accessory-bar-height: 0
              hardware-hold-off-ms: 200
            input:
              uevent-source: udev
            server:
              control-users: [\(Self.uid)]
            """.write(toFile: "\(dir)/insetd.yaml", atomically: true, encoding: .utf8)
        // Nothing started here may outlive a failed start: the caller never gets
        // the session to close.
        do {
            try startInsetd(testbed: testbed)
            // A scripts/test run's mark goes into the session too (scripts/leftovers finds what it left).
            let mark = ProcessInfo.processInfo.environment["INSETD_TEST_RUN"].map { ["INSETD_TEST_RUN=\($0)"] } ?? []
            session = try SpawnedProcess(
                "/usr/bin/setpriv",
                ["--reuid=\(Self.uid)", "--regid=\(Self.uid)", "--clear-groups", "env", "-i", "PATH=/usr/bin:/bin"] + mark
                    // The bus daemon passes these on to what it activates (dconf-service writes the settings).
                    + ["HOME=\(dir)", "XDG_CONFIG_HOME=\(dir)/config", "XDG_RUNTIME_DIR=\(dir)/xdg",
                       "OSK_SESSION_DIR=\(dir)", "dbus-run-session", "--", repositoryRoot.path + "/scripts/osk/session.sh"],
                environment: ChildProcess.realSystemEnvironment, stdout: "\(dir)/session.log", stderr: "\(dir)/session.log")
            guard await waitUntil(seconds: 10, { FileManager.default.fileExists(atPath: "\(self.dir)/env") }) else {
                throw SessionError("the sway session did not start: \(log("session.log"))")
            }
        } catch {
            await close()
            throw error
        }
    }

    /// This session's processes named `name` (their environment names the session's directory).
    func processes(named name: String) -> [pid_t] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { Int32($0) }.filter { pid in
            let comm = (try? String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8)) ?? ""
            guard comm.trimmingCharacters(in: .whitespacesAndNewlines) == name,
                let environment = FileManager.default.contents(atPath: "/proc/\(pid)/environ")
            else { return false }
            return environment.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
                .contains { $0.hasSuffix("=\(dir)") || $0.contains("=\(dir)/") }
        }
    }

    /// Everything still running for this session: what carries the session's
    /// directory in its environment (sway, the bus, what the bus activated) or
    /// on its command line (insetd's `--config`, also when `insetd-testbed`
    /// started it in a process group of its own). SIGKILL, by pid: by now each
    /// had its SIGTERM.
    private func killSessionProcesses() {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        for pid in entries.compactMap({ Int32($0) }) where pid != getpid() {
            for file in ["environ", "cmdline"] {
                guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/\(file)") else { continue }
                let fields = data.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
                if fields.contains(where: { $0.hasSuffix(dir) || $0.contains("\(dir)/") }) {
                    kill(pid, SIGKILL)
                    break
                }
            }
        }
    }

    /// Starts insetd; with `testbed` it runs as the command of `insetd-testbed run`
    /// (its own umockdev preload and `EmulatedHardware`, so no testbed of a
    /// concurrent hardware-in-the-loop test in this process is disturbed), and
    /// `testbed(_:)` plugs and unplugs devices while it runs.
    func startInsetd(testbed: Bool = false) throws {
        var command = [Self.binaries.appendingPathComponent("insetd").path, "--config", "\(dir)/insetd.yaml", "--socket", socket]
        // OSK_KEEP: each insetd's log kept whole (the one before a restart
        // moved aside), at debug level, for a look after a failure.
        if ProcessInfo.processInfo.environment["OSK_KEEP"] != nil {
            command += ["--log-level", "debug"]
            insetdStarts += 1
            rename("\(dir)/insetd.log", "\(dir)/insetd-\(insetdStarts).log")
        }
        if testbed {
            unlink(testbedControlFile)
            // The control socket's path is known only inside the run: the command writes it down first.
            command = [Self.binaries.appendingPathComponent("insetd-testbed").path, "run", "--", "/bin/sh", "-c",
                       #"printf %s "$INSETD_TESTBED" > "$0.tmp" && mv "$0.tmp" "$0" && exec "$@""#, testbedControlFile]
                + command
        }
        unlink(socket)
        insetd = try SpawnedProcess(
            command[0], Array(command.dropFirst()), environment: ChildProcess.realSystemEnvironment,
            stdout: "\(dir)/insetd.log", stderr: "\(dir)/insetd.log")
        // The session's user must reach the socket (a real install grants it by
        // group): opened up once insetd has set its own mode and listens.
        for _ in 0..<1000 {
            if log("insetd.log").contains("listening"), chmod(socket, 0o666) == 0 { break }
            usleep(10_000)
        }
    }

    private var testbedControlFile: String { "\(dir)/testbed-control" }

    /// Asks the running `insetd-testbed` to do `request` (plug, unplug, ...).
    func testbed(_ request: TestbedRequest) async throws {
        guard await waitUntil(seconds: 5, { FileManager.default.fileExists(atPath: self.testbedControlFile) }),
            let path = try? String(contentsOfFile: testbedControlFile, encoding: .utf8)
        else { throw SessionError("insetd-testbed did not start: \(log("insetd.log"))") }
        let reply = try TestbedControlClient.send(request, to: path)
        if let error = reply.error { throw SessionError("insetd-testbed: \(error)") }
    }

    func stopInsetd() async {
        _ = await insetd?.terminate()
        insetd = nil
    }

    /// Runs a command in the session (as its user, with its environment) to completion.
    @discardableResult
    func run(_ arguments: [String]) async throws -> (status: Int32, output: String) {
        try await ChildProcess.run([repositoryRoot.path + "/scripts/osk/as-session", dir] + arguments)
    }

    /// Starts a long-running command in the session; its output goes to `log`.
    func spawn(_ arguments: [String], log: String) throws -> SpawnedProcess {
        let child = try SpawnedProcess(
            repositoryRoot.path + "/scripts/osk/as-session", [dir] + arguments,
            environment: ChildProcess.realSystemEnvironment, stdout: "\(dir)/\(log)", stderr: "\(dir)/\(log)")
        children.append(child)
        return child
    }

    func bridge(_ backend: String, _ extra: [String] = []) throws -> SpawnedProcess {
        try spawn(
            [Self.binaries.appendingPathComponent("insetd-osk").path, "--backend", backend, "--socket", socket, "--verbose"]
                + extra, log: "insetd-osk.log")
    }

    func log(_ name: String) -> String {
        (try? String(contentsOfFile: "\(dir)/\(name)", encoding: .utf8)) ?? ""
    }

    /// `Visible` of squeekboard as busctl reads it (nil when it is not on the bus).
    func busBool(_ destination: String, _ path: String, _ interface: String, _ property: String) async -> Bool? {
        guard let result = try? await run(["busctl", "--user", "get-property", destination, path, interface, property]),
            result.status == 0
        else { return nil }
        return result.output.trimmingCharacters(in: .whitespacesAndNewlines) == "b true"
    }

    /// How much of the output's bottom the layer shell's exclusive zones take
    /// (the OSK's height), read from sway's visible workspace.
    func swayBottomGap() async -> Double? {
        guard let result = try? await run(["swaymsg", "-r", "-t", "get_workspaces"]), result.status == 0,
            let list = try? JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [[String: Any]],
            let visible = list.first(where: { $0["visible"] as? Bool == true }),
            let rect = visible["rect"] as? [String: Any], let y = (rect["y"] as? NSNumber)?.doubleValue,
            let height = (rect["height"] as? NSNumber)?.doubleValue
        else { return nil }
        return 844 - (y + height)
    }

    /// The shown OSK's height once sway's gap and insetd's published frame agree on
    /// it. A single reading of the gap can fall inside a show that is still settling
    /// (squeekboard dropping a show and taking it again on a loaded host reads 0 for
    /// a moment), and that is not the keyboard's height.
    func agreedKeyboardHeight(seconds: Double) async -> Double? {
        let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
        repeat {
            if let gap = await swayBottomGap(), gap > 0,
                keyboardFrame(await status(socket)) == [0, 844 - gap, 390, gap],
                await swayBottomGap() == gap
            {
                return gap
            }
            try? await Task.sleep(for: .milliseconds(20))
        } while ContinuousClock.now < deadline
        return nil
    }

    /// A grim screenshot of the whole output, copied to `$OSK_SCREENSHOT_DIR/NAME` when set.
    func screenshot(_ name: String) async throws {
        try await run(["grim", "\(dir)/\(name)"])
        if let target = ProcessInfo.processInfo.environment["OSK_SCREENSHOT_DIR"] {
            _ = try await ChildProcess.run(["cp", "\(dir)/\(name)", "\(target)/\(name)"])
        }
    }

    func close() async {
        for child in children.reversed() { _ = await child.terminate(within: .seconds(2)) }
        await stopInsetd()
        _ = await session?.terminate(within: .seconds(3))
        killSessionProcesses()
        // OSK_KEEP keeps the logs for a look after a failure.
        if ProcessInfo.processInfo.environment["OSK_KEEP"] == nil { _ = try? await ChildProcess.run(["rm", "-rf", dir]) }
    }
}

/// Runs `body` with a fresh session and always closes it (sway and the
/// session's processes end with the test, passed or failed).
func withSession(_ name: String, testbed: Bool = false, _ body: (OSKSession) async throws -> Void) async throws {
    let session = try await OSKSession(name: name, testbed: testbed)
    do {
        try await body(session)
    } catch {
        await session.close()
        throw error
    }
    await session.close()
}

struct SessionError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// Polls `condition` every `interval` (20 ms unless a test must act on the
/// event at once) for up to `seconds`.
func waitUntil(seconds: Double, every interval: Duration = .milliseconds(20), _ condition: () async -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
    while ContinuousClock.now < deadline {
        if await condition() { return true }
        try? await Task.sleep(for: interval)
    }
    return await condition()
}

/// An application on insetd's socket: one full-screen scroll view with a field
/// near the bottom, which it focuses and blurs.
final class App: @unchecked Sendable {
    let client: LineClient

    init?(socket: String) async {
        guard let client = await InsetdLauncher.connect(socket) else { return nil }
        self.client = client
        client.sendLine(
            #"{"type":"register","view":"form","frame":{"x":0,"y":0,"width":390,"height":844},"contentSize":{"width":390,"height":2000}}"#
        )
    }

    func focus() { client.sendLine(#"{"type":"focus","view":"form","field":{"x":0,"y":700,"width":390,"height":40}}"#) }
    func blur() { client.sendLine(#"{"type":"blur","view":"form"}"#) }

    /// Every line received so far, and how far `adjustment` has looked.
    private var transcript: [String] = []
    private var cursor = 0

    /// Every adjustment of the view received so far, after reading whatever
    /// arrives within `seconds` more.
    func adjustmentsSoFar(reading seconds: Double = 0.5) async -> [ViewAdjustment] {
        let deadline = ContinuousClock.now + .seconds(seconds)
        while ContinuousClock.now < deadline, let line = await client.readLine() { transcript.append(line) }
        return transcript.compactMap { try? DaemonMessageDecoder.decode(Data($0.utf8), client: ClientID("")).adjustment }
    }

    /// The next adjustment of the view with this bottom inset (waits up to 5 s).
    func adjustment(bottomInset: Double) async -> ViewAdjustment? {
        let deadline = ContinuousClock.now + .seconds(5)
        while ContinuousClock.now < deadline {
            while cursor < transcript.count {
                let line = transcript[cursor]
                cursor += 1
                let message = try? DaemonMessageDecoder.decode(Data(line.utf8), client: ClientID(""))
                if let adjustment = message?.adjustment, adjustment.additionalBottomInset == bottomInset { return adjustment }
            }
            if let line = await client.readLine() { transcript.append(line) }
        }
        print("no adjustment with bottom inset \(bottomInset); received:\n" + transcript.map { String($0.prefix(140)) }.joined(separator: "\n"))
        return nil
    }
}

/// insetd's state as `status` reports it.
func status(_ socket: String) async -> StateSnapshot? {
    guard let client = await InsetdLauncher.connect(socket) else { return nil }
    defer { client.close() }
    client.sendLine(#"{"type":"status","id":1}"#)
    return await client.next("status")?.state
}

func keyboardFrame(_ state: StateSnapshot?) -> [Double]? {
    state?.keyboard.map { [$0.x, $0.y, $0.width, $0.height] }
}
