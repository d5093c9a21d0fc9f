import Foundation
import Glibc
import InputTestbed
import InsetSocket

/// The `sd_notify` socket the harness gives every daemon it starts (through
/// `NOTIFY_SOCKET`), to time exec → `READY=1` as systemd would see it.
final class NotifyListener {
    let path: String
    private let fd: Int32

    init(directory: String) throws {
        path = directory + "/notify.sock"
        fd = try UnixSocket.bind(path, type: SOCK_DGRAM)
    }

    deinit {
        close(fd)
        unlink(path)
    }

    /// Waits for a datagram holding the line `READY=1`; returns when it arrived.
    func waitForReady(timeout: Int32 = 10_000) throws -> UInt64 {
        let deadline = monotonicNanoseconds() + UInt64(timeout) * 1_000_000
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let left = Int64(deadline) - Int64(monotonicNanoseconds())
            guard left > 0 else { throw HarnessError("no READY=1 within \(timeout) ms") }
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, Int32(left / 1_000_000) + 1) > 0 else { continue }
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { continue }
            let lines = String(decoding: buffer[..<count], as: UTF8.self).split(separator: "\n")
            if lines.contains("READY=1") { return monotonicNanoseconds() }
        }
    }
}

/// One `insetd` started by the harness from its binary, as systemd would start
/// it (`NOTIFY_SOCKET` set), on a socket and configuration of the run's own.
final class DaemonUnderTest {
    let process: SpawnedProcess
    let socket: String
    let probe: ProcessProbe
    /// From just before `posix_spawn` to the arrival of `READY=1`.
    let startup: UInt64
    private var clientCount = 0

    /// `environment` nil: this process's own, which names `notify` in `NOTIFY_SOCKET`.
    init(binary: String, config: String, socket: String, log: String, notify: NotifyListener, environment: [String: String]? = nil)
        throws
    {
        self.socket = socket
        unlink(socket)
        let started = monotonicNanoseconds()
        process = try SpawnedProcess(
            binary, ["--config", config, "--socket", socket, "--uevent-source", "udev"], environment: environment, stderr: log)
        startup = try notify.waitForReady() - started
        probe = ProcessProbe(pid: process.pid)
    }

    /// A client that has said hello and, when `view` is set, registered a
    /// full-screen phone view and received its first adjustment.
    func connect(view: Bool) throws -> SocketClient {
        clientCount += 1
        return try join(SocketClient(path: socket), name: "perf-\(clientCount)", view: view)
    }

    /// Says hello on `client`'s transport and, when `view` is set, registers the
    /// phone view and waits for its first adjustment.
    func join(_ client: SocketClient, name: String, view: Bool) throws -> SocketClient {
        try client.send(#"{"type":"hello","version":1,"client":"\#(name)"}"#)
        _ = try client.waitForLine(containing: #""type":"welcome""#)
        if view {
            try client.send(
                #"{"type":"register","view":"form","frame":{"x":0,"y":0,"width":390,"height":844},"safeArea":{"top":47,"left":0,"bottom":34,"right":0},"contentSize":{"width":390,"height":2000}}"#
            )
            _ = try client.waitForLine(containing: #""type":"adjustment""#)
        }
        return client
    }

    /// SIGTERM and the exit status (a graceful stop is part of what is measured).
    func stop() -> SpawnedProcess.Termination {
        process.signal(SIGTERM)
        return process.wait()
    }
}

/// The C baseline (`evdev-baseline`) reading its own emulated keyboard and
/// writing one line per key event to one client.
final class BaselineUnderTest {
    let process: SpawnedProcess
    let client: SocketClient
    let probe: ProcessProbe

    init(binary: String, socket: String, devnode: String) throws {
        unlink(socket)
        process = try SpawnedProcess(binary, [socket, devnode])
        client = try SocketClient.connectOnceListening(socket, server: "evdev-baseline", greeting: "ready")
        probe = ProcessProbe(pid: process.pid)
    }
}
