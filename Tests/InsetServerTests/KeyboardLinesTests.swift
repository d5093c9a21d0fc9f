import InsetCore
import InsetProtocol
import NIOCore
import Testing

@testable import InsetServer

/// A keyboard notification sent again (shown, hidden, shown over the same
/// field) is the line encoded the first time, byte for byte what the
/// protocol's encoder writes for it.
@Suite struct KeyboardLinesTests {
    static let hidden = Rect(x: 0, y: 844, width: 390, height: 336)
    static let shown = Rect(x: 0, y: 508, width: 390, height: 336)

    static func note(_ phase: KeyboardPhase, from begin: Rect, to end: Rect, seconds: Int = 250) -> KeyboardNotification {
        KeyboardNotification(
            phase: phase, beginFrame: begin, endFrame: end,
            animation: Animation(duration: .milliseconds(seconds), curve: .easeInOut), focusOwner: ClientID("c1"))
    }

    /// Hand-written lines, keys in the order insetd writes them (PROTOCOL.md's example sorted).
    static let table: [(DaemonMessage, String)] = [
        (.keyboard(note(.willShow, from: hidden, to: shown), isLocal: true),
         #"{"begin":{"height":336,"width":390,"x":0,"y":844},"curve":"easeInOut","duration":0.25,"#
            + #""end":{"height":336,"width":390,"x":0,"y":508},"isLocal":true,"phase":"willShow","type":"keyboard"}"#),
        (.keyboard(note(.willShow, from: hidden, to: shown), isLocal: false),
         #"{"begin":{"height":336,"width":390,"x":0,"y":844},"curve":"easeInOut","duration":0.25,"#
            + #""end":{"height":336,"width":390,"x":0,"y":508},"isLocal":false,"phase":"willShow","type":"keyboard"}"#),
        (.keyboard(note(.willHide, from: shown, to: hidden), isLocal: false),
         #"{"begin":{"height":336,"width":390,"x":0,"y":508},"curve":"easeInOut","duration":0.25,"#
            + #""end":{"height":336,"width":390,"x":0,"y":844},"isLocal":false,"phase":"willHide","type":"keyboard"}"#),
        (.keyboard(note(.didHide, from: shown, to: hidden, seconds: 0), isLocal: false),
         #"{"begin":{"height":336,"width":390,"x":0,"y":508},"curve":"easeInOut","duration":0,"#
            + #""end":{"height":336,"width":390,"x":0,"y":844},"isLocal":false,"phase":"didHide","type":"keyboard"}"#),
        (.ok(id: .number(3)), #"{"id":3,"type":"ok"}"#),
    ]

    static func bytes(_ line: SharedLine) -> [UInt8] {
        var line = line
        return Array(line.wire(for: .lines).readableBytesView)
    }

    @Test func eachLineIsTheHandWrittenOneAndTheEncodersAlsoWhenSentAgain() {
        let lines = KeyboardLines()
        // Twice over, in turn (a toggled keyboard): the second round is served from what was kept.
        for _ in 0..<2 {
            for (message, expected) in Self.table {
                let bytes = Self.bytes(lines.line(message))
                #expect(bytes == Array((expected + "\n").utf8))
                #expect(bytes == message.lineBytes())
            }
        }
    }

    @Test func aNotificationSentAgainIsTheSameStorageNotAnotherEncoding() {
        let lines = KeyboardLines()
        let show = DaemonMessage.keyboard(Self.note(.willShow, from: Self.hidden, to: Self.shown), isLocal: false)
        let hide = DaemonMessage.keyboard(Self.note(.willHide, from: Self.shown, to: Self.hidden), isLocal: false)
        var first = lines.line(show)
        _ = lines.line(hide)
        var again = lines.line(show)
        let a = first.wire(for: .lines), b = again.wire(for: .lines)
        a.withUnsafeReadableBytes { a in b.withUnsafeReadableBytes { b in #expect(a.baseAddress == b.baseAddress) } }
        // Past the kept few, the oldest is encoded afresh: still its own bytes.
        for seconds in [100, 200, 300, 400] {
            _ = lines.line(.keyboard(Self.note(.willShow, from: Self.hidden, to: Self.shown, seconds: seconds), isLocal: false))
        }
        var afresh = lines.line(show)
        let c = afresh.wire(for: .lines)
        #expect(Array(c.readableBytesView) == show.lineBytes())
        a.withUnsafeReadableBytes { a in c.withUnsafeReadableBytes { c in #expect(a.baseAddress != c.baseAddress) } }
    }
}
