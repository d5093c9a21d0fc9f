import CLibevdev
import Glibc
import InputTestbed

/// The measurements of issue 5, in the order one run takes them: start-up with
/// ten devices; then one daemon with five devices for hotkey latency (side by
/// side with the C baseline), idle wakeups, the typing storm, and finally the
/// 1000-client fan-out.
extension PerfRun {
    static let hotkeyModifier = Int32(KEY_LEFTMETA)
    static let hotkeyKey = Int32(KEY_K)

    /// Holds the modifier (given 2 ms to be read, before the clock starts), then
    /// presses the key; returns the time just before the key was written.
    func pressHotkey(on device: FixtureDevice) -> UInt64 {
        testbed.key(device, Self.hotkeyModifier, 1)
        pause(nanoseconds: 2_000_000)
        let started = monotonicNanoseconds()
        testbed.key(device, Self.hotkeyKey, 1)
        return started
    }

    func releaseHotkey(on device: FixtureDevice) {
        testbed.key(device, Self.hotkeyKey, 0)
        testbed.key(device, Self.hotkeyModifier, 0)
    }

    /// P5b: exec → READY=1 with ten devices, over `count` starts.
    func measureStartup(count: Int) throws {
        var samples = Samples()
        for _ in 0..<count {
            let daemon = try startDaemon()
            samples.append(daemon.startup)
            guard daemon.stop() == .exited(0) else { throw HarnessError("insetd did not stop cleanly; see \(log)") }
        }
        report.add(
            "P5", "exec → READY=1, \(startupDevices.count) devices (p50 / p99 of \(count))",
            "\(milliseconds(samples.p50)) / \(milliseconds(samples.p99))", target: "≤ 100 ms",
            met: samples.p99 <= 100_000_000)
    }

    /// P1: hotkey press written to the device → the client reads the keyboard
    /// notification, alternating with the same press through the baseline.
    func measureHotkeyLatency(daemon: DaemonUnderTest, client: SocketClient, baseline: BaselineUnderTest, count: Int) throws {
        var insetd = Samples()
        var bare = Samples()
        for _ in 0..<count {
            var started = pressHotkey(on: keyboard)
            insetd.append(try client.waitForLine(containing: #""type":"keyboard""#) - started)
            releaseHotkey(on: keyboard)
            _ = try client.waitForLine(containing: #""type":"adjustment""#)

            started = pressHotkey(on: baselineDevice)
            bare.append(try baseline.client.waitForLine(containing: "1 \(Self.hotkeyKey) 1") - started)
            releaseHotkey(on: baselineDevice)
            _ = try baseline.client.waitForLine(containing: "1 \(Self.hotkeyModifier) 0")
            pause(nanoseconds: 1_000_000)
        }
        report.add(
            "P1", "hotkey → keyboard notification, insetd p50 / p99 (\(count) samples)",
            "\(milliseconds(insetd.p50)) / \(milliseconds(insetd.p99))", target: "p99 ≤ 1 ms", met: insetd.p99 <= 1_000_000)
        report.add(
            "P1", "same key → line, C baseline p50 / p99", "\(milliseconds(bare.p50)) / \(milliseconds(bare.p99))")
        report.add(
            "P1", "ratio insetd / baseline, p50 / p99", "\(ratio(insetd.p50, bare.p50)) / \(ratio(insetd.p99, bare.p99))",
            target: "p99 ≤ 1.3× (issue 40)", met: 10 * insetd.p99 <= 13 * bare.p99)
    }

    /// P3 and P5a: the daemon left alone with its clients and devices.
    func measureIdle(daemon: DaemonUnderTest, clients: ClientFleet, seconds: Int) throws {
        _ = try clients.discardAll()
        pause(nanoseconds: 500_000_000)  // let the last replies settle before counting
        let before = daemon.probe.counters()
        pause(nanoseconds: UInt64(seconds) * 1_000_000_000)
        let (cpu, wakeups) = daemon.probe.counters().since(before)
        report.add(
            "P3", "wakeups idle \(seconds) s, \(readDevices) devices read, \(clients.count) clients",
            "\(wakeups) (\(daemon.probe.threads) threads, CPU \(milliseconds(cpu)))",
            target: "≤ \(seconds / 10)", met: wakeups * 10 <= UInt64(seconds))
        // umockdev's LD_PRELOAD (its libc wrappers and the testbed's state)
        // is in this process and in no shipped one: the 12 MiB target is
        // judged on the run without it (measureMemoryWithoutPreload).
        let rss = daemon.probe.residentKibibytes
        report.add(
            "P5", "RSS idle, \(clients.count) clients, under umockdev's preload (not shipped; the target is the row without it)",
            mebibytes(kibibytes: rss))
    }

    /// P4: ordinary keys at `rate` events per second into insetd's keyboard and,
    /// in the same ticks, the baseline's: the daemon's CPU beside the bare
    /// reader's (under umockdev most of a read is the emulation's), and no
    /// insetd client hears anything.
    func measureTypingStorm(
        daemon: DaemonUnderTest, clients: ClientFleet, baseline: BaselineUnderTest, rate: Int, seconds: Int
    ) throws {
        _ = try clients.discardAll()
        let interval = UInt64(1_000_000_000 / rate)
        let total = rate * seconds
        let before = daemon.probe.counters()
        let bareBefore = baseline.probe.counters()
        let started = monotonicNanoseconds()
        var echoed = 0
        for index in 0..<total {
            let due = started + UInt64(index) * interval
            let now = monotonicNanoseconds()
            if due > now { pause(nanoseconds: due - now) }
            let value = Int32(index % 2 == 0 ? 1 : 0)
            testbed.key(keyboard, Int32(KEY_A), value)
            testbed.key(baselineDevice, Int32(KEY_A), value)
            if index % 200 == 199 { echoed += try baseline.client.discardAll() }
        }
        let elapsed = monotonicNanoseconds() - started
        pause(nanoseconds: 100_000_000)  // the last events are read and dropped
        let cpu = daemon.probe.counters().since(before).cpuNanoseconds
        let bare = baseline.probe.counters().since(bareBefore).cpuNanoseconds
        echoed += try baseline.client.discardAll()
        let wall = elapsed + 100_000_000
        let published = try clients.discardAll()
        let percent = { (cpu: UInt64) in Double(cpu) / Double(wall) * 100 }
        let achieved = Int((Double(total) / (Double(elapsed) / 1e9)).rounded())
        report.add(
            "P4", "typing storm \(total) key events at \(achieved)/s: insetd CPU",
            "\(milliseconds(cpu)) in \(milliseconds(wall)) = \(percentString(percent(cpu))) of one core")
        report.add(
            "P4", "same storm, C baseline CPU (echoed \(echoed) lines)",
            "\(milliseconds(bare)) = \(percentString(percent(bare))) of one core")
        let own = cpu > bare ? cpu - bare : 0
        report.add(
            "P4", "insetd beyond the baseline's read cost (ratio \(ratio(cpu, bare)))",
            "\(percentString(percent(own))) of one core", target: "≤ 2 %", met: percent(own) <= 2)
        report.add(
            "P4", "lines published to \(clients.count) clients during the storm", "\(published)", target: "0",
            met: published == 0)
    }

    /// Abuse: 100 healthy clients' fan-out latency without and then beside a
    /// client that registers 300 views and never reads; it must be dropped
    /// (with a logged reason) and the others must not notice.
    func measureNonReader(daemon: DaemonUnderTest, clients: ClientFleet, changes: Int) throws {
        while clients.count < 100 { clients.add(try daemon.connect(view: true)) }
        let (alone, _) = try timeChanges(daemon, timing: clients, count: changes)
        let rssBefore = daemon.probe.residentKibibytes
        let silent = try SocketClient(path: daemon.socket)
        try silent.send(#"{"type":"hello","version":1,"client":"never-reads"}"#)
        var batch = ""
        for index in 0..<300 {
            batch += #"{"type":"register","view":"v\#(index)","frame":{"x":0,"y":0,"width":390,"height":844},"contentSize":{"width":390,"height":2000}}"# + "\n"
        }
        try silent.send(String(batch.dropLast()))
        let (beside, _) = try timeChanges(daemon, timing: clients, count: changes)
        let rssAfter = daemon.probe.residentKibibytes
        let logText = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        let dropped = logText.contains("client dropped: it does not read its messages")
        report.add(
            "abuse", "100 clients' fan-out p50 / p99 alone → beside a non-reader (\(changes) changes each)",
            "\(milliseconds(alone.p50)) / \(milliseconds(alone.p99)) → \(milliseconds(beside.p50)) / \(milliseconds(beside.p99)) (p99 \(ratio(beside.p99, alone.p99)))",
            target: "p99 ≤ 2×", met: beside.p99 <= 2 * alone.p99)
        report.add(
            "abuse", "non-reader dropped with a logged reason; RSS before → after",
            "\(dropped ? "dropped" : "NOT dropped"); \(mebibytes(kibibytes: rssBefore)) → \(mebibytes(kibibytes: rssAfter))",
            target: "dropped, bounded", met: dropped && rssAfter <= rssBefore + 8 * 1024)
    }

    /// P2 and P5a: `total` clients with one view each; one keyboard change until
    /// all have their adjustment.
    func measureFanOut(daemon: DaemonUnderTest, clients: ClientFleet, total: Int, changes: Int) throws {
        let added = max(0, total - clients.count)
        let connectStarted = monotonicNanoseconds()
        while clients.count < total { clients.add(try daemon.connect(view: true)) }
        let connectTime = monotonicNanoseconds() - connectStarted
        let (samples, cost) = try timeChanges(daemon, timing: clients, count: changes)
        report.add(
            "P2", "one keyboard change → all \(total) clients have their adjustment, p50 / p99 (\(changes) changes)",
            "\(milliseconds(samples.p50)) / \(milliseconds(samples.p99))", target: "p99 ≤ 20 ms",
            met: samples.p99 <= 20_000_000)
        report.add("P2", "insetd CPU per change with \(total) clients", milliseconds(cost.cpu))
        if let fanoutFloor {
            let writes = try recordTwoChanges(on: clients.clients[0])
            let floor = try floorCost(
                binary: fanoutFloor, transport: .socket, writes: writes, total: total, changes: changes)
            report.add(
                "P2", "insetd CPU per change / the C floor's (`fanout-floor`: \(total) Unix-socket clients, the same lines, one write per client)",
                "\(milliseconds(cost.cpu)) / \(milliseconds(floor)) = \(ratio(cost.cpu, floor))", target: "≤ 3×",
                met: cost.cpu <= 3 * floor)
        }
        let rss = daemon.probe.residentKibibytes
        report.add(
            "P5", "RSS with \(total) clients (peak \(mebibytes(kibibytes: daemon.probe.peakResidentKibibytes)))",
            mebibytes(kibibytes: rss), target: "≤ 40 MiB", met: rss <= 40 * 1024)
        report.add(
            "P5", "daemon descriptors with \(total) clients; connecting + registering the last \(added)", "\(daemon.probe.openDescriptors); \(milliseconds(connectTime))")
    }
}

func percentString(_ value: Double) -> String {
    String(format: "%.2f %%", value)
}

/// What keyboard changes cost the daemon: CPU per change, as the scheduler
/// counts it (`schedstat`), and the user / system split of it (`stat`, in ticks).
struct ChangeCost {
    var cpu: UInt64
    var user: UInt64
    var system: UInt64
    /// The clock ticks the split rests on, over all changes (each is 10 ms at 100 Hz).
    var ticks: UInt64 = 0

    /// Per session, for `sessions` sessions added between `earlier` and this.
    func perSession(since earlier: ChangeCost, sessions: Int) -> ChangeCost {
        let count = UInt64(max(1, sessions))
        return ChangeCost(
            cpu: (cpu - min(cpu, earlier.cpu)) / count, user: (user - min(user, earlier.user)) / count,
            system: (system - min(system, earlier.system)) / count)
    }
}

extension PerfRun {
    /// Hotkey toggles until every client of `timing` has its adjustment; the
    /// `draining` fleets are read and dropped between changes. Returns the
    /// samples and the daemon's CPU per change.
    func timeChanges(_ daemon: DaemonUnderTest, timing: ClientFleet, draining: [ClientFleet] = [], count: Int) throws
        -> (Samples, ChangeCost)
    {
        _ = try timing.discardAll()
        for fleet in draining { _ = try fleet.discardAll() }
        let before = daemon.probe.counters()
        let (userBefore, systemBefore) = daemon.probe.cpuTimes()
        var samples = Samples()
        for _ in 0..<count {
            let started = pressHotkey(on: keyboard)
            samples.append(try timing.waitUntilEveryClientReads(#""type":"adjustment""#) - started)
            releaseHotkey(on: keyboard)
            pause(nanoseconds: 5_000_000)
            for fleet in draining { _ = try fleet.discardAll() }
        }
        let (user, system) = daemon.probe.cpuTimes()
        let changes = UInt64(count)
        return (
            samples,
            ChangeCost(
                cpu: daemon.probe.counters().since(before).cpuNanoseconds / changes,
                user: (user - userBefore) / changes, system: (system - systemBefore) / changes,
                ticks: (user + system - userBefore - systemBefore) / ProcessProbe.tickNanoseconds)
        )
    }
}
