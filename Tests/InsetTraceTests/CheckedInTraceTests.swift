import Foundation
import InsetTrace
import Testing

/// Every trace + output pair in `Traces/` replays to its recorded outputs, byte
/// for byte. The pairs were recorded by the real daemon against emulated
/// hardware; a bug report becomes a regression test by adding its pair here.
@Suite struct CheckedInTraceTests {
    static let directory = Bundle.module.resourceURL!.appendingPathComponent("Traces")

    static var names: [String] {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return files.filter { $0.hasSuffix(".trace.jsonl") }.map { String($0.dropLast(".trace.jsonl".count)) }.sorted()
    }

    @Test func thereArePairsToReplay() {
        #expect(Self.names.count >= 4, "\(Self.names)")
    }

    @Test(arguments: names)
    func replaysToItsRecordedOutputs(_ name: String) throws {
        let trace = try Data(contentsOf: Self.directory.appendingPathComponent("\(name).trace.jsonl"))
        let recorded = try Data(contentsOf: Self.directory.appendingPathComponent("\(name).output.jsonl"))
        var replayer = TraceReplayer()
        let lines = try replayer.replay(try TraceReader.read(trace, name: name)).map(TraceOutput.line)
        let comparison = OutputComparison.compare(replayed: lines, recorded: recorded)
        #expect(comparison.isIdentical, "\(comparison.report(recordedName: name) ?? "")")
        #expect(!lines.isEmpty, "a pair with no outputs proves nothing")
        #expect(replayer.notes.isEmpty, "\(replayer.notes)")
    }

    /// The daemon wrote these traces; writing their records again gives the
    /// same bytes, so reader and writer agree on every field.
    @Test(arguments: names)
    func rewritesToTheSameBytes(_ name: String) throws {
        let trace = try Data(contentsOf: Self.directory.appendingPathComponent("\(name).trace.jsonl"))
        let file = try TraceReader.read(trace, name: name)
        let rewritten = file.records.map { String(decoding: $0.line(), as: UTF8.self) }
        let original = String(decoding: trace, as: UTF8.self).split(separator: "\n").map { $0 + "\n" }
        #expect(rewritten.count == original.count)
        for (written, line) in zip(rewritten, original) { #expect(written == line) }
    }
}
