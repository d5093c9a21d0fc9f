import Foundation
import Glibc
import InputTestbed
import InsetCore
import InsetProtocol
import Testing

/// `insetd-testbed`, the binary, as a tester runs it: from a shell without
/// umockdev's preload (it restarts itself under `umockdev-wrapper`), with nested
/// commands driving the devices, and the real insetd and insetctl inside.
@Suite(.serialized, .enabled(if: access("/usr/bin/umockdev-wrapper", X_OK) == 0, "needs umockdev (scripts/bootstrap)"))
struct TestbedCommandTests {
    static let bin = insetdBinary.deletingLastPathComponent().path
    static let testbed = "\(bin)/insetd-testbed"

    /// Runs `sh -c SCRIPT` inside `insetd-testbed run ARGUMENTS`, with the build
    /// directory first in PATH; returns the exit status and everything printed.
    func inside(_ arguments: [String], _ script: String) async throws -> (status: Int32, output: String) {
        try await ChildProcess.run(
            ["env", "PATH=\(Self.bin):/usr/bin:/bin", Self.testbed, "run"] + arguments + ["--", "sh", "-c", script])
    }

    @Test func listsThePluggedDevicesAndReturnsTheCommandsStatus() async throws {
        let result = try await inside(
            ["--device", "usb-keyboard", "--device", "tablet-switch:hinge"],
            "insetd-testbed list; insetd-testbed tablet on; insetd-testbed list; exit 7")
        #expect(result.status == 7)
        #expect(
            result.output == """
                usb-keyboard\tusb-keyboard\t/dev/input/event10
                hinge\ttablet-switch\t/dev/input/event13\ttablet off
                tablet mode on (hinge)
                usb-keyboard\tusb-keyboard\t/dev/input/event10
                hinge\ttablet-switch\t/dev/input/event13\ttablet on

                """)
    }

    @Test func devicesAreRealToLibudev() async throws {
        // What udev's own tools see in the fake /sys: the node, and the name on its parent.
        let result = try await inside(
            ["--device", "internal-keyboard:builtin"],
            "insetd-testbed plug usb-keyboard --name desk >/dev/null; ls /dev/input; "
                + "cat /sys/devices/pci0000:00/0000:00:14.0/usb1/1-2/1-2:1.0/0003:413C:2113.0001/input/input10/name; echo; "
                + "insetd-testbed unplug desk; ls /dev/input")
        #expect(result.status == 0)
        #expect(result.output == "event10\nevent3\nDell KB216 Wired Keyboard\nunplugged desk (/dev/input/event10)\nevent3\n")
    }

    @Test func recordingsArePluggedByFile() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("recordings-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let good = directory.appendingPathComponent("kiosk-keyboard.umockdev").path
        try """
            P: /devices/pci0000:00/0000:00:14.0/usb1/1-4/1-4:1.0/0003:046A:0001.0007/input/input7/event7
            N: input/event7

            P: /devices/pci0000:00/0000:00:14.0/usb1/1-4/1-4:1.0/0003:046A:0001.0007/input/input7
            E: KEY=80000000000000 e0b0ffdf01cfffff fffffffffffffffe
            E: NAME="Cherry USB keyboard"
            E: PRODUCT=3/46a/1/111

            """.write(toFile: good, atomically: true, encoding: .utf8)
        let bad = directory.appendingPathComponent("empty.umockdev").path
        try "P: /devices/virtual/input/input1\n".write(toFile: bad, atomically: true, encoding: .utf8)

        let result = try await inside(
            ["--recording", good], "insetd-testbed plug --recording \(good) --name again; insetd-testbed list")
        #expect(result.status == 0)
        #expect(
            result.output == """
                plugged again (kiosk-keyboard, /dev/input/event100)
                kiosk-keyboard\tkiosk-keyboard\t/dev/input/event7
                again\tkiosk-keyboard\t/dev/input/event100

                """)
        let refused = try await inside(["--recording", bad], "true")
        #expect(refused.status == 125)
        #expect(
            refused.output == "insetd-testbed: recording \(bad): no input event node (N: input/eventN) in the recording; "
                + "record one with umockdev-record /dev/input/eventN\n")
    }

    @Test func nestedErrorsAreOneLineAndNonZero() async throws {
        let result = try await inside(
            [],
            "insetd-testbed unplug ghost; echo \"status $?\"; insetd-testbed plug mouse; echo \"status $?\"; "
                + "insetd-testbed plug usb-keyboard >/dev/null; insetd-testbed press LEFTMETA+FOO; echo \"status $?\"")
        #expect(result.status == 0)
        let lines = result.output.split(separator: "\n").map(String.init)
        #expect(lines.count == 6)
        #expect(lines[0] == "insetd-testbed: no device named 'ghost' is plugged (nothing is plugged)")
        #expect(lines[1] == "status 1")
        #expect(lines[2].hasPrefix("insetd-testbed: unknown device kind 'mouse' (kinds: usb-keyboard, bluetooth-keyboard,"))
        #expect(lines[3] == "status 1")
        #expect(lines[4].hasPrefix("insetd-testbed: unknown key name 'FOO' in 'LEFTMETA+FOO'"))
        #expect(lines[5] == "status 1")
    }

    @Test func anUnknownKindStartsNothing() async throws {
        let marker = FileManager.default.temporaryDirectory.appendingPathComponent("testbed-\(UUID().uuidString)").path
        let result = try await inside(["--device", "usb-keyboard", "--device", "trackball"], "touch \(marker)")
        #expect(result.status == 125)
        #expect(result.output.split(separator: "\n").count == 1)
        #expect(result.output.hasPrefix("insetd-testbed: unknown device kind 'trackball' (kinds: "))
        #expect(!FileManager.default.fileExists(atPath: marker))
    }

    @Test func outsideARunItSaysSo() async throws {
        let result = try await ChildProcess.run([Self.testbed, "plug", "usb-keyboard"])
        #expect(result.status == 1)
        #expect(result.output == "insetd-testbed: not inside 'insetd-testbed run' (INSETD_TESTBED is not set)\n")
    }

    @Test func whatTheCommandLeftRunningIsStopped() async throws {
        let pidFile = FileManager.default.temporaryDirectory.appendingPathComponent("testbed-\(UUID().uuidString).pid").path
        defer { unlink(pidFile) }
        let result = try await inside([], "sleep 300 & echo $! > \(pidFile); exit 0")
        #expect(result.status == 0)
        let pid = try #require(Int32(String(contentsOfFile: pidFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)))
        // Gone, or a zombie waiting for init to reap it: not running either way.
        let stat = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
        let state = stat[(stat.lastIndex(of: ")") ?? stat.startIndex)...].split(separator: " ").dropFirst().first
        #expect(stat.isEmpty || state == "Z", "sleep \(pid) still runs: \(stat)")
    }

    /// A stop signal to the runner reaches the command, whichever of the runner's
    /// threads the kernel hands it to (umockdev's and the runtime's do not block
    /// it): the command ends with it, and nothing is left running.
    @Test(arguments: [SIGTERM, SIGINT, SIGHUP])
    func aStopSignalToTheRunnerEndsTheCommand(signal: Int32) async throws {
        let pidFile = FileManager.default.temporaryDirectory.appendingPathComponent("testbed-\(UUID().uuidString).pid").path
        defer { unlink(pidFile) }
        let runner = try SpawnedProcess(
            Self.testbed, ["run", "--", "sh", "-c", "echo $$ > \(pidFile).tmp && mv \(pidFile).tmp \(pidFile) && exec sleep 300"],
            environment: ChildProcess.realSystemEnvironment.merging(["PATH": "\(Self.bin):/usr/bin:/bin"]) { $1 })
        let deadline = ContinuousClock.now + .seconds(10)
        while !FileManager.default.fileExists(atPath: pidFile), ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        let pid = try #require(Int32(String(contentsOfFile: pidFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)))
        // Sent again for a while: a signal that lands before the runner's handlers are set is not what this is about.
        var ended: SpawnedProcess.Termination?
        for _ in 0..<100 where ended == nil {
            runner.signal(signal)
            try await Task.sleep(for: .milliseconds(50))
            ended = runner.termination
        }
        #expect(ended == .exited(128 + signal), "the runner returns the command's end")
        let stat = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
        let state = stat[(stat.lastIndex(of: ")") ?? stat.startIndex)...].split(separator: " ").dropFirst().first
        #expect(stat.isEmpty || state == "Z", "sleep \(pid) still runs: \(stat)")
        if !stat.isEmpty, state != "Z" { kill(pid, SIGKILL) }
    }

    @Test func aCommandThatCannotRunExits127() async throws {
        let result = try await ChildProcess.run([Self.testbed, "run", "--", "no-such-command-here"])
        #expect(result.status == 127)
        #expect(result.output == "insetd-testbed: cannot run 'no-such-command-here': No such file or directory\n")
    }

    @Test func insetdInsideWaitsAndTimelineNameEveryCause() async throws {
        let timeline = FileManager.default.temporaryDirectory.appendingPathComponent("timeline-\(UUID().uuidString).jsonl").path
        defer { unlink(timeline) }
        let script = """
            insetd --socket "$INSETD_SOCKET" --uevent-source udev 2>/dev/null &
            insetctl wait devices=1 keyboard=hidden --timeout 20 >/dev/null || exit 90
            insetctl events --jsonl --count 4 > \(timeline) &
            events=$!
            until [ -s \(timeline) ]; do sleep 0.05; done
            insetd-testbed plug usb-keyboard --name desk >/dev/null
            insetctl wait hardware-keyboard=yes devices=2
            insetd-testbed press LEFTMETA+K
            insetctl wait keyboard=shown >/dev/null
            insetctl wait keyboard=bar --timeout 0.3
            echo "status $?"
            wait $events
            """
        let result = try await inside(["--device", "tablet-switch"], script)
        #expect(result.status == 0)
        #expect(
            result.output == """
                keyboard=hidden hardware-keyboard=yes tablet-mode=off mode=auto devices=2
                pressed LEFTMETA+K on desk
                insetctl: timed out after 0.3 s; held: none; not held: keyboard=bar (is shown); \
                state: keyboard=shown hardware-keyboard=yes tablet-mode=off mode=auto devices=2
                status 1

                """)
        let text = try String(contentsOfFile: timeline, encoding: .utf8)
        // Read as any client reads the events topic: typed, through the protocol's decoder.
        let entries: [TimelineEntry] = text.split(separator: "\n").compactMap {
            guard case .event(let entry)? = try? DaemonMessageDecoder.decode(Array($0.utf8), client: ClientID("")) else { return nil }
            return entry
        }
        try #require(entries.count == 4)
        // 1. The state at subscription: the tablet switch alone.
        #expect(entries[0].decision == .subscribed && entries[0].cause == .subscription)
        #expect(entries[0].state.devices == 1 && entries[0].state.keyboard == .hidden)
        // 2. The plug: classified at once, not yet usable (the hold-off runs).
        guard case .device("attached", let device) = entries[1].decision else {
            Issue.record("entry 2 is no attach: \(entries[1].decision)")
            return
        }
        #expect(device.class == "keyboard-external")
        guard case .device(_, let cause) = entries[1].cause else {
            Issue.record("entry 2's cause is no device: \(entries[1].cause)")
            return
        }
        #expect(cause.name == "Dell KB216 Wired Keyboard" && cause.devnode == "/dev/input/event10")
        #expect(entries[1].state.devices == 2 && entries[1].state.hardwareKeyboard == false)
        // 3. 200 ms later the keyboard counts.
        #expect(entries[2].decision == .hardwareKeyboard(true))
        #expect(entries[2].cause == .holdOffExpired(holdOff: .milliseconds(200)))
        #expect(entries[2].at.nanoseconds - entries[1].at.nanoseconds >= 200_000_000)
        // 4. The hotkey shows the full keyboard (nothing is focused, so a toggle shows it).
        guard case .keyboard(.shown, phase: .willShow, frame: _) = entries[3].decision else {
            Issue.record("entry 4 shows no keyboard: \(entries[3].decision)")
            return
        }
        #expect(entries[3].cause == .hotkey(action: "toggle"))
        // Never keystrokes: the keys pressed appear nowhere.
        #expect(!text.contains("LEFTMETA") && !text.contains("\"K\"") && !text.contains("KEY_"))
    }
}
