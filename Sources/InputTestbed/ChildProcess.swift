#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc

/// Runs helper programs from tests without blocking a thread of Swift's
/// cooperative pool (on a 2-core machine two tests blocked in a wait starve
/// every other test): children are `SpawnedProcess`es, polled until they end.
public enum ChildProcess {
    /// The environment of the real system: without umockdev's preload and the
    /// testbed root, which a concurrent hardware-in-the-loop test may have set.
    public static var realSystemEnvironment: [String: String] {
        ProcessInfo.processInfo.environment.filter { $0.key != "LD_PRELOAD" && $0.key != "UMOCKDEV_DIR" }
    }

    /// Runs `arguments` (the first is looked up in PATH) to completion; standard
    /// output and error are read together, from a file, once it has ended.
    public static func run(_ arguments: [String], in directory: URL? = nil) async throws -> (status: Int32, output: String) {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("child-\(UUID().uuidString).out").path
        defer { unlink(output) }
        var command = arguments
        if let directory { command = ["sh", "-c", #"cd "$0" && exec "$@""#, directory.path] + arguments }
        let process = try SpawnedProcess(
            "/usr/bin/env", command, environment: realSystemEnvironment, stdout: output, stderr: output)
        while process.isRunning { try? await Task.sleep(for: .milliseconds(5)) }
        let text = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
        return (process.terminationStatus, text)
    }
}
