#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc
import InsetProtocol
import InsetSocket

/// What a process inside `insetd-testbed run` asks of the process that owns the
/// testbed. umockdev only lets a process under its preload that holds the
/// testbed announce devices (its uevents are resolved through that process's
/// fake `/sys`), so `plug`, `unplug`, `press` and `tablet` travel as one JSON line
/// over the control socket named by `INSETD_TESTBED`, and one line answers.
public struct TestbedRequest: Codable, Hashable, Sendable {
    public enum Command: String, Codable, Sendable { case plug, unplug, press, tablet, list }

    public var command: Command
    /// `plug`: the kind; for a recording, the label it is listed under.
    public var kind: String?
    /// `plug`: the name to give; `unplug`: the device; `press`/`tablet`: which device (optional).
    public var name: String?
    /// `plug`: the text of a `umockdev-record` recording (read by the asking process).
    public var recording: String?
    /// `press`: the chord, as typed (`LEFTMETA+K`).
    public var keys: String?
    /// `tablet`: folded (on) or not.
    public var on: Bool?

    public init(
        _ command: Command, kind: String? = nil, name: String? = nil, recording: String? = nil, keys: String? = nil,
        on: Bool? = nil
    ) {
        self.command = command
        self.kind = kind
        self.name = name
        self.recording = recording
        self.keys = keys
        self.on = on
    }
}

/// The answer to a `TestbedRequest`: what to print, or one line saying what was wrong.
public struct TestbedReply: Codable, Hashable, Sendable {
    public var output: String?
    public var error: String?

    public static func ok(_ output: String) -> TestbedReply { TestbedReply(output: output, error: nil) }
    public static func failed(_ error: String) -> TestbedReply { TestbedReply(output: nil, error: error) }
}

/// The environment variable that names the control socket for nested processes.
public let testbedControlVariable = "INSETD_TESTBED"

extension EmulatedHardware {
    /// Carries out a request and says what happened, as `insetd-testbed` prints it.
    public func perform(_ request: TestbedRequest) -> TestbedReply {
        do throws(TestbedError) {
            switch request.command {
            case .plug:
                let kind = request.kind ?? ""
                let entry =
                    if let recording = request.recording {
                        try plug(recording: recording, kind: kind, name: request.name)
                    } else {
                        try plug(kind: kind, name: request.name)
                    }
                return .ok("plugged \(entry.name) (\(entry.device.kind), \(entry.device.devnode))")
            case .unplug:
                let entry = try unplug(request.name ?? "")
                return .ok("unplugged \(entry.name) (\(entry.device.devnode))")
            case .press:
                let chord: KeyChord
                do { chord = try KeyChord(request.keys ?? "") } catch { throw TestbedError(message: error.message) }
                let entry = try press(chord, on: request.name)
                return .ok("pressed \(chord) on \(entry.name)")
            case .tablet:
                let on = request.on ?? true
                let entry = try tablet(on: on, switch: request.name)
                return .ok("tablet mode \(on ? "on" : "off") (\(entry.name))")
            case .list:
                return .ok(inventory.listing)
            }
        } catch {
            return .failed(error.message)
        }
    }
}

/// The client side: one request, one reply, over the socket in `INSETD_TESTBED`.
public enum TestbedControlClient {
    public static func send(_ request: TestbedRequest, to path: String) throws(TestbedError) -> TestbedReply {
        let connection: InsetdConnection
        do { connection = try InsetdConnection(path: path) } catch {
            throw TestbedError(message: "cannot reach the testbed at \(path): \(String(cString: strerror(error.errno))) (has 'insetd-testbed run' ended?)")
        }
        defer { connection.close() }
        guard let line = TestbedControlServer.line(request) else { throw TestbedError(message: "cannot encode the request") }
        connection.send(bytes: line)
        // A press waits for its reader (up to 2 s a frame): be generous.
        guard let reply = try? connection.line(timeout: 30),
            let decoded = try? JSONDecoder().decode(TestbedReply.self, from: Data(reply))
        else {
            throw TestbedError(message: "the testbed at \(path) did not answer")
        }
        return decoded
    }
}

/// The owning side: a listening socket whose requests `EmulatedHardware` carries
/// out, one connection at a time, from the owner's own loop.
public final class TestbedControlServer {
    public let path: String
    public let fd: Int32

    public init(path: String) throws(TestbedError) {
        self.path = path
        unlink(path)
        do { fd = try UnixSocket.bind(path) } catch { throw TestbedError(message: error.description) }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
    }

    deinit {
        close(fd)
        unlink(path)
    }

    /// Answers every connection waiting now (returns at once when none is).
    public func serve(_ hardware: EmulatedHardware) {
        while true {
            let client = accept(fd, nil, nil)
            guard client >= 0 else { return }
            _ = fcntl(client, F_SETFD, FD_CLOEXEC)
            // Lines read and written as every Swift client of insetd does.
            let connection = InsetdConnection(descriptor: client)
            defer { connection.close() }
            guard let line = try? connection.line(timeout: 5) else { continue }
            let reply =
                (try? JSONDecoder().decode(TestbedRequest.self, from: Data(line))).map(hardware.perform)
                ?? .failed("not a testbed request")
            if let bytes = Self.line(reply) { connection.send(bytes: bytes) }
        }
    }

    /// `value` as one line of JSON.
    static func line(_ value: some Encodable) -> [UInt8]? {
        guard let json = try? JSONEncoder().encode(value) else { return nil }
        return Array(json) + [UInt8(ascii: "\n")]
    }
}
