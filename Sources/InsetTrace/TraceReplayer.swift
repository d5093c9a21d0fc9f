import InsetCore

/// Feeds a trace through the same pure core the daemon runs, with no hardware,
/// no socket and no clock: each record's instant is the `now` the daemon used,
/// so the outputs are the daemon's, exactly.
///
/// A trace rotated into several files replays from all of them, oldest first;
/// each file must begin with its header, and the segments must follow each
/// other from 0 (a replay that starts mid-run cannot know the state before it).
public struct TraceReplayer: Sendable {
    public private(set) var pipeline: InsetPipeline?
    /// Things the person replaying should know that do not stop the replay.
    public private(set) var notes: [String] = []
    public private(set) var recordCount = 0
    private var segment = -1
    private var ended = false

    public init() {}

    /// Replays one file's records and returns their outputs in order.
    public mutating func replay(_ file: TraceReader.File) throws(TraceError) -> [TimedOutput] {
        notes += file.warnings
        guard case .header(let header)? = file.records.first else {
            throw TraceError(file: file.name, line: 1, "a trace file begins with its header; this one does not")
        }
        try begin(header, file: file.name)
        var outputs: [TimedOutput] = []
        for (index, record) in file.records.enumerated().dropFirst() {
            outputs += try replay(record, file: file.name, line: index + 1)
        }
        return outputs
    }

    private mutating func begin(_ header: TraceHeader, file: String) throws(TraceError) {
        guard header.version <= traceFormatVersion else {
            throw TraceError(
                file: file, line: 1,
                "trace format \(header.version) is newer than this replayer's (\(traceFormatVersion)); use a newer insetctl")
        }
        guard header.segment == segment + 1 else {
            if segment < 0 {
                throw TraceError(
                    file: file, line: 1,
                    "starts at segment \(header.segment): the earlier segments of this run are missing (rotated away?), and a replay needs every one, oldest first")
            }
            throw TraceError(file: file, line: 1, "is segment \(header.segment), but segment \(segment + 1) comes next")
        }
        segment = header.segment
        if header.segment == 0 {
            pipeline = InsetPipeline(
                configuration: header.configuration, screen: header.screen, keyboards: header.keyboards,
                tabletMode: header.tabletMode, rememberedFrames: header.rememberedFrames)
        }
    }

    private mutating func replay(_ record: TraceRecord, file: String, line: Int) throws(TraceError) -> [TimedOutput] {
        guard !ended else { return [] }
        recordCount += 1
        // Optional chaining mutates the pipeline in place (a local copy would
        // copy every view's state on each record).
        switch record {
        case .header:
            throw TraceError(file: file, line: line, "a header in the middle of a file")
        case .event(let at, let event, _):
            // The daemon rejected an event naming an unknown view without any
            // change; the replay rejects it the same way.
            return ((try? pipeline?.handle(event, now: at)) ?? nil)?.outputs ?? []
        case .tick(let at):
            return pipeline?.advance(to: at).outputs ?? []
        case .reconfigure(let at, let configuration):
            return pipeline?.reconfigure(configuration, now: at).outputs ?? []
        case .end(let reason):
            ended = true
            notes.append("\(file):\(line): the recording stopped here (\(reason)); nothing after it was recorded")
            return []
        }
    }
}
