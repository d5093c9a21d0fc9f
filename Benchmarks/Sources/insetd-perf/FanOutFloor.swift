import Foundation
import Glibc
import InputTestbed
import InsetSocket

/// The C floor (`fanout-floor`): it writes the messages insetd sent for a
/// keyboard change to as many clients, one write per client, each time the
/// harness writes a byte to its descriptor 3. insetd's CPU per change
/// is reported as a ratio to this program's, measured the same way in the same
/// run, so the ratio holds on a slower or busier machine.
final class FanOutFloor {
    enum Transport { case socket, webSocket }

    let process: SpawnedProcess
    let probe: ProcessProbe
    private let trigger: Int32
    private let transport: Transport
    private let address: String

    /// `writes`: as `recordTwoChanges` gives them.
    init(binary: String, transport: Transport, directory: String, writes: [[UInt8]]) throws {
        self.transport = transport
        let file = directory + "/floor-messages.txt"
        try Data(writes.map { $0 + [UInt8(ascii: "\n")] }.joined()).write(to: URL(fileURLWithPath: file))
        address = transport == .socket ? directory + "/fanout-floor.sock" : String(freeLoopbackPort())
        guard let pipe = CloseOnExecPipe.make() else { throw HarnessError("pipe: errno \(errno)") }
        process = try SpawnedProcess(
            binary, [transport == .socket ? "unix" : "tcp", address, file], stderr: directory + "/fanout-floor.log",
            passing: [pipe.read])
        close(pipe.read)
        trigger = pipe.write
        probe = ProcessProbe(pid: process.pid)
    }

    deinit {
        close(trigger)
        _ = process.wait()
    }

    /// A client of the floor (retrying while it starts to listen).
    func connect() throws -> SocketClient {
        for _ in 0..<500 {
            if let client = try? (transport == .socket
                ? SocketClient(path: address) : SocketClient(webSocketPort: Int(address)!))
            {
                return client
            }
            pause(nanoseconds: 2_000_000)
        }
        throw HarnessError("fanout-floor did not listen on \(address); see its log")
    }

    /// One keyboard change: the next change's messages to every client.
    func change() throws {
        var byte: UInt8 = 1
        guard write(trigger, &byte, 1) == 1 else { throw HarnessError("fanout-floor's trigger: errno \(errno)") }
    }
}

extension PerfRun {
    /// What one client receives for a show and then a hide (as the harness's
    /// hotkey toggles them), as the floor's writes, one per change: in the timed
    /// loop changes come faster than the animation, so insetd sends the previous
    /// change's did-notification in the same loop task as the next change's
    /// will-notification and adjustment, one `writev` per client. The messages
    /// up to the adjustment are the change's own; what arrives after it, the
    /// did-notification, goes before the other change's.
    /// The two writes have an empty line between them.
    func recordTwoChanges(on client: SocketClient) throws -> [[UInt8]] {
        pause(nanoseconds: 600_000_000)  // the last timed change's animation ends first
        _ = try client.discardAll()
        let adjustment = Array(#""type":"adjustment""#.utf8)
        var own: [[[UInt8]]] = []
        var later: [[[UInt8]]] = []
        for _ in 0..<2 {
            _ = pressHotkey(on: keyboard)
            releaseHotkey(on: keyboard)
            var lines: [[UInt8]] = []
            let deadline = monotonicNanoseconds() + 5_000_000_000
            while !lines.contains(where: { $0.contains(adjustment) }) {
                guard monotonicNanoseconds() < deadline else {
                    throw HarnessError("no adjustment within 5 s of a hotkey, to record for the floor")
                }
                pause(nanoseconds: 2_000_000)
                lines += try client.takeAll()
            }
            pause(nanoseconds: 600_000_000)  // the animation has ended: its did-notification is in
            lines += try client.takeAll()
            let cut = lines.firstIndex { $0.contains(adjustment) }! + 1
            own.append(Array(lines[..<cut]))
            later.append(Array(lines[cut...]))
        }
        let tab = [UInt8(ascii: "\t")]
        return [Array((later[1] + own[0]).joined(separator: tab)), [], Array((later[0] + own[1]).joined(separator: tab))]
    }

    /// The floor's CPU per change with `total` clients, timed as `timeChanges` times insetd.
    /// `profiled`: the timed changes are recorded by a profiler (`ProfilerControl`).
    func floorCost(
        binary: String, transport: FanOutFloor.Transport, writes: [[UInt8]], total: Int, changes: Int,
        profiled: Bool = false
    ) throws -> UInt64 {
        let floor = try FanOutFloor(binary: binary, transport: transport, directory: directory, writes: writes)
        let fleet = ClientFleet()
        while fleet.count < total { fleet.add(try floor.connect()) }
        pause(nanoseconds: 200_000_000)
        let before = floor.probe.counters()
        if profiled { ProfilerControl.enable() }
        for _ in 0..<changes {
            try floor.change()
            _ = try fleet.waitUntilEveryClientReads(#""type":"adjustment""#)
            pause(nanoseconds: 5_000_000)
            _ = try fleet.discardAll()
        }
        let cost = floor.probe.counters().since(before).cpuNanoseconds / UInt64(changes)
        if profiled { ProfilerControl.disable() }
        fleet.disconnectAll()
        return cost
    }
}
