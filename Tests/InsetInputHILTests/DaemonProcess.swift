import Foundation
import Glibc
import InputTestbed
import InsetTrace

/// The real `insetd` binary, started as a child process. It inherits this
/// process's environment, so under umockdev-wrapper it sees the testbed.
final class DaemonProcess {
    let socket: String
    let config: String
    let process: SpawnedProcess
    let log: URL
    /// Every run records a trace and its outputs, so every scenario is also a replay test.
    let trace: String
    let traceOutput: String

    init(config yaml: String) throws {
        let directory = FileManager.default.temporaryDirectory
        let name = "insetd-e2e-\(UUID().uuidString.prefix(8))"
        socket = directory.appendingPathComponent("\(name).sock").path
        config = directory.appendingPathComponent("\(name).yaml").path
        log = directory.appendingPathComponent("\(name).log")
        trace = directory.appendingPathComponent("\(name).trace.jsonl").path
        traceOutput = directory.appendingPathComponent("\(name).output.jsonl").path
        try yaml.write(toFile: config, atomically: true, encoding: .utf8)
        // The whole environment: the daemon must see umockdev's preload and testbed.
        process = try InsetdLauncher.start(
            socket: socket, arguments: ["--config", config, "--trace", trace, "--trace-output", traceOutput],
            environment: nil, log: log.path)
    }

    var traceText: String { (try? String(contentsOfFile: trace, encoding: .utf8)) ?? "" }
    var outputText: String { (try? String(contentsOfFile: traceOutput, encoding: .utf8)) ?? "" }

    /// Replays the recorded trace through the core (no hardware, socket or
    /// clock) and compares with what the daemon wrote beside it, byte for byte.
    func replayComparison() throws -> OutputComparison {
        var replayer = TraceReplayer()
        let file = try TraceReader.read(Data(traceText.utf8), name: trace)
        let lines = try replayer.replay(file).map(TraceOutput.line)
        return OutputComparison.compare(replayed: lines, recorded: Data(outputText.utf8))
    }

    /// Waits for the socket to accept a connection, then says hello.
    func connect() async throws -> LineClient {
        guard let client = await InsetdLauncher.connect(socket) else {
            throw DaemonProcessError(message: "insetd did not accept connections; log:\n\(logText)")
        }
        return client
    }

    var logText: String { (try? String(contentsOf: log, encoding: .utf8)) ?? "" }

    /// SIGTERM, then the exit status (or nil if it had to be killed).
    @discardableResult
    func terminate() async -> Int32? {
        if case .exited(let status) = await process.terminate(within: .seconds(3)) { return status }
        return nil
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        try? FileManager.default.removeItem(atPath: config)
        try? FileManager.default.removeItem(atPath: socket)
        try? FileManager.default.removeItem(at: log)
        try? FileManager.default.removeItem(atPath: trace)
        try? FileManager.default.removeItem(atPath: traceOutput)
    }
}

struct DaemonProcessError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}
