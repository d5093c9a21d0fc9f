#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc
import InsetProtocol

/// Starts the `insetd` built next to the test binary, for tests that talk to
/// the real daemon.
public enum InsetdLauncher {
    /// `insetd` in the build directory of the running test bundle.
    public static var binary: URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("insetd")
    }

    /// Runs `insetd --socket SOCKET --uevent-source udev ARGUMENTS`; standard
    /// error goes to `log` when given. `environment` nil inherits this process's
    /// live environment, preload and testbed included (hardware-in-the-loop tests);
    /// the default is the real system's.
    public static func start(
        socket: String, arguments: [String] = [], environment: [String: String]? = ChildProcess.realSystemEnvironment,
        log: String? = nil
    ) throws -> SpawnedProcess {
        try SpawnedProcess(
            binary.path, ["--socket", socket, "--uevent-source", "udev"] + arguments, environment: environment, stderr: log)
    }

    /// Waits (up to 3 s) for the socket to accept a connection and completes the
    /// hello; nil if it never does.
    public static func connect(_ socket: String) async -> LineClient? {
        for _ in 0..<300 {
            if let client = try? LineClient(path: socket) {
                client.send(String(decoding: ClientMessage.hello(versions: [1], client: "test").line(), as: UTF8.self))
                guard await client.readMessage()?.type == "welcome" else { return nil }
                return client
            }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return nil
    }
}

extension LineClient {
    /// Reads messages until one of `type` (the wire's `type`) that satisfies
    /// `predicate` arrives (others are skipped); nil on timeout or after 100 messages.
    public func next(_ type: String, where predicate: (DaemonMessage) -> Bool = { _ in true }) async -> DaemonMessage? {
        for _ in 0..<100 {
            guard let message = await readMessage() else { return nil }
            if message.type == type, predicate(message) { return message }
        }
        return nil
    }
}
