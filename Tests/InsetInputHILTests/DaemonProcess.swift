import Foundation
import Glibc
import InputTestbed

/// The real `insetd` binary, started as a child process. It inherits this
/// process's environment, so under umockdev-wrapper it sees the testbed.
final class DaemonProcess {
    let socket: String
    let config: String
    let process: Process
    let log: URL

    init(config yaml: String) throws {
        let directory = FileManager.default.temporaryDirectory
        let name = "insetd-e2e-\(UUID().uuidString.prefix(8))"
        socket = directory.appendingPathComponent("\(name).sock").path
        config = directory.appendingPathComponent("\(name).yaml").path
        log = directory.appendingPathComponent("\(name).log")
        try yaml.write(toFile: config, atomically: true, encoding: .utf8)
        // The whole environment: the daemon must see umockdev's preload and testbed.
        process = try InsetdLauncher.start(
            socket: socket, arguments: ["--config", config], environment: nil, log: log.path)
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
