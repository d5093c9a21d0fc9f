import InsetCore
import InsetProtocol
import NIOCore
import Testing

@testable import InsetServer

/// Clients that register the same view get their adjustment from one encoding,
/// byte for byte what each would have been sent alone.
@Suite struct AdjustmentLinesTests {
    static func adjustment(client: String, view: String = "signup", offset: Double = 256) -> ViewAdjustment {
        ViewAdjustment(
            view: ViewID(client: ClientID(client), name: view), additionalBottomInset: 302,
            contentInset: EdgeInsets(), indicatorInsets: EdgeInsets(),
            adjustedContentInset: EdgeInsets(top: 47, bottom: 336), contentSize: Size(width: 390, height: 1200),
            contentOffset: Point(x: 0, y: offset), alwaysBounceVertical: true,
            animation: Animation(duration: .milliseconds(250), curve: .easeInOut))
    }

    /// PROTOCOL.md's adjustment, keys in the order insetd writes them.
    static func line(view: String = "signup", offset: Int = 256) -> [UInt8] {
        Array((#"{"additionalBottomInset":302,"adjustedContentInset":{"bottom":336,"left":0,"right":0,"top":47},"#
            + #""alwaysBounceVertical":true,"animation":{"curve":"easeInOut","duration":0.25},"#
            + #""contentInset":{"bottom":0,"left":0,"right":0,"top":0},"contentOffset":{"x":0,"y":\#(offset)},"#
            + #""contentSize":{"height":1200,"width":390},"indicatorInsets":{"bottom":0,"left":0,"right":0,"top":0},"#
            + #""type":"adjustment","view":"\#(view)"}"# + "\n").utf8)
    }

    static func frame(_ line: [UInt8]) -> [UInt8] {
        let payload = line.dropLast()
        return [0x81, 126, UInt8(payload.count >> 8), UInt8(payload.count & 0xff)] + payload
    }

    @Test func clientsWithTheSameViewShareOneLineFramedOncePerFraming() {
        let lines = AdjustmentLines()
        let first = lines.wire(view: "signup", Self.adjustment(client: "c1"), for: .lines)
        let second = lines.wire(view: "signup", Self.adjustment(client: "c2"), for: .lines)
        let page = lines.wire(view: "signup", Self.adjustment(client: "c3"), for: .messages)
        let otherPage = lines.wire(view: "signup", Self.adjustment(client: "c4"), for: .messages)
        #expect(Array(first.readableBytesView) == Self.line())
        #expect(first == second)
        #expect(Array(page.readableBytesView) == Self.frame(Self.line()))
        #expect(page == otherPage)
        // Shared, not copied: both clients' buffers are the same storage.
        first.withUnsafeReadableBytes { a in
            second.withUnsafeReadableBytes { b in #expect(a.baseAddress == b.baseAddress) }
        }
    }

    @Test(arguments: [("signup", 300.0), ("login", 256.0)])
    func anotherViewOrAnotherAdjustmentIsEncodedAfresh(view: String, offset: Double) {
        let lines = AdjustmentLines()
        _ = lines.wire(view: "signup", Self.adjustment(client: "c1"), for: .lines)
        let next = lines.wire(view: view, Self.adjustment(client: "c1", view: view, offset: offset), for: .lines)
        #expect(Array(next.readableBytesView) == Self.line(view: view, offset: Int(offset)))
        // And the first again, after it.
        let again = lines.wire(view: "signup", Self.adjustment(client: "c2"), for: .lines)
        #expect(Array(again.readableBytesView) == Self.line())
    }

    /// A keyboard shown and hidden in turn over one view: its two adjustments
    /// are both kept, each sent again as the bytes first encoded, with the
    /// number it was given then.
    @Test func twoAdjustmentsInTurnAreEachEncodedOnce() {
        let lines = AdjustmentLines()
        let shown = lines.encoded(view: "signup", Self.adjustment(client: "c1", offset: 256), for: .lines)
        let hidden = lines.encoded(view: "signup", Self.adjustment(client: "c1", offset: 0), for: .lines)
        let shownAgain = lines.encoded(view: "signup", Self.adjustment(client: "c2", offset: 256), for: .lines)
        let hiddenAgain = lines.encoded(view: "signup", Self.adjustment(client: "c1", offset: 0), for: .lines)
        #expect(Array(shownAgain.bytes.readableBytesView) == Self.line(offset: 256))
        #expect(Array(hiddenAgain.bytes.readableBytesView) == Self.line(offset: 0))
        #expect(shownAgain.generation == shown.generation)
        #expect(hiddenAgain.generation == hidden.generation)
        #expect(shown.generation != hidden.generation)
        shown.bytes.withUnsafeReadableBytes { a in
            shownAgain.bytes.withUnsafeReadableBytes { b in #expect(a.baseAddress == b.baseAddress) }
        }
        // A third line pushes out the oldest (the shown one): encoded afresh, a new number.
        _ = lines.encoded(view: "signup", Self.adjustment(client: "c1", offset: 100), for: .lines)
        let shownThird = lines.encoded(view: "signup", Self.adjustment(client: "c1", offset: 256), for: .lines)
        #expect(Array(shownThird.bytes.readableBytesView) == Self.line(offset: 256))
        #expect(shownThird.generation > shown.generation)
    }

    @Test func eachLineEqualsTheMessagesOwnEncoding() {
        let lines = AdjustmentLines()
        for (client, offset) in [("c1", 0.0), ("c2", 0), ("c3", 12.5), ("c4", 12.5), ("c5", -0.0)] {
            let adjustment = Self.adjustment(client: client, offset: offset)
            let wire = lines.wire(view: "signup", adjustment, for: .lines)
            #expect(Array(wire.readableBytesView) == DaemonMessage.adjustment(view: "signup", adjustment).lineBytes())
        }
    }
}
