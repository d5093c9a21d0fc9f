import Foundation
import InsetCore
import Testing

@testable import InsetProtocol

/// The writers cannot stop the daemon: a value JSON cannot carry is a bug to
/// report, and the line stays valid JSON.
@Suite(.serialized) struct EncoderSafetyTests {
    static let nonFinite: [Double] = [.infinity, -.infinity, .nan, .signalingNaN]

    @Test(arguments: nonFinite)
    func aNonFiniteNumberIsWrittenAsZeroAndReported(_ value: Double) throws {
        let before = EncodingFaults.count
        var bytes: [UInt8] = []
        JSONValue.write(value, to: &bytes)
        #expect(String(decoding: bytes, as: UTF8.self) == "0")
        #expect(EncodingFaults.count == before + 1)
    }

    @Test func anAdjustmentFullOfInfinitiesIsStillOneValidLine() throws {
        let inf = Double.infinity
        let adjustment = ViewAdjustment(
            view: ViewID(client: ClientID("c1"), name: "v"), additionalBottomInset: inf,
            contentInset: EdgeInsets(top: -inf), indicatorInsets: EdgeInsets(bottom: .nan),
            adjustedContentInset: EdgeInsets(top: 1, left: 2, bottom: inf, right: 3), contentSize: Size(width: inf, height: 5),
            contentOffset: Point(x: 0, y: -inf), alwaysBounceVertical: true, animation: .keyboardDefault)
        for message in [DaemonMessage.adjustment(view: "v", adjustment)] {
            let line = message.lineBytes()
            #expect(line.last == UInt8(ascii: "\n"))
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.dropLast())) as? [String: Any])
            #expect(object["additionalBottomInset"] as? Double == 0)
            #expect((object["adjustedContentInset"] as? [String: Any])?["left"] as? Double == 2)
        }
        let note = KeyboardNotification(
            phase: .willShow, beginFrame: Rect(x: 0, y: inf, width: 390, height: 336),
            endFrame: Rect(x: .nan, y: 508, width: 390, height: 336), animation: .keyboardDefault, focusOwner: nil)
        let line = DaemonMessage.keyboard(note, isLocal: false).lineBytes()
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.dropLast())) as? [String: Any])
        #expect((object["end"] as? [String: Any])?["y"] as? Double == 508)
    }

    @Test func logSafeEscapesControlsAndCutsLongText() {
        #expect(logSafe("kiosk\n<2>forged") == #"kiosk\n<2>forged"#)
        #expect(logSafe("a\u{1B}[2Jb\u{7}\u{85}\u{2028}") == #"a\u{1b}[2Jb\u{7}\u{85}\u{2028}"#)
        #expect(logSafe("back\\slash") == #"back\\slash"#)
        #expect(logSafe(String(repeating: "x", count: 130), limit: 120) == String(repeating: "x", count: 120) + "…(+10 characters)")
        #expect(logSafe("é👍") == "é👍")
    }
}
