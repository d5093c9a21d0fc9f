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

    encodeArbitraryNumbers(Array(stream))

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
            case .keyboard(let note), .bridgeKeyboard(let note), .appsKeyboard(let note):
                _ = DaemonMessage.keyboard(note, isLocal: true).line()
            case .adjustment(let adjustment): _ = DaemonMessage.adjustment(view: adjustment.view.name, adjustment).line()
            }
            _ = TraceOutput.line(output)
        }
    } catch {
        _ = DaemonMessage.error(ProtocolError(.unknownView, error.description, id: request.id)).line()
    }
}

/// The encoder on numbers no decoder would let through: the input's bytes read
/// as Doubles (infinities, NaNs, subnormals, the largest finite values) fill a
/// keyboard notification and an adjustment, which are written both ways (the
/// stream writer and the value tree). Neither may trap (see `EncodingFaults`).
private func encodeArbitraryNumbers(_ bytes: [UInt8]) {
    var numbers: [Double] = []
    var index = 0
    while index + 8 <= bytes.count, numbers.count < 24 {
        var bits: UInt64 = 0
        for offset in 0..<8 { bits |= UInt64(bytes[index + offset]) << (8 * offset) }
        numbers.append(Double(bitPattern: bits))
        index += 8
    }
    guard !numbers.isEmpty else { return }
    func n(_ i: Int) -> Double { numbers[i % numbers.count] }
    let rect = Rect(x: n(0), y: n(1), width: n(2), height: n(3))
    let insets = EdgeInsets(top: n(4), left: n(5), bottom: n(6), right: n(7))
    let adjustment = ViewAdjustment(
        view: ViewID(client: ClientID("c1"), name: "v"), additionalBottomInset: n(8), contentInset: insets,
        indicatorInsets: EdgeInsets(top: n(9), left: n(10), bottom: n(11), right: n(12)), adjustedContentInset: insets,
        contentSize: Size(width: n(13), height: n(14)), contentOffset: Point(x: n(15), y: n(16)),
        alwaysBounceVertical: n(17) > 0, animation: .keyboardDefault)
    let note = KeyboardNotification(
        phase: .willShow, beginFrame: rect, endFrame: Rect(x: n(18), y: n(19), width: n(20), height: n(21)),
        animation: .keyboardDefault, focusOwner: nil)
    for message in [DaemonMessage.adjustment(view: "v", adjustment), .keyboard(note, isLocal: true)] {
        // Whatever the numbers, the one writer's line is one its decoder reads.
        let line = message.lineBytes()
        guard (try? DaemonMessageDecoder.decode(line, client: ClientID("c1"))) != nil else {
            fatalError("insetd's decoder cannot read its writer's line: \(String(decoding: line, as: UTF8.self))")
        }
    }
    let state = StateSnapshot(
        keyboard: rect, screen: Size(width: n(22), height: n(23)), mode: .auto, tabletMode: false, hardwareKeyboard: false)
    _ = DaemonMessage.welcome(version: 1, client: "c1", state: state).lineBytes()
}
