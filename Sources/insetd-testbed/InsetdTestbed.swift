// insetd-testbed: emulated input hardware for testing kiosks and devices with
// insetd in the loop, in CI, without root or real devices.
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ArgumentParser
import InsetVersion
import Glibc
import InputTestbed

@main
struct InsetdTestbed: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "insetd-testbed",
        abstract: "Run a command beside emulated keyboards, switches and buttons (umockdev), and drive them.",
        discussion: """
            'insetd-testbed run [--device KIND[:NAME]]... -- COMMAND' starts COMMAND with a fake /sys and \
            /dev/input that libudev and libevdev (and so insetd) read as real hardware. Inside it, \
            plug, unplug, press, tablet and list drive the devices through $INSETD_TESTBED. \
            Device kinds: \(TestbedKinds.documented.joined(separator: ", ")). See docs/HIL-USERS.md.
            """,
        version: InsetVersion.current,
        subcommands: [Run.self, Plug.self, Unplug.self, Press.self, Tablet.self, List.self])
}

/// A one-line error: `insetd-testbed: MESSAGE` on standard error, then `status`.
func fail(_ message: String, status: Int32 = 1) -> ExitCode {
    let line = Array("insetd-testbed: \(message)\n".utf8)
    _ = line.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    return ExitCode(status)
}

/// Sends a request to the enclosing `insetd-testbed run` and prints its answer.
func ask(_ request: TestbedRequest) throws {
    guard let path = ProcessInfo.processInfo.environment[testbedControlVariable], !path.isEmpty else {
        throw fail("not inside 'insetd-testbed run' (\(testbedControlVariable) is not set)")
    }
    let reply: TestbedReply
    do { reply = try TestbedControlClient.send(request, to: path) } catch { throw fail(error.message) }
    if let error = reply.error { throw fail(error) }
    if let output = reply.output, !output.isEmpty { print(output) }
}

/// A recording's text and the label it is listed under (the file name without `.umockdev`).
func readRecording(_ path: String) throws -> (text: String, kind: String) {
    guard let data = FileManager.default.contents(atPath: path) else { throw fail("cannot read recording \(path)") }
    var kind = URL(fileURLWithPath: path).lastPathComponent
    if kind.hasSuffix(".umockdev") { kind.removeLast(".umockdev".count) }
    return (String(decoding: data, as: UTF8.self), kind)
}

extension InsetdTestbed {
    struct Run: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Run COMMAND beside emulated devices; exit with its status.",
            discussion: """
                Exports INSETD_TESTBED (the control socket of plug, unplug, press, tablet, list) and, \
                unless set, INSETD_SOCKET (a socket path for insetd and insetctl inside). Start insetd \
                inside with --uevent-source udev: umockdev's hotplug events arrive in udev's format. \
                When COMMAND ends, whatever it left running in its process group is stopped and the \
                emulated devices are removed. Exit status: COMMAND's (128+N if signal N ended it); \
                125 when the testbed itself fails, 126/127 when COMMAND cannot be run.
                """)

        @Option(name: .customLong("device"), help: "Plug a device before COMMAND starts: KIND or KIND:NAME (repeatable).")
        var devices: [String] = []

        @Option(name: .customLong("recording"), help: "Plug a device recorded with umockdev-record (repeatable).")
        var recordings: [String] = []

        @Argument(parsing: .postTerminator, help: "The command to run (after --).")
        var command: [String] = []

        func validate() throws {
            guard !command.isEmpty else { throw ValidationError("name the command to run after --") }
        }

        func run() throws {
            // Everything the tester named is checked before anything starts.
            for device in devices {
                do { _ = try TestbedKinds.fixture(for: Self.split(device).kind) } catch { throw fail(error.message, status: 125) }
            }
            for path in recordings {
                let recording = try readRecording(path)
                do { _ = try RecordedDevice.parse(recording.text, kind: recording.kind) } catch {
                    throw fail("recording \(path): \(error.message)", status: 125)
                }
            }
            guard Testbed.isAvailable else {
                guard getenv("INSETD_TESTBED_REEXEC") == nil else {
                    throw fail("umockdev's preload did not take effect (LD_PRELOAD=\(String(cString: getenv("LD_PRELOAD") ?? strdup("")))); is umockdev installed?", status: 125)
                }
                return try reexecUnderPreload()
            }
            try runInsideTestbed()
        }

        static func split(_ device: String) -> (kind: String, name: String?) {
            guard let colon = device.firstIndex(of: ":") else { return (device, nil) }
            return (String(device[..<colon]), String(device[device.index(after: colon)...]))
        }

        /// umockdev works by LD_PRELOAD, which must be in place when a process starts.
        private func reexecUnderPreload() throws {
            let wrapper = "umockdev-wrapper"
            // The wrapper is a shell script: /proc/self/exe would be the shell by then.
            var path = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let length = readlink("/proc/self/exe", &path, Int(PATH_MAX))
            guard length > 0 else { throw fail("cannot find this program's path (/proc/self/exe)", status: 125) }
            let executable = String(decoding: path.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self)
            let arguments = [wrapper, executable] + Array(CommandLine.arguments.dropFirst())
            let argv = arguments.map { strdup($0) } + [nil]
            setenv("INSETD_TESTBED_REEXEC", "1", 1)
            execvp(wrapper, argv)
            throw fail("cannot start \(wrapper): \(String(cString: strerror(errno))) (install umockdev: apt install umockdev)", status: 125)
        }

        private func runInsideTestbed() throws {
            let directory: String
            do { directory = try Self.makeDirectory() } catch { throw fail(error.message, status: 125) }
            defer { try? FileManager.default.removeItem(atPath: directory) }
            let hardware = EmulatedHardware()
            let control: TestbedControlServer
            do {
                for device in devices {
                    let (kind, name) = Self.split(device)
                    try hardware.plug(kind: kind, name: name)
                }
                for path in recordings {
                    let recording = try readRecording(path)
                    try hardware.plug(recording: recording.text, kind: recording.kind)
                }
                control = try TestbedControlServer(path: "\(directory)/control.sock")
            } catch let error as TestbedError {
                throw fail(error.message, status: 125)
            }
            unsetenv("INSETD_TESTBED_REEXEC")
            setenv(testbedControlVariable, control.path, 1)
            setenv("INSETD_SOCKET", "\(directory)/insetd.sock", 0)
            let status: Int32
            do {
                status = try CommandRunner(hardware: hardware, control: control).run(command)
            } catch {
                throw fail(error.message, status: error.status)
            }
            if status != 0 { throw ExitCode(status) }
        }

        private static func makeDirectory() throws(TestbedError) -> String {
            let base = ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
            var template = Array("\(base)/insetd-testbed-XXXXXX".utf8CString)
            guard mkdtemp(&template) != nil else {
                throw TestbedError(message: "cannot create a directory in \(base): \(String(cString: strerror(errno)))")
            }
            return template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        }
    }

    struct Plug: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Plug in a device: udev announces it and readers can open it.",
            discussion: "Kinds: \(TestbedKinds.all.joined(separator: ", ")).")
        @Argument(help: "The device kind (omit with --recording).") var kind: String?
        @Option(help: "The name to unplug it by (default: the kind, then KIND-2, ...).") var name: String?
        @Option(help: "Plug a device recorded with umockdev-record instead of a kind.") var recording: String?

        func validate() throws {
            guard (kind == nil) != (recording == nil) else { throw ValidationError("name a KIND or a --recording FILE (one of them)") }
        }

        func run() throws {
            if let recording {
                let file = try readRecording(recording)
                try ask(TestbedRequest(.plug, kind: file.kind, name: name, recording: file.text))
            } else {
                try ask(TestbedRequest(.plug, kind: kind, name: name))
            }
        }
    }

    struct Unplug: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Unplug a device by name: udev announces its removal.")
        @Argument(help: "The device's name (insetd-testbed list).") var name: String
        func run() throws { try ask(TestbedRequest(.unplug, name: name)) }
    }

    struct Press: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Press keys together and release them (LEFTMETA+K), on the first keyboard that has them.",
            discussion: "Key names as in linux/input-event-codes.h, KEY_ optional: LEFTMETA+K, F5, ROTATE_DISPLAY.")
        @Argument(help: "KEY[+KEY...]") var keys: String
        @Option(help: "The device to type on (default: the first plugged that has the keys).") var device: String?
        func run() throws { try ask(TestbedRequest(.press, name: device, keys: keys)) }
    }

    struct Tablet: ParsableCommand {
        enum State: String, ExpressibleByArgument, CaseIterable { case on, off }
        static let configuration = CommandConfiguration(abstract: "Fold into tablet mode (on) or back (off) with the tablet switch.")
        @Argument(help: "on or off.") var state: State
        @Option(help: "The tablet switch (default: the first plugged).") var device: String?
        func run() throws { try ask(TestbedRequest(.tablet, name: device, on: state == .on)) }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Plugged devices: name, kind, node (and a switch's position).")
        func run() throws { try ask(TestbedRequest(.list)) }
    }
}
