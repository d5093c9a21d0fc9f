import Foundation
import Glibc

/// Runs helper programs from tests without blocking a thread of Swift's
/// cooperative pool: on a 2-core machine two tests blocked in `waitUntilExit`
/// starve every other test. Output is read on a dispatch queue and exit is
/// awaited through the termination handler.
public enum ChildProcess {
    /// The environment of the real system: without umockdev's preload and the
    /// testbed root, which a concurrent hardware-in-the-loop test may have set.
    public static var realSystemEnvironment: [String: String] {
        ProcessInfo.processInfo.environment.filter { $0.key != "LD_PRELOAD" && $0.key != "UMOCKDEV_DIR" }
    }

    /// Runs `arguments` (the first is looked up in PATH) to completion.
    public static func run(_ arguments: [String], in directory: URL? = nil) async throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        process.environment = realSystemEnvironment
        if let directory { process.currentDirectoryURL = directory }
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        let exited = AsyncStream<Int32>.makeStream()
        process.terminationHandler = { exited.continuation.yield($0.terminationStatus) }
        try process.run()
        let reader = pipe.fileHandleForReading.fileDescriptor
        let output = await withCheckedContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(returning: readToEnd(reader)) }
        }
        var status: Int32 = -1
        for await code in exited.stream {
            status = code
            break
        }
        return (status, output)
    }

    /// Reads a descriptor to end of file. Foundation's `readDataToEndOfFile`
    /// traps when a signal (a child's SIGCHLD) interrupts the read; this retries.
    private static func readToEnd(_ fd: Int32) -> String {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count > 0 {
                bytes += chunk[..<count]
            } else if count < 0 && errno == EINTR {
                continue
            } else {
                break
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Sends SIGTERM and waits (without blocking a thread) for the process to end.
    public static func terminate(_ process: Process, within timeout: Duration = .seconds(5)) async {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGTERM)
        let deadline = ContinuousClock.now + timeout
        while process.isRunning, ContinuousClock.now < deadline { try? await Task.sleep(for: .milliseconds(10)) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }
}
