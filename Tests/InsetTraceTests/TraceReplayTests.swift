import Foundation
import InsetCore
import InsetProtocol
import InsetTrace
import Testing

/// Drives the pipeline the way the daemon's core does (record, then handle;
/// a tick at every deadline) and keeps the trace and output bytes it would write.
struct Recording {
    var pipeline: InsetPipeline
    var trace = Data()
    var outputs = Data()

    init(header: TraceHeader) throws {
        pipeline = InsetPipeline(
            configuration: header.configuration, screen: header.screen, keyboards: header.keyboards,
            tabletMode: header.tabletMode)
        try write(.header(header))
    }

    mutating func write(_ record: TraceRecord) throws {
        trace.append(record.line())
    }

    /// Fires the deadlines due before `now` as the daemon's timer would, then handles `event`.
    mutating func handle(_ event: PipelineEvent, at now: Instant) throws {
        tick(until: now)
        try write(.event(at: now, event, source: nil))
        if let step = try? pipeline.handle(event, now: now) { emit(step) }
    }

    mutating func tick(until end: Instant) {
        while let due = pipeline.nextDeadline, due < end {
            try! write(.tick(at: due))
            emit(pipeline.advance(to: due))
        }
    }

    mutating func emit(_ step: PipelineStep) {
        for output in step.outputs { outputs.append(TraceOutput.line(output)) }
    }
}

func replay(_ files: [(String, Data)]) throws -> (lines: [Data], replayer: TraceReplayer) {
    var replayer = TraceReplayer()
    var lines: [Data] = []
    for (name, data) in files {
        lines += try replayer.replay(try TraceReader.read(data, name: name)).map(TraceOutput.line)
    }
    return (lines, replayer)
}

@Suite struct TraceReplayTests {
    static func focusedForm() throws -> Recording {
        var recording = try Recording(header: TraceHeader(screen: phone, configuration: PipelineConfiguration()))
        try recording.handle(.register(form, formDescription), at: .milliseconds(5))
        try recording.handle(.focus(form, field: Rect(x: 0, y: 1200, width: 390, height: 44)), at: .milliseconds(10))
        try recording.handle(.keyboardAttached(id: "usb", placement: .external), at: .milliseconds(400))
        try recording.handle(.blur(form), at: .milliseconds(900))
        recording.tick(until: .milliseconds(2000))
        return recording
    }

    @Test func aReplayPrintsExactlyWhatTheRecordingProduced() throws {
        let recording = try Self.focusedForm()
        let (lines, replayer) = try replay([("run.jsonl", recording.trace)])
        let comparison = OutputComparison.compare(replayed: lines, recorded: recording.outputs)
        #expect(comparison.isIdentical, "\(comparison.report(recordedName: "recorded") ?? "")")
        #expect(comparison.matching == lines.count)
        #expect(replayer.notes.isEmpty)

        // The numbers themselves: the full keyboard (302 = 336 - 34) one filter window after focus.
        let text = lines.map { String(decoding: $0, as: UTF8.self) }
        let full = try #require(text.first { $0.contains(#""type":"adjustment""#) && $0.contains(#""t":110000000"#) })
        #expect(full.contains(#""additionalBottomInset":302"#))
        #expect(full.contains(#""client":"1""#))
        let shown = try #require(text.first { $0.contains(#""type":"keyboard""#) })
        #expect(shown.contains(#""phase":"willShow""#))
        #expect(shown.contains(#""focusOwner":"1""#))
        #expect(shown.contains(#""t":10000000"#))
        // The hardware keyboard counts after its 200 ms hold-off, and the filter's 100 ms.
        #expect(text.contains { $0.contains(#""t":700000000"#) && $0.contains(#""additionalBottomInset":10"#) })
    }

    @Test func aChangedOutputIsReportedAtItsFirstDifferentLine() throws {
        let recording = try Self.focusedForm()
        let (lines, _) = try replay([("run.jsonl", recording.trace)])
        var recorded = String(decoding: recording.outputs, as: UTF8.self).split(separator: "\n").map(String.init)
        recorded[2] = recorded[2].replacingOccurrences(of: "\"t\":", with: "\"t\":1")
        let comparison = OutputComparison.compare(
            replayed: lines, recorded: Data((recorded.joined(separator: "\n") + "\n").utf8))
        #expect(comparison.line == 3)
        #expect(comparison.matching == 2)
        #expect(comparison.report(recordedName: "out.jsonl")?.hasPrefix("first difference at output line 3") == true)

        let shorter = OutputComparison.compare(replayed: lines, recorded: Data((recorded[0] + "\n").utf8))
        #expect(shorter.line == 2)
        #expect(shorter.expected == nil)
    }

    @Test func aLastLineCutShortIsSkippedWithAWarning() throws {
        let recording = try Self.focusedForm()
        var cut = recording.trace
        cut.append(Data(#"{"kind":"focus","t":99999,"cli"#.utf8))
        let (lines, replayer) = try replay([("killed.jsonl", cut)])
        #expect(OutputComparison.compare(replayed: lines, recorded: recording.outputs).isIdentical)
        let lineCount = recording.trace.filter { $0 == UInt8(ascii: "\n") }.count
        #expect(replayer.notes == ["killed.jsonl:\(lineCount + 1): the last line is cut short (insetd stopped mid-write); skipped"])
    }

    @Test func aCutLineInTheMiddleIsAnError() throws {
        var data = try Self.focusedForm().trace
        data.insert(contentsOf: Data(#"{"kind":"tick""#.utf8), at: data.firstIndex(of: UInt8(ascii: "\n"))! + 1)
        #expect(throws: TraceError.self) { try replay([("bad.jsonl", data)]) }
    }

    @Test func segmentsReplayInOrderFromTheFirst() throws {
        let whole = try Self.focusedForm()
        let lines = String(decoding: whole.trace, as: UTF8.self).split(separator: "\n").map(String.init)
        // Rotated after the fourth line: the second file starts with a segment-1 header.
        let second = TraceHeader(segment: 1, screen: phone, configuration: PipelineConfiguration())
        let first = Data((lines[..<4].joined(separator: "\n") + "\n").utf8)
        let rest = Data(([try encode(.header(second))] + lines[4...]).joined(separator: "\n").utf8 + [10])
        let (replayed, _) = try replay([("t.1", first), ("t", rest)])
        #expect(OutputComparison.compare(replayed: replayed, recorded: whole.outputs).isIdentical)

        let alone = #expect(throws: TraceError.self) { try replay([("t", rest)]) }
        #expect(alone?.description.contains("starts at segment 1: the earlier segments of this run are missing") == true)
        let twice = #expect(throws: TraceError.self) { try replay([("t.1", first), ("t.1", first)]) }
        #expect(twice?.description == "t.1:1: is segment 0, but segment 1 comes next")
    }

    @Test func anEndRecordStopsTheReplayWithANote() throws {
        var recording = try Recording(header: TraceHeader(screen: phone, configuration: PipelineConfiguration()))
        try recording.handle(.register(form, formDescription), at: .milliseconds(5))
        try recording.write(.end(reason: "size limit of 4096 bytes reached"))
        try recording.write(.event(at: .milliseconds(6), .command(.show), source: nil))
        let (lines, replayer) = try replay([("full.jsonl", recording.trace)])
        #expect(lines.count == 1, "the registration's adjustment only")
        #expect(replayer.notes == ["full.jsonl:3: the recording stopped here (size limit of 4096 bytes reached); nothing after it was recorded"])
    }

    @Test func aNewerFormatIsRefused() throws {
        let data = Data((try encode(.header(TraceHeader(version: 2, screen: phone, configuration: .init()))) + "\n").utf8)
        let error = #expect(throws: TraceError.self) { try replay([("new.jsonl", data)]) }
        #expect(error?.description.contains("trace format 2 is newer than this replayer's (1)") == true)
    }
}
