import Foundation
import Glibc
import InputTestbed
import InsetCore
import InsetProtocol
import Testing

@testable import InsetDaemon

/// The command line and logs an administrator meets: versions, insetctl's
/// scripting output, mode and keys, --log-level, journald detection and the
/// reasons clients leave.
@Suite(.serialized) struct OperabilityTests {
    static let insetctl = insetdBinary.deletingLastPathComponent().appendingPathComponent("insetctl").path
    static let demo = insetdBinary.deletingLastPathComponent().appendingPathComponent("inset-demo").path
    static let osk = insetdBinary.deletingLastPathComponent().appendingPathComponent("insetd-osk").path
    static let testbed = insetdBinary.deletingLastPathComponent().appendingPathComponent("insetd-testbed").path

    static func temporary(_ suffix: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("ops-\(UUID().uuidString.prefix(8)).\(suffix)").path
    }

    /// Every binary reports the one version scripts/version computed when they
    /// were built: the same text from all five, with this checkout's release
    /// number (the commit part is the build's, which may be older than HEAD).
    @Test func everyBinaryHasTheSameVersionFromOnePlace() async throws {
        let expected = try await run([repositoryRoot.appendingPathComponent("scripts/version").path])
        #expect(expected.status == 0)
        let release = { (version: String) in String(version.prefix { $0 != "+" && $0 != "-" && $0 != "\n" }) }
        var versions: Set<String> = []
        for binary in [insetdBinary.path, Self.insetctl, Self.demo, Self.osk, Self.testbed] {
            let result = try await run([binary, "--version"])
            #expect(result.status == 0)
            #expect(release(result.output) == release(expected.output), "\(binary): \(result.output)")
            versions.insert(result.output)
        }
        #expect(versions.count == 1, "\(versions)")
        let file = try String(contentsOf: repositoryRoot.appendingPathComponent("VERSION"), encoding: .utf8)
        if !expected.output.contains("-") {
            // No release tag: the VERSION file's number.
            #expect(release(expected.output) == file.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        let help = try await run([Self.demo, "--help"])
        #expect(help.status == 0)
        #expect(help.output.contains("USAGE: inset-demo [<scenario>]"))
    }

    @Test func statusAndDevicesAsJSONForScripts() async throws {
        let socket = Self.temporary("sock")
        let daemon = try InsetdLauncher.start(socket: socket)
        defer { unlink(socket) }
        _ = await InsetdLauncher.connect(socket)
        let status = try await run([Self.insetctl, "status", "--json", "--socket", socket])
        #expect(status.status == 0)
        #expect(status.output.filter { $0 == "\n" }.count == 1 && status.output.hasSuffix("}\n"), "one line: \(status.output)")
        let line = Array(status.output.utf8.dropLast())
        guard case .status(let id, let state, _, let views) = try DaemonMessageDecoder.decode(line, client: ClientID("")) else {
            Issue.record("not a status line: \(status.output)")
            return
        }
        #expect(id == nil)
        #expect(state.mode == .auto)
        #expect(state.screen.width == 1280)
        #expect(views == 0)
        // No input hardware here without a testbed.
        #expect(try await run([Self.insetctl, "devices", "--json", "--socket", socket]).output == "[]\n")
        await daemon.terminate()
    }

    @Test func modeShowsAndSetsTheRuntimeMode() async throws {
        let socket = Self.temporary("sock")
        let daemon = try InsetdLauncher.start(socket: socket)
        defer { unlink(socket) }
        _ = await InsetdLauncher.connect(socket)
        #expect(try await run([Self.insetctl, "mode", "--socket", socket]).output == "auto\n")
        #expect(try await run([Self.insetctl, "mode", "always", "--socket", socket]).output == "always\n")
        #expect(try await run([Self.insetctl, "status", "--socket", socket]).output.contains("mode:              always"))
        let bad = try await run([Self.insetctl, "mode", "sometimes", "--socket", socket])
        #expect(bad.status == 64)
        #expect(bad.output.contains("'sometimes'"))
        await daemon.terminate()
    }

    @Test func keysListsWhatAHotkeyMayName() async throws {
        let result = try await run([Self.insetctl, "keys"])
        #expect(result.status == 0)
        let names = result.output.split(separator: "\n").map(String.init)
        #expect(Array(names.prefix(4)) == ["CTRL", "SHIFT", "ALT", "META"])
        for name in ["LEFTMETA", "RIGHTCTRL", "K", "ROTATE_DISPLAY", "F12", "BTN_LEFT"] { #expect(names.contains(name), "\(name)") }
        #expect(!names.contains("RESERVED"))
        #expect(!names.contains { $0.hasPrefix("KEY_") })
        #expect(Set(names).count == names.count, "each name once")
        let modifiers = try await run([Self.insetctl, "keys", "--modifiers"])
        #expect(modifiers.output.split(separator: "\n").count == 12)
    }

    @Test func logLevelOnTheCommandLine() async throws {
        let socket = Self.temporary("sock")
        let log = Self.temporary("log")
        defer { unlink(socket); unlink(log) }
        let daemon = try InsetdLauncher.start(socket: socket, arguments: ["--log-level", "warning"], log: log)
        _ = await InsetdLauncher.connect(socket)
        await daemon.terminate()
        #expect(!((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").contains("starting"), "info is below warning")
        let bad = try await run([insetdBinary.path, "--log-level", "loud"])
        #expect(bad.status == 64)
    }

    /// A client's disconnect is logged at info with why it ended.
    @Test func clientDisconnectsAreLoggedWithTheirReason() async throws {
        let socket = Self.temporary("sock")
        let log = Self.temporary("log")
        defer { unlink(socket); unlink(log) }
        let daemon = try InsetdLauncher.start(socket: socket, log: log)
        let polite = try #require(await InsetdLauncher.connect(socket))
        polite.close()
        let rude = try #require(await InsetdLauncher.connect(socket))
        rude.send(String(repeating: "x", count: 70_000))
        _ = await rude.isClosedByPeer()
        try await Task.sleep(for: .milliseconds(200))
        await daemon.terminate()
        let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        #expect(text.contains("info insetd.server: client disconnected client=c1 reason=closed by the client"), "\(text)")
        #expect(text.contains("info insetd.server: client disconnected client=c2 reason=line-too-long"), "\(text)")
    }

    /// journald's stream is recognised by stderr's device and inode, not by the
    /// variable alone (a redirected child inherits the variable).
    @Test func journalStreamMustMatchStandardError() throws {
        let path = Self.temporary("log")
        let fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0o600)
        defer { close(fd); unlink(path) }
        var status = stat()
        fstat(fd, &status)
        #expect(DaemonLogHandler.standardErrorIsJournal(environment: ["JOURNAL_STREAM": "\(status.st_dev):\(status.st_ino)"], descriptor: fd))
        #expect(!DaemonLogHandler.standardErrorIsJournal(environment: ["JOURNAL_STREAM": "\(status.st_dev):\(status.st_ino + 1)"], descriptor: fd))
        #expect(!DaemonLogHandler.standardErrorIsJournal(environment: ["JOURNAL_STREAM": "8:1234"], descriptor: fd))
        #expect(!DaemonLogHandler.standardErrorIsJournal(environment: ["JOURNAL_STREAM": "nonsense"], descriptor: fd))
        #expect(!DaemonLogHandler.standardErrorIsJournal(environment: [:], descriptor: fd))
    }

    /// A log line's time outside the journal: ISO 8601, UTC, to the second.
    @Test func logTimestampsAreISO8601InUTC() {
        #expect(DaemonLogHandler.timestamp(secondsSince1970: 0) == "1970-01-01T00:00:00Z")
        #expect(DaemonLogHandler.timestamp(secondsSince1970: 1_234_567_890) == "2009-02-13T23:31:30Z")
        // 2000-02-29 is 11 016 days after 1970-01-01 (30 years of 365 days, 7 leap days, 31 + 28 days).
        #expect(DaemonLogHandler.timestamp(secondsSince1970: 11_016 * 86_400 + 9) == "2000-02-29T00:00:09Z")
    }
}

/// The committed completions and man pages (installed by `make install`) are
/// what the binaries generate today (`make completions`, `make man`).
@Suite struct ShippedCompletionsTests {
    @Test(arguments: [
        ("insetctl", "bash", "insetctl.bash"), ("insetctl", "zsh", "_insetctl"), ("insetctl", "fish", "insetctl.fish"),
        ("insetd", "bash", "insetd.bash"), ("insetd", "zsh", "_insetd"), ("insetd", "fish", "insetd.fish"),
        ("insetd-osk", "bash", "insetd-osk.bash"), ("insetd-osk", "zsh", "_insetd-osk"),
        ("insetd-osk", "fish", "insetd-osk.fish"),
        ("insetd-testbed", "bash", "insetd-testbed.bash"), ("insetd-testbed", "zsh", "_insetd-testbed"),
        ("insetd-testbed", "fish", "insetd-testbed.fish"),
    ])
    func completionsAreCurrent(_ binary: String, shell: String, file: String) async throws {
        let path = insetdBinary.deletingLastPathComponent().appendingPathComponent(binary).path
        let generated = try await run([path, "--generate-completion-script", shell])
        let committed = try String(contentsOf: repositoryRoot.appendingPathComponent("completions/\(file)"), encoding: .utf8)
        #expect(generated.output == committed, "run make completions")
    }

    @Test func manPagesNameEverySubcommandAndOption() throws {
        let insetctl = try String(contentsOf: repositoryRoot.appendingPathComponent("man/insetctl.1"), encoding: .utf8)
        for name in ["status", "devices", "watch", "show", "hide", "toggle", "rotate", "simulate", "replay", "mode", "keys", "reload", "wait", "events"] {
            #expect(insetctl.contains(".It Em \(name)\n"), "\(name)")
        }
        let insetd = try String(contentsOf: repositoryRoot.appendingPathComponent("man/insetd.8"), encoding: .utf8)
        for option in ["config", "log-level", "socket", "check-config", "uevent-source", "trace", "trace-output"] {
            #expect(insetd.contains("Fl -\(option)"), "--\(option)")
        }
        #expect(insetd.contains(".Dt INSETD 8"))
        #expect(insetctl.contains(".Dt INSETCTL 1"))
        let testbed = try String(contentsOf: repositoryRoot.appendingPathComponent("man/insetd-testbed.1"), encoding: .utf8)
        for name in ["run", "plug", "unplug", "press", "tablet", "list"] {
            #expect(testbed.contains(".It Em \(name)\n"), "\(name)")
        }
        let osk = try String(contentsOf: repositoryRoot.appendingPathComponent("man/insetd-osk.1"), encoding: .utf8)
        #expect(osk.contains("Fl -backend"))
    }
}
