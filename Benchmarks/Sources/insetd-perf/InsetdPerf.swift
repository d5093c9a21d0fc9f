import ArgumentParser
import Foundation
import Glibc
import InputTestbed

/// The performance harness of issue 5: runs the real `insetd` under umockdev
/// with emulated devices and real socket clients, and the C baseline beside
/// it in the same run, and prints what it measured against each target.
@main
struct InsetdPerf: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "insetd-perf",
        abstract: "Measures insetd's latency, fan-out, wakeups, CPU and memory against emulated hardware.",
        discussion: "Re-runs itself under umockdev-wrapper when started without it. See docs/PERFORMANCE.md.")

    @Option(help: "The insetd binary to measure (a release build).")
    var insetd: String

    @Option(help: "The evdev-baseline binary.")
    var baseline: String

    @Option(help: "The library-floor binary, linked as insetd is: P5 idle memory is also split into its libraries' share and insetd's.")
    var floor: String?

    @Option(
        name: .customLong("fanout-floor"),
        help: "The fanout-floor binary: insetd's CPU per change is also given as a ratio to this C program's (P2, P2ws).")
    var fanoutFloor: String?

    // 3000: P1's p99 is compared with the C reader's, and a p99 of 1000 is
    // the 10th-worst sample, where a busy host's bursts land in one side or
    // the other (ratios 1.15-1.40x in runs of the same build).
    @Option(help: "Hotkey latency samples (each for insetd and for the baseline).")
    var samples = 3000

    @Option(help: "Clients for the fan-out measurement.")
    var clients = 1000

    @Option(help: "Keyboard changes timed across all clients.")
    var changes = 100

    // 300: the row compares two p99s; of 100 changes that is the second
    // slowest, one scheduling hiccup away from its 2x bound (1.36-2.62x in
    // runs of the same build).
    @Option(name: .customLong("non-reader-changes"), help: "Keyboard changes timed each side of the non-reader.")
    var nonReaderChanges = 300

    @Option(name: .customLong("idle-seconds"), help: "Length of the idle measurement.")
    var idleSeconds = 30

    @Option(name: .customLong("storm-rate"), help: "Key events per second in the typing storm.")
    var stormRate = 2000

    @Option(name: .customLong("storm-seconds"), help: "Length of the typing storm.")
    var stormSeconds = 10

    @Option(help: "Daemon starts timed to READY=1.")
    var startups = 20

    @Option(
        name: .customLong("only"), parsing: .upToNextOption,
        help: "Take only these measurements (\(Measurement.allCases.map(\.rawValue).joined(separator: ", "))); default: all.")
    var only: [Measurement] = []

    @Option(help: "Also write the Markdown report to this file.")
    var markdown: String?

    @Flag(name: .customLong("fail-on-miss"), help: "Exit 1 when a target is missed.")
    var failOnMiss = false

    func validate() throws {
        for (name, path) in [
            ("--insetd", insetd), ("--baseline", baseline), ("--floor", floor ?? insetd), ("--fanout-floor", fanoutFloor ?? insetd),
        ]
        where access(path, X_OK) != 0 {
            throw ValidationError("\(name) \(path) is not an executable file")
        }
        guard samples > 0, clients >= 10, changes > 0, nonReaderChanges > 0, idleSeconds >= 10, stormRate > 0, stormSeconds > 0, startups > 0
        else { throw ValidationError("counts must be positive, --clients at least 10, --idle-seconds at least 10") }
    }

    /// What `--only` picks from.
    enum Measurement: String, CaseIterable, ExpressibleByArgument {
        case startup, latency, idle, storm, nonReader = "non-reader", fanOut = "fan-out", memory
        case webSocket = "websocket"
    }

    func takes(_ measurement: Measurement) -> Bool { only.isEmpty || only.contains(measurement) }

    func run() throws {
        guard Testbed.isAvailable else { try Self.reexecUnderUmockdev() }
        let run = try PerfRun(insetd: insetd, baseline: baseline)
        run.fanoutFloor = fanoutFloor
        if takes(.startup) { try run.measureStartup(count: startups) }
        try run.measureSteadyState(self)
        if takes(.memory) { try run.measureMemoryWithoutPreload(floor: floor) }
        let command = (["insetd-perf"] + CommandLine.arguments.dropFirst()).joined(separator: " ")
        let text = run.report.markdown(machine: Report.machineDescription(), command: command)
        print(text)
        if let markdown { try text.write(toFile: markdown, atomically: true, encoding: .utf8) }
        if failOnMiss, !run.report.missed.isEmpty { throw ExitCode(1) }
    }

    /// umockdev works by preloading into the process that owns the testbed.
    private static func reexecUnderUmockdev() throws -> Never {
        let wrapper = "/usr/bin/umockdev-wrapper"
        let self_ = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().path
        let arguments = [wrapper, self_] + CommandLine.arguments.dropFirst()
        let argv = arguments.map { strdup($0) } + [nil]
        execv(wrapper, argv)
        throw HarnessError("cannot run \(wrapper): errno \(errno) (install umockdev)")
    }
}

/// One harness run: the testbed with its devices, the scratch directory, and
/// the report being filled.
final class PerfRun {
    let testbed = Testbed()
    let insetd: String
    let baseline: String
    let directory: String
    let config: String
    let log: String
    let notify: NotifyListener
    /// insetd's WebSocket listener (P2 over the WebSocket).
    let webSocketPort = freeLoopbackPort()
    var report = Report()
    /// The C fan-out floor, when given (`--fanout-floor`).
    var fanoutFloor: String?
    /// The keyboard insetd reads hotkeys and typing from.
    let keyboard = FixtureCatalogue.usbKeyboard
    /// The baseline's own keyboard; insetd is told to ignore it (never opens it).
    let baselineDevice: FixtureDevice = {
        var device = FixtureCatalogue.usbKeyboard.renumbered(40)
        device.properties["INSETD_IGNORE"] = "1"
        return device
    }()
    let startupDevices = FixtureCatalogue.all
    /// Devices insetd reads after start-up: both keyboards, the hinge switch,
    /// the remapper (a hotkey source) and the Bluetooth keyboard.
    let steadyDevices = [
        FixtureCatalogue.usbKeyboard, FixtureCatalogue.atKeyboard, FixtureCatalogue.bluetoothKeyboard,
        FixtureCatalogue.tabletSwitch, FixtureCatalogue.remapperKeyboard,
    ]
    var readDevices: Int { steadyDevices.count }

    init(insetd: String, baseline: String) throws {
        self.insetd = insetd
        self.baseline = baseline
        var template = Array("/tmp/insetd-perf-XXXXXX".utf8CString)
        guard mkdtemp(&template) != nil else { throw HarnessError("mkdtemp: errno \(errno)") }
        directory = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        config = directory + "/insetd.yaml"
        log = directory + "/insetd.log"
        // A phone screen; the filter window is 0 so P1 measures the path, not the debounce.
        try """
        screen: {width: 390, height: 844}
        keyboard: {portrait-height: 336, accessory-bar-height: 44}
        filter: {window-ms: 0}
        server: {outbound-queue: 256, max-connections: 8192, max-connections-per-user: 8192}
        websocket: {listen: "127.0.0.1:\(webSocketPort)"}
        """.write(toFile: config, atomically: true, encoding: .utf8)
        notify = try NotifyListener(directory: directory)
        // Every daemon of the run inherits it, as under systemd's Type=notify.
        setenv("NOTIFY_SOCKET", notify.path, 1)
        for device in startupDevices + [baselineDevice] { try testbed.add(device) }
    }

    deinit { try? FileManager.default.removeItem(atPath: directory) }

    func startDaemon(environment: [String: String]? = nil) throws -> DaemonUnderTest {
        try DaemonUnderTest(
            binary: insetd, config: config, socket: directory + "/insetd.sock", log: log, notify: notify,
            environment: environment)
    }

    /// P1, P3, P4, the non-reader and P2 on one daemon with five devices read
    /// (those `--only` picks).
    func measureSteadyState(_ options: InsetdPerf) throws {
        for device in startupDevices where !steadyDevices.contains(device) { testbed.remove(device) }
        let daemon = try startDaemon()
        let first = try daemon.connect(view: true)
        let bare = try BaselineUnderTest(binary: baseline, socket: directory + "/baseline.sock", devnode: baselineDevice.devnode)
        if options.takes(.latency) {
            try measureHotkeyLatency(daemon: daemon, client: first, baseline: bare, count: options.samples)
        }

        let fleet = ClientFleet()
        fleet.add(first)
        while fleet.count < 10 { fleet.add(try daemon.connect(view: true)) }
        if options.takes(.idle) { try measureIdle(daemon: daemon, clients: fleet, seconds: options.idleSeconds) }
        if options.takes(.storm) {
            try measureTypingStorm(
                daemon: daemon, clients: fleet, baseline: bare, rate: options.stormRate, seconds: options.stormSeconds)
        }
        if options.takes(.nonReader) { try measureNonReader(daemon: daemon, clients: fleet, changes: options.nonReaderChanges) }
        if options.takes(.fanOut) {
            try measureFanOut(daemon: daemon, clients: fleet, total: options.clients, changes: options.changes)
        }
        if options.takes(.webSocket) {
            try measureWebSocketFanOut(
                daemon: daemon, socketClients: fleet, total: options.clients, changes: options.changes)
        }
        guard daemon.stop() == .exited(0) else { throw HarnessError("insetd did not stop cleanly; see \(log)") }
    }

    /// P5a as deployed: no preload library in the daemon (so no emulated devices);
    /// beside it, when given, `library-floor` under the same conditions.
    func measureMemoryWithoutPreload(floor: String?) throws {
        var environment = ProcessInfo.processInfo.environment
        environment["LD_PRELOAD"] = nil
        environment["UMOCKDEV_DIR"] = nil
        environment["NOTIFY_SOCKET"] = notify.path
        let daemon = try startDaemon(environment: environment)
        let clients = try (0..<10).map { _ in try daemon.connect(view: true) }
        pause(nanoseconds: 500_000_000)
        let rss = daemon.probe.residentKibibytes
        report.add(
            "P5", "RSS idle, \(clients.count) clients, no preload, no devices", mebibytes(kibibytes: rss),
            target: "≤ 12 MiB", met: rss <= 12 * 1024)
        guard daemon.stop() == .exited(0) else { throw HarnessError("insetd did not stop cleanly; see \(log)") }
        guard let floor else { return }

        let socket = directory + "/floor.sock"
        let process = try SpawnedProcess(floor, ["--socket", socket], environment: environment)
        var connected = [try SocketClient.connectOnceListening(socket, server: "library-floor", greeting: "ready")]
        while connected.count < clients.count {
            let client = try SocketClient(path: socket)
            _ = try client.waitForLine(containing: "ready")
            connected.append(client)
        }
        pause(nanoseconds: 500_000_000)
        let floorRSS = ProcessProbe(pid: process.pid).residentKibibytes
        process.signal(SIGTERM)
        guard process.wait() == .exited(0) else { throw HarnessError("library-floor did not stop cleanly") }
        report.add(
            "P5", "RSS idle, insetd's Swift libraries alone (library-floor, \(connected.count) clients)",
            mebibytes(kibibytes: floorRSS))
        report.add(
            "P5", "insetd beyond its libraries (its code, libudev, libevdev, libyaml, state)",
            "\(mebibytes(kibibytes: rss - floorRSS)) (ratio \(ratio(UInt64(rss), UInt64(floorRSS))))")
    }
}
