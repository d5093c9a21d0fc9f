import Foundation
import Glibc
import InputTestbed

/// The C floor (`fanout-floor`): it writes the messages insetd sent for a
/// keyboard change to as many clients, one write per client for the messages
/// insetd had at the same moment, each time the harness writes a byte to its
/// descriptor 3. insetd's CPU per change
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
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { throw HarnessError("pipe: errno \(errno)") }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        process = try SpawnedProcess(
            binary, [transport == .socket ? "unix" : "tcp", address, file], stderr: directory + "/fanout-floor.log",
            passing: [ends[0]])
        close(ends[0])
        trigger = ends[1]
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
    /// hotkey toggles them), as the floor's writes: the messages that arrive
    /// within 50 ms of the key (insetd had them at the same moment) in one, the
    /// rest (the animation's end) in another; an empty line between the changes.
    func recordTwoChanges(on client: SocketClient) throws -> [[UInt8]] {
        _ = try client.discardAll()
        var writes: [[UInt8]] = []
        for index in 0..<2 {
            _ = pressHotkey(on: keyboard)
            releaseHotkey(on: keyboard)
            for wait: UInt64 in [50_000_000, 550_000_000] {
                pause(nanoseconds: wait)
                let messages = try client.takeAll()
                if !messages.isEmpty { writes.append(Array(messages.joined(separator: [UInt8(ascii: "\t")]))) }
            }
            guard writes.contains(where: { $0.contains(Array(#""type":"adjustment""#.utf8)) }) else {
                throw HarnessError("no adjustment within 600 ms of a hotkey, to record for the floor")
            }
            if index == 0 { writes.append([]) }
        }
        return writes
    }

    /// The floor's CPU per change with `total` clients, timed as `timeChanges` times insetd.
    func floorCost(binary: String, transport: FanOutFloor.Transport, writes: [[UInt8]], total: Int, changes: Int)
        throws -> UInt64
    {
        let floor = try FanOutFloor(binary: binary, transport: transport, directory: directory, writes: writes)
        let fleet = ClientFleet()
        while fleet.count < total { fleet.add(try floor.connect()) }
        pause(nanoseconds: 200_000_000)
        let before = floor.probe.counters()
        for _ in 0..<changes {
            try floor.change()
            _ = try fleet.waitUntilEveryClientReads(#""type":"adjustment""#)
            pause(nanoseconds: 5_000_000)
            _ = try fleet.discardAll()
        }
        let cost = floor.probe.counters().since(before).cpuNanoseconds / UInt64(changes)
        fleet.disconnectAll()
        return cost
    }
}
