import Foundation
import Glibc
import InputTestbed
import InsetProtocol
import Testing
import InsetSocket

/// The real insetd binary on the real system (no input devices here).
@Suite struct DaemonBehaviourTests {
    static func temporary(_ suffix: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("beh-\(UUID().uuidString.prefix(8)).\(suffix)").path
    }

    static func start(socket: String, environment extra: [String: String] = [:], log: String? = nil) throws -> SpawnedProcess {
        try InsetdLauncher.start(
            socket: socket, environment: ChildProcess.realSystemEnvironment.merging(extra) { $1 }, log: log)
    }

    static func connect(_ socket: String) async throws -> LineClient {
        try #require(await InsetdLauncher.connect(socket))
    }

    @Test func tellsSystemdWhenReadyAndStoppingAndLogsWithJournalPriorities() async throws {
        let notify = Self.temporary("notify")
        let fd = try UnixSocket.bind(notify, type: SOCK_DGRAM)
        defer { close(fd); unlink(notify) }
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        func datagram() async -> String? {
            await withCheckedContinuation { continuation in
                DispatchQueue.global().async {
                    var buffer = [UInt8](repeating: 0, count: 4096)
                    let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
                    continuation.resume(returning: count > 0 ? String(decoding: buffer[..<count], as: UTF8.self) : nil)
                }
            }
        }
        let socketPath = Self.temporary("sock")
        let log = Self.temporary("log")
        // JOURNAL_STREAM names stderr's device and inode, as systemd sets it: the
        // launcher reopens this file (same inode) as the daemon's stderr.
        _ = FileManager.default.createFile(atPath: log, contents: nil)
        var status = stat()
        stat(log, &status)
        let stream = "\(status.st_dev):\(status.st_ino)"
        let daemon = try Self.start(socket: socketPath, environment: ["NOTIFY_SOCKET": notify, "JOURNAL_STREAM": stream], log: log)
        let ready = await datagram()
        #expect(ready == "READY=1\nSTATUS=serving; 0 input devices, 0 keyboards (udev events)")
        // The socket is up when READY=1 is sent.
        #expect(FileManager.default.fileExists(atPath: socketPath))
        kill(daemon.processIdentifier, SIGTERM)
        #expect(await datagram() == "STOPPING=1\nSTATUS=stopping")
        await daemon.terminate()
        let lines = ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").split(separator: "\n")
        #expect(lines.contains("<6>insetd: starting config=built-in defaults"), "the subsystem stays: \(lines)")
        #expect(lines.contains { $0.hasPrefix("<6>insetd.server: listening") })
        #expect(lines.allSatisfy { $0.hasPrefix("<") }, "every line carries a priority: \(lines)")
        for path in [socketPath, log] { unlink(path) }
    }

    @Test func clientDrivenRotationPinsTheOffsetAgainstTheNewKeyboardAtOnce() async throws {
        let socket = Self.temporary("sock")
        let daemon = try Self.start(socket: socket)
        let client = try await Self.connect(socket)
        client.sendLine(#"{"type":"register","view":"v","frame":{"x":0,"y":0,"width":1280,"height":800},"contentSize":{"width":1280,"height":2000}}"#)
        client.sendLine(#"{"type":"focus","view":"v","field":{"x":0,"y":600,"width":300,"height":44}}"#)
        // Landscape: 209 pt keyboard; 644 - 800 + 209 = 53.
        let landscape = await client.next("adjustment") { $0.adjustment?.additionalBottomInset == 209 }
        #expect(landscape?.adjustment?.contentOffset.y == 53)

        client.sendLine(#"{"type":"transition","duration":0.3,"screen":{"width":800,"height":1280}}"#)
        client.sendLine(#"{"type":"update","view":"v","frame":{"x":0,"y":0,"width":800,"height":1280},"contentSize":{"width":800,"height":2000}}"#)
        // The keyboard announces its portrait frame (336 pt at y = 1280 - 336) at once ...
        let frame = await client.next("keyboard") { $0.phase == .willChangeFrame }
        #expect(frame?.keyboard?.note.endFrame.minY == 944)
        // ... and the view follows its new frame at once, in one adjustment against
        // the new screen and that new keyboard, with the transition's animation:
        // upper-left pinned (53 + 0 - 0), the field 600..644 inside 53..53+1280-336.
        let rotating = await client.next("adjustment")
        #expect(rotating?.adjustment?.animation.duration == .milliseconds(300))
        #expect(rotating?.adjustment?.contentOffset.y == 53)
        #expect(rotating?.adjustment?.additionalBottomInset == 336)
        // When the filter delivers the frame after the transition, nothing is left to change.
        try await Task.sleep(for: .milliseconds(600))
        client.sendLine(#"{"type":"status","id":9}"#)
        var later: [String] = []
        while let message = await client.readMessage(), message.type != "status" {
            later.append(message.type)
        }
        #expect(!later.contains("adjustment"), "\(later)")
        await daemon.terminate()
        unlink(socket)
    }

    @Test func anUnknownViewGetsAnErrorWithItsIdAndTheConnectionStays() async throws {
        let socket = Self.temporary("sock")
        let daemon = try Self.start(socket: socket)
        let client = try await Self.connect(socket)
        client.sendLine(#"{"type":"focus","id":41,"view":"ghost","field":{"x":0,"y":0,"width":10,"height":10}}"#)
        let error = await client.next("error")
        #expect(error?.protocolError?.code == .unknownView)
        #expect(error?.protocolError?.id == .number(41))
        #expect(error?.protocolError?.message.hasSuffix("/ghost is registered") == true)
        client.sendLine(#"{"type":"unregister","id":42,"view":"ghost"}"#)
        #expect(await client.next("error")?.protocolError?.id == .number(42))
        client.sendLine(#"{"type":"status","id":43}"#)
        #expect(await client.next("status")?.counts?.views == 0)
        await daemon.terminate()
        unlink(socket)
    }

    /// The slow client's adjustments replace each other while unsent, so 100 views
    /// and 30 keyboard changes stay within its bound; the other client is served on
    /// time throughout. (Overflowing the bound, and the drop, is `InsetServerTests`.)
    @Test func aClientThatNeverReadsDoesNotDelayAnother() async throws {
        let socket = Self.temporary("sock")
        let daemon = try Self.start(socket: socket)
        let silent = try await Self.connect(socket)
        let healthy = try await Self.connect(socket)
        var batch = ""
        for index in 0..<100 {
            batch += #"{"type":"register","view":"v\#(index)","frame":{"x":0,"y":0,"width":1280,"height":800},"contentSize":{"width":1280,"height":2000}}"# + "\n"
        }
        silent.send(batch)
        // Every answer must arrive: had the daemon waited on the silent client, the
        // reads would time out. (How fast is measured, not asserted: a shared
        // 2-core machine running the whole suite is no place for a latency bound.)
        var slowest: Duration = .zero
        var answered = 0
        for round in 0..<30 {
            let started = ContinuousClock.now
            healthy.sendLine(#"{"type":"command","command":"toggle","id":\#(round)}"#)
            if await healthy.next("ok") != nil { answered += 1 }
            slowest = max(slowest, ContinuousClock.now - started)
            try await Task.sleep(for: .milliseconds(120))
        }
        #expect(answered == 30)
        healthy.sendLine(#"{"type":"status","id":"s"}"#)
        let status = await healthy.next("status")
        #expect(status?.counts?.views == 100, "the silent client is still registered")
        print("daemon measurement: slowest command answer beside a non-reading client: \(slowest)")
        await daemon.terminate()
        unlink(socket)
        _ = silent
    }
}
