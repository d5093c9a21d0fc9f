import Foundation
import InputTestbed
import Testing

/// insetd's trace files on the real system: size limits, rotation, a kill
/// mid-run, and `insetctl replay` (the binary) on what it wrote.
@Suite struct TraceFileTests {
    final class TracedDaemon {
        let directory: String
        let socket: String
        let process: SpawnedProcess
        var trace: String { "\(directory)/trace.jsonl" }
        var output: String { "\(directory)/output.jsonl" }
        var log: String { "\(directory)/insetd.log" }

        init(_ trace: String) throws {
            directory = FileManager.default.temporaryDirectory.appendingPathComponent("trace-\(UUID().uuidString.prefix(8))").path
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            socket = "\(directory)/insetd.sock"
            let config = "\(directory)/insetd.yaml"
            try "screen: {width: 390, height: 844}\ntrace: \(trace)\n".write(toFile: config, atomically: true, encoding: .utf8)
            process = try InsetdLauncher.start(
                socket: socket,
                arguments: ["--config", config, "--trace", "\(directory)/trace.jsonl", "--trace-output", "\(directory)/output.jsonl"],
                log: "\(directory)/insetd.log")
        }

        /// Registers a view, then sends `updates` updates that each move it, waiting for each answer.
        func drive(updates: Int) async throws -> LineClient {
            let client = try #require(await InsetdLauncher.connect(socket))
            for index in 0...updates {
                let type = index == 0 ? "register" : "update"
                client.sendLine(
                    #"{"type":"\#(type)","id":\#(index),"view":"list","frame":{"x":0,"y":0,"width":390,"height":844},"contentSize":{"width":390,"height":3000},"contentOffset":{"x":0,"y":\#(index)}}"#)
                _ = await client.next("ok")
            }
            return client
        }

        func text(_ path: String) -> String { (try? String(contentsOfFile: path, encoding: .utf8)) ?? "" }
        func files() -> [String] { ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).sorted() }

        func replay(_ arguments: String...) async throws -> (status: Int32, output: String) {
            try await run([InsetctlTests.insetctl, "replay"] + arguments)
        }

        deinit {
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            try? FileManager.default.removeItem(atPath: directory)
        }
    }

    @Test func atTheSizeLimitTracingStopsWithAnEndRecordAndTheDaemonServesOn() async throws {
        let daemon = try TracedDaemon("{max-bytes: 4096, when-full: stop}")
        let client = try await daemon.drive(updates: 12)
        client.sendLine(#"{"type":"status","id":99}"#)
        #expect(await client.next("status") != nil, "the daemon keeps serving after its trace is full")
        await daemon.process.terminate()

        let lines = daemon.text(daemon.trace).split(separator: "\n")
        #expect(lines.last == #"{"kind":"end","reason":"size limit of 4096 bytes reached"}"#)
        #expect(lines.dropLast().map(\.utf8.count).reduce(0) { $0 + $1 + 1 } <= 4096)
        #expect(daemon.text(daemon.log).contains("trace stopped"))

        let replay = try await daemon.replay(daemon.trace, "--expect", daemon.output)
        #expect(replay.status == 0, "\(replay.output)")
        #expect(replay.output.contains("the recording stopped here (size limit of 4096 bytes reached)"))
        #expect(replay.output.contains("identical:"))
    }

    @Test func rotationKeepsNumberedFilesThatReplayOldestFirst() async throws {
        let daemon = try TracedDaemon("{max-bytes: 4096, when-full: rotate, keep: 5}")
        _ = try await daemon.drive(updates: 14)
        await daemon.process.terminate()
        // 15 records of about 600 bytes: three files, rotated twice.
        #expect(daemon.files().filter { $0.hasPrefix("trace.jsonl") } == ["trace.jsonl", "trace.jsonl.1", "trace.jsonl.2"])
        #expect(daemon.text(daemon.trace).hasPrefix("{") && daemon.text(daemon.trace).contains(#""segment":2"#))

        // The outputs rotate with the trace; all of them, in order, are what a replay of all segments prints.
        let outputs = [".2", ".1", ""].map { daemon.text(daemon.output + $0) }.joined()
        try outputs.write(toFile: "\(daemon.directory)/all-outputs", atomically: true, encoding: .utf8)
        let replay = try await daemon.replay(
            daemon.trace + ".2", daemon.trace + ".1", daemon.trace, "--expect", "\(daemon.directory)/all-outputs")
        #expect(replay.status == 0, "\(replay.output)")
        #expect(replay.output.contains("records replayed, 15 outputs as in"))

        let partial = try await daemon.replay(daemon.trace)
        #expect(partial.status != 0)
        #expect(partial.output.contains("starts at segment 2: the earlier segments of this run are missing"))
    }

    @Test func aKilledDaemonLeavesATraceThatReplaysUpToTheKill() async throws {
        let daemon = try TracedDaemon("{}")
        // The client stays connected until the kill, so the run ends with exactly its 4 requests.
        let client = try await daemon.drive(updates: 3)
        kill(daemon.process.processIdentifier, SIGKILL)
        withExtendedLifetime(client) {}
        // Simulate the kill landing mid-write: a cut-short last line.
        let handle = try #require(FileHandle(forWritingAtPath: daemon.trace))
        handle.seekToEndOfFile()
        handle.write(Data(#"{"client":"c1","kind":"upd"#.utf8))
        try handle.close()

        let replay = try await daemon.replay(daemon.trace, "--expect", daemon.output)
        #expect(replay.status == 0, "\(replay.output)")
        #expect(replay.output.contains("the last line is cut short (insetd stopped mid-write); skipped"))
        #expect(replay.output.contains("identical: 4 records replayed, 4 outputs"))
    }

    @Test func aDifferentRecordingIsReportedAtItsFirstDifference() async throws {
        let daemon = try TracedDaemon("{}")
        _ = try await daemon.drive(updates: 2)
        await daemon.process.terminate()
        var lines = daemon.text(daemon.output).split(separator: "\n").map(String.init)
        lines[1] = lines[1].replacingOccurrences(of: #""y":1"#, with: #""y":7"#)
        try (lines.joined(separator: "\n") + "\n").write(toFile: daemon.output, atomically: true, encoding: .utf8)

        let replay = try await daemon.replay(daemon.trace, "--expect", daemon.output)
        #expect(replay.status == 1)
        #expect(replay.output.contains("first difference at output line 2 (1 lines before it are identical)"))

        let printed = try await daemon.replay(daemon.trace)
        #expect(printed.status == 0)
        #expect(printed.output.split(separator: "\n").count == 3)
        #expect(printed.output.contains(#""contentOffset":{"x":0,"y":2}"#))
    }

    @Test func anUnwritableTracePathStopsStartUpWithAClearError() async throws {
        let result = try await run([
            insetdBinary.path, "--socket", "/tmp/never-\(UUID().uuidString.prefix(6)).sock", "--uevent-source", "udev",
            "--trace", "/nonexistent/dir/trace.jsonl",
        ])
        #expect(result.status == 1)
        #expect(result.output.contains("cannot write the trace file /nonexistent/dir/trace.jsonl: No such file or directory"))
        let lonely = try await run([insetdBinary.path, "--trace-output", "/tmp/o.jsonl"])
        #expect(lonely.status == 1)
        #expect(lonely.output.contains("--trace-output: '/tmp/o.jsonl' needs --trace as well"))
    }
}
