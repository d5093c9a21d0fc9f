import Foundation
import Glibc
import InputTestbed

/// The real `insetd` binary, started as a child process. It inherits this
/// process's environment, so under umockdev-wrapper it sees the testbed.
final class DaemonProcess {
    let socket: String
    let config: String
    let process = Process()
    let log: URL

    init(config yaml: String) throws {
        let directory = FileManager.default.temporaryDirectory
        let name = "insetd-e2e-\(UUID().uuidString.prefix(8))"
        socket = directory.appendingPathComponent("\(name).sock").path
        config = directory.appendingPathComponent("\(name).yaml").path
        log = directory.appendingPathComponent("\(name).log")
        try yaml.write(toFile: config, atomically: true, encoding: .utf8)
        guard FileManager.default.createFile(atPath: log.path, contents: nil) else {
            throw DaemonProcessError(message: "cannot create \(log.path)")
        }
        let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("insetd")
        process.executableURL = binary
        process.arguments = ["--socket", socket, "--config", config, "--uevent-source", "udev"]
        process.standardError = try FileHandle(forWritingTo: log)
        process.standardOutput = FileHandle.nullDevice
        try process.run()
    }

    /// Waits for the socket to accept a connection, then says hello.
    func connect() async throws -> LineClient {
        for _ in 0..<500 {
            if let client = try? LineClient(path: socket) {
                client.sendLine(#"{"type":"hello","version":1,"client":"e2e"}"#)
                guard await client.readObject()?["type"] as? String == "welcome" else { break }
                return client
            }
            try await Task.sleep(for: .milliseconds(10))
        }
        throw DaemonProcessError(message: "insetd did not accept connections; log:\n\(logText)")
    }

    var logText: String { (try? String(contentsOf: log, encoding: .utf8)) ?? "" }

    /// SIGTERM, then the exit status (or nil if it had to be killed).
    @discardableResult
    func terminate() async -> Int32? {
        await ChildProcess.terminate(process, within: .seconds(3))
        return process.isRunning ? nil : process.terminationStatus
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        try? FileManager.default.removeItem(atPath: config)
        try? FileManager.default.removeItem(atPath: socket)
        try? FileManager.default.removeItem(at: log)
    }
}

struct DaemonProcessError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}

extension LineClient {
    /// Reads messages until one of `type` arrives (others are skipped); nil on timeout.
    func next(_ type: String, where predicate: ([String: Any]) -> Bool = { _ in true }) async -> [String: Any]? {
        for _ in 0..<50 {
            guard let object = await readObject() else { return nil }
            if object["type"] as? String == type, predicate(object) { return object }
        }
        return nil
    }
}

func number(_ object: [String: Any]?, _ path: String...) -> Double? {
    var current: Any? = object
    for key in path { current = (current as? [String: Any])?[key] }
    return (current as? NSNumber)?.doubleValue
}
