#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc
import ArgumentParser
import InsetTrace

extension Insetctl {
    struct Replay: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Replay a trace through insetd's core, with no hardware, socket or clock.",
            discussion: """
                Prints every output (keyboard notifications and per-view adjustments) as JSON lines, \
                exactly as insetd --trace-output wrote them. A rotated trace replays from all its \
                files, oldest first: insetctl replay trace.jsonl.2 trace.jsonl.1 trace.jsonl. \
                With --expect, prints nothing but the verdict and exits 1 at the first difference.
                """)

        @Argument(help: "Trace files (insetd --trace), oldest first.")
        var files: [String]

        @Option(help: "Recorded outputs (insetd --trace-output) to compare with.")
        var expect: String?

        func validate() throws {
            guard !files.isEmpty else { throw ValidationError("name the trace file to replay") }
        }

        func run() throws {
            var replayer = TraceReplayer()
            var lines: [Data] = []
            do {
                for name in files {
                    let file = try TraceReader.read(try read(name), name: name)
                    for output in try replayer.replay(file) {
                        let line = TraceOutput.line(output)
                        if expect == nil { StandardStreams.write(line, to: 1) } else { lines.append(line) }
                    }
                }
            } catch let error as TraceError {
                throw CtlError("\(error)")
            }
            for note in replayer.notes { StandardStreams.printError("insetctl: \(note)") }
            guard let expect else { return }
            let comparison = OutputComparison.compare(replayed: lines, recorded: try read(expect))
            if comparison.truncatedLastLine {
                StandardStreams.printError("insetctl: \(expect): the last line is cut short (insetd stopped mid-write); not compared")
            }
            if let report = comparison.report(recordedName: expect) {
                StandardStreams.printError(report)
                throw ExitCode(1)
            }
            print("identical: \(replayer.recordCount) records replayed, \(comparison.matching) outputs as in \(expect)")
        }

        private func read(_ path: String) throws -> Data {
            guard let data = FileManager.default.contents(atPath: path) else {
                throw CtlError("cannot read \(path)")
            }
            return data
        }
    }
}
