import Foundation
import InsetCore
import InsetProtocol
import InsetTrace

/// One fuzz input is one client's byte stream: the first byte picks the chunk
/// size the bytes arrive in (as a socket splits them), the rest is framed into
/// lines, decoded, mapped to core events as the daemon does, and run through a
/// pipeline; every answer the daemon would send is encoded. The same bytes are
/// also read as a trace and as daemon messages (a client's decoder).
/// A crash, trap or sanitizer report anywhere is a finding.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    guard let start, count > 0 else { return 0 }
    let bytes = Array(UnsafeBufferPointer(start: start, count: count))
    let chunk = Int(bytes[0]) + 1
    let stream = bytes.dropFirst()

    var framer = LineFramer(limit: 4096)
    var pipeline = InsetPipeline(screen: Size(width: 390, height: 844))
    let client = ClientID("c1")
    var now = Instant.zero
    var index = stream.startIndex
    session: while index < stream.endIndex {
        let end = min(index + chunk, stream.endIndex)
        for output in framer.feed(stream[index..<end]) {
            guard case .line(let line) = output else {
                _ = DaemonMessage.error(ProtocolError(.lineTooLong, "too long")).line()
                break session
            }
            now = now + .milliseconds(Int64(line.count % 250))
            handle(line, client: client, pipeline: &pipeline, now: now)
            _ = try? DaemonMessageDecoder.decode(line, client: client)
        }
        index = end
    }
    _ = pipeline.advance(to: now + .seconds(5))

    if let file = try? TraceReader.read(Data(stream), name: "fuzz") {
        var replayer = TraceReplayer()
        _ = try? replayer.replay(file).map(TraceOutput.line)
    }
    return 0
}

private func handle(_ line: [UInt8], client: ClientID, pipeline: inout InsetPipeline, now: Instant) {
    let request: ClientRequest
    do {
        request = try ClientMessageDecoder.decode(line)
    } catch {
        _ = DaemonMessage.error(error).line()
        return
    }
    guard let event = request.message.pipelineEvent(for: client) else { return }
    do {
        for output in try pipeline.handle(event, now: now).outputs {
            switch output.output {
            case .keyboard(let note): _ = DaemonMessage.keyboard(note, isLocal: true).line()
            case .adjustment(let adjustment): _ = DaemonMessage.adjustment(view: adjustment.view.name, adjustment).line()
            }
            _ = TraceOutput.line(output)
        }
    } catch {
        _ = DaemonMessage.error(ProtocolError(.unknownView, error.description, id: request.id)).line()
    }
}
