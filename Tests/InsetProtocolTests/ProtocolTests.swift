import Foundation
import InputTestbed
import InsetCore
import Testing

@testable import InsetProtocol

let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

/// Runs scripts/validate-protocol.py; returns its exit status and output.
func validate(_ arguments: [String]) async throws -> (status: Int32, output: String) {
    try await ChildProcess.run(
        ["python3", repositoryRoot.appendingPathComponent("scripts/validate-protocol.py").path] + arguments)
}

@Suite struct ProtocolDocumentTests {

    static func examples(_ role: String) -> [String] { try! ProtocolDocument.examples(role) }

    @Test func everyExampleValidatesAgainstTheSchema() async throws {
        let result = try await validate([repositoryRoot.appendingPathComponent("docs/PROTOCOL.md").path])
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.contains("36 passed, 0 failed"))
    }

    @Test func everyClientExampleDecodes() throws {
        let lines = Self.examples("client")
        #expect(lines.count == ClientMessageDecoder.types.count, "one example per client message type")
        for line in lines {
            #expect(throws: Never.self) { try ClientMessageDecoder.decode(Data(line.utf8)) }
        }
    }

    @Test func everyDaemonMessageTheEncoderWritesValidates() async throws {
        let note = KeyboardNotification(
            phase: .willShow, beginFrame: Rect(x: 0, y: 844, width: 390, height: 336),
            endFrame: Rect(x: 0, y: 508, width: 390, height: 336), animation: .keyboardDefault, focusOwner: ClientID("c1"))
        let adjustment = ViewAdjustment(
            view: ViewID(client: ClientID("c1"), name: "signup"), additionalBottomInset: 302, contentInset: .zero,
            indicatorInsets: .zero, adjustedContentInset: EdgeInsets(top: 47, bottom: 336),
            contentSize: Size(width: 390, height: 1200), contentOffset: Point(x: 0, y: 256), alwaysBounceVertical: true,
            animation: .keyboardDefault)
        let state = StateSnapshot(
            keyboard: Rect(x: 0, y: 508, width: 390, height: 336), screen: Size(width: 390, height: 844), mode: .auto,
            tabletMode: false, hardwareKeyboard: true)
        let device = WireDevice(
            name: "Keychron K2", devnode: "/dev/input/event11", class: "keyboard-external", external: true,
            reason: "has the full ESC..D key block; external (bus bluetooth)", vendorProduct: "05ac:024f",
            syspath: "/sys/devices/virtual/misc/uhid/0005:05AC:024F.0002/input/input11/event11")
        let messages: [DaemonMessage] = [
            .welcome(version: 1, client: "c1", state: state), .keyboard(note, isLocal: true),
            .adjustment(view: "signup", adjustment), .device(event: "attached", device),
            .policy(mode: .never, tabletMode: true, hardwareKeyboard: false),
            .status(id: .number(3), state: state, clients: 2, views: 5), .devices(id: .string("d"), [device]),
            .ok(id: nil), .ok(id: .string("t1")), .error(ProtocolError(.unknownView, "no view c1/x is registered", id: .number(7))),
            .bye(reason: "shutdown"), .welcome(version: 1, client: "c2", state: state, id: .string("h")),
            .focusLost(view: "signup"), .rotate(direction: .left), .placed(origin: Point(x: 0, y: 32)),
            .reloaded(id: .number(8), config: "/etc/insetd/insetd.yaml", changed: ["keyboard.mode"], restart: []),
            .error(ProtocolError(.invalidConfiguration, "/etc/insetd/insetd.yaml:2:3: keyboard.modee: unknown key", id: .number(9))),
        ]
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("insetd-daemon-\(getpid()).jsonl")
        try messages.map { String(decoding: $0.line(), as: UTF8.self) }.joined().write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let result = try await validate(["--daemon", file.path])
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.contains("17 passed, 0 failed"))
    }

    @Test func theDocumentedAdjustmentIsWhatTheEncoderWrites() {
        let adjustment = ViewAdjustment(
            view: ViewID(client: ClientID("c1"), name: "signup"), additionalBottomInset: 302, contentInset: .zero,
            indicatorInsets: .zero, adjustedContentInset: EdgeInsets(top: 47, bottom: 336),
            contentSize: Size(width: 390, height: 1200), contentOffset: Point(x: 0, y: 256), alwaysBounceVertical: true,
            animation: .keyboardDefault)
        let encoded = String(decoding: DaemonMessage.adjustment(view: "signup", adjustment).line(), as: UTF8.self)
        let documented = Self.examples("daemon").first { $0.contains("\"type\":\"adjustment\"") }!
        let normalize = { (text: String) in
            try! JSONSerialization.jsonObject(with: Data(text.utf8)) as! NSDictionary
        }
        #expect(normalize(encoded) == normalize(documented))
    }
}

@Suite struct ClientMessageDecoderTests {
    @Test(arguments: [
        ("not json", ErrorCode.malformedJSON, "not valid JSON"),
        ("[1,2]", .malformedJSON, "a message must be a JSON object"),
        ("{\"id\":5}", .unknownType, "the message has no \"type\""),
        ("{\"type\":\"frobnicate\"}", .unknownType, "unknown type \"frobnicate\" (known: hello, register"),
        ("{\"type\":\"hello\"}", .invalidField, "hello: \"version\" (or \"versions\") is required"),
        ("{\"type\":\"register\",\"view\":\"v\",\"contentSize\":{\"width\":1,\"height\":1}}", .invalidField,
         "register: field \"frame\" is required"),
        ("{\"type\":\"register\",\"view\":\"v\",\"frame\":{\"x\":0,\"y\":0,\"width\":\"wide\",\"height\":1},\"contentSize\":{\"width\":1,\"height\":1}}",
         .invalidField, "register: field \"frame.width\": expected a number"),
        ("{\"type\":\"focus\",\"view\":7,\"field\":{\"x\":0,\"y\":0,\"width\":1,\"height\":1}}", .invalidField,
         "focus: field \"view\": expected a string"),
        ("{\"type\":\"transition\",\"duration\":60}", .invalidField, "transition: \"duration\" must be 0 to 10 seconds"),
        ("{\"type\":\"command\",\"command\":\"explode\"}", .invalidField, "command: field \"command\""),
        // A window: a bounded, finite origin and a size larger than 0x0.
        ("{\"type\":\"window\"}", .invalidField, "window: field \"frame\" is required"),
        ("{\"type\":\"window\",\"frame\":{\"x\":0,\"y\":2000000,\"width\":540,\"height\":732}}", .invalidField,
         "window: field \"frame.y\": must be a number from -1000000 to 1000000"),
        ("{\"type\":\"window\",\"frame\":{\"x\":0,\"y\":56,\"width\":0,\"height\":732}}", .invalidField,
         "window: \"frame\" must be wider and taller than 0"),
        ("{\"type\":\"window\",\"frame\":{\"x\":0,\"y\":56,\"width\":540,\"height\":-1}}", .invalidField,
         "window: field \"frame.height\": must not be negative"),
        ("{\"type\":\"window\",\"frame\":{\"x\":0,\"y\":1e999,\"width\":540,\"height\":732}}", .malformedJSON, "not valid JSON"),
        ("{\"type\":\"window\",\"frame\":\"fullscreen\"}", .invalidField, "window: field \"frame\": expected an object"),
    ])
    func badLinesGetAClearError(line: String, code: ErrorCode, message: String) {
        do {
            _ = try ClientMessageDecoder.decode(Data(line.utf8))
            Issue.record("decoded \(line)")
        } catch {
            #expect(error.code == code)
            #expect(error.message.hasPrefix(message), "got: \(error.message)")
        }
    }

    @Test func theRequestIdIsKeptEvenWhenTheRestIsWrong() {
        do {
            _ = try ClientMessageDecoder.decode(Data("{\"type\":\"blur\",\"id\":\"x9\"}".utf8))
        } catch {
            #expect(error.id == .string("x9"))
            #expect(error.message == "blur: field \"view\" is required")
        }
    }

    @Test func aWindowDecodesToItsFrame() throws {
        let request = try ClientMessageDecoder.decode(Data(#"{"type":"window","id":3,"frame":{"x":0,"y":56,"width":540,"height":732}}"#.utf8))
        #expect(request.id == .number(3))
        #expect(request.message == .window(frame: Rect(x: 0, y: 56, width: 540, height: 732)))
    }

    @Test func aWindowThatCannotKnowItsPlaceSaysItsToplevelsSize() throws {
        let request = try ClientMessageDecoder.decode(Data(
            #"{"type":"window","frame":{"x":0,"y":56,"width":540,"height":872},"toplevel":{"width":540,"height":928}}"#.utf8))
        #expect(request.message == .window(frame: Rect(x: 0, y: 56, width: 540, height: 872), toplevel: Size(width: 540, height: 928)))
    }

    @Test(arguments: [
        (#"{"type":"window","id":1,"frame":{"x":0,"y":0,"width":540,"height":960},"toplevel":{"width":0,"height":960}}"#,
         "window: \"toplevel\" must be wider and taller than 0"),
        (#"{"type":"window","id":1,"frame":{"x":0,"y":0,"width":540,"height":960},"toplevel":{"width":540}}"#,
         "window: field \"toplevel.height\" is required"),
        (#"{"type":"focusedWindow","id":1,"bridge":"gnome","frame":{"x":0,"y":32,"width":540,"height":0}}"#,
         "focusedWindow: \"frame\" must be wider and taller than 0, or be null"),
        (#"{"type":"focusedWindow","id":1,"frame":{"x":0,"y":32,"width":540,"height":928}}"#,
         "focusedWindow: field \"bridge\" is required"),
    ])
    func windowPlacesThatCannotBeAreRefused(line: String, message: String) {
        do {
            _ = try ClientMessageDecoder.decode(Data(line.utf8))
            Issue.record("accepted: \(line)")
        } catch {
            #expect(error.code == .invalidField)
            #expect(error.message == message)
            #expect(error.id == .number(1))
        }
    }

    @Test func aBridgeSaysWhereTheCompositorDrawsTheFocusedWindow() throws {
        let placed = try ClientMessageDecoder.decode(Data(
            #"{"type":"focusedWindow","bridge":"gnome","frame":{"x":0,"y":32,"width":540,"height":928}}"#.utf8))
        #expect(placed.message == .focusedWindow(bridge: "gnome", frame: Rect(x: 0, y: 32, width: 540, height: 928)))
        #expect(placed.message.isBridgeReport)
        let none = try ClientMessageDecoder.decode(Data(#"{"type":"focusedWindow","bridge":"gnome","frame":null}"#.utf8))
        #expect(none.message == .focusedWindow(bridge: "gnome", frame: nil))
    }

    @Test func registerFillsDefaults() throws {
        let line = #"{"type":"register","view":"v","frame":{"x":0,"y":0,"width":390,"height":844},"contentSize":{"width":390,"height":900},"id":2}"#
        let request = try ClientMessageDecoder.decode(Data(line.utf8))
        #expect(request.id == .number(2))
        guard case .register(let view) = request.message else { Issue.record("not a register"); return }
        #expect(view.view == "v")
        #expect(view.description == ViewDescription(frame: Rect(x: 0, y: 0, width: 390, height: 844), contentSize: Size(width: 390, height: 900)))
    }
}

@Suite struct LineFramerTests {
    @Test func splitsAcrossChunksAndDropsCRLFAndBlankLines() {
        var framer = LineFramer()
        #expect(framer.feed(Array("{\"a\":".utf8)) == [])
        #expect(framer.feed(Array("1}\r\n\n{\"b\":2}\n{\"c\"".utf8)) == [.line(Array("{\"a\":1}".utf8)), .line(Array("{\"b\":2}".utf8))])
        #expect(framer.pendingCount == 4)
    }

    @Test func aLineOfExactlyTheLimitPassesOneByteMoreDoesNot() {
        var framer = LineFramer(limit: 8)
        #expect(framer.feed(Array("12345678\n".utf8)) == [.line(Array("12345678".utf8))])
        #expect(framer.feed(Array("123456789".utf8)) == [.tooLong])
        #expect(framer.pendingCount == 0, "nothing beyond the limit is buffered")
    }

    /// Random streams of short lines, CRs, blank lines and over-long lines, cut
    /// into random chunks, frame as a byte-at-a-time reader frames them.
    @Test func randomChunkingFramesAsByteAtATimeReading() {
        var generator = SplitMix64(seed: 0xF4A3E)
        let alphabet: [UInt8] = Array("ab{}\"".utf8) + [0x0A, 0x0A, 0x0D, 0x00, 0xFF]
        for _ in 0..<400 {
            let limit = Int(generator.next() % 12) + 1
            let stream = (0..<Int(generator.next() % 80)).map { _ in alphabet[Int(generator.next() % UInt64(alphabet.count))] }
            var framer = LineFramer(limit: limit)
            var framed: [LineFramer.Output] = []
            var index = 0
            while index < stream.count, framed.last != .tooLong {
                let end = min(stream.count, index + Int(generator.next() % 9) + 1)
                framed += framer.feed(stream[index..<end])
                index = end
            }
            #expect(framed == Self.byteAtATime(stream, limit: limit), "limit \(limit), stream \(stream)")
        }
    }

    /// The model: one byte at a time, a line ends at `\n`, a `\r` before it is
    /// dropped, blank lines are skipped, more than `limit` bytes held ends it all.
    static func byteAtATime(_ stream: [UInt8], limit: Int) -> [LineFramer.Output] {
        var out: [LineFramer.Output] = []
        var line: [UInt8] = []
        for byte in stream {
            if byte == 0x0A {
                if line.last == 0x0D { line.removeLast() }
                if !line.isEmpty { out.append(.line(line)) }
                line = []
            } else {
                line.append(byte)
                if line.count > limit { return out + [.tooLong] }
            }
        }
        return out
    }

    @Test func theDefaultLimitIs64KiB() {
        var framer = LineFramer()
        let big = [UInt8](repeating: UInt8(ascii: "x"), count: 64 * 1024)
        #expect(framer.feed(big + [UInt8(ascii: "\n")]) == [.line(big)])
        #expect(framer.feed(big + [UInt8(ascii: "x")]) == [.tooLong])
    }
}

@Suite struct DaemonMessageDecoderTests {
    @Test func everyMessageRoundTrips() throws {
        let client = ClientID("c1")
        let note = KeyboardNotification(
            phase: .willChangeFrame, beginFrame: Rect(x: 0, y: 508, width: 390, height: 336),
            endFrame: Rect(x: 0, y: 800, width: 390, height: 44), animation: .keyboardDefault, focusOwner: nil)
        let adjustment = ViewAdjustment(
            view: ViewID(client: client, name: "form"), additionalBottomInset: 10, contentInset: EdgeInsets(top: 8),
            indicatorInsets: EdgeInsets(bottom: 3), adjustedContentInset: EdgeInsets(top: 55, bottom: 44),
            contentSize: Size(width: 390, height: 1200), contentOffset: Point(x: 0, y: 12.5), alwaysBounceVertical: true,
            animation: .keyboardDefault)
        let state = StateSnapshot(
            keyboard: nil, screen: Size(width: 844, height: 390), mode: .never, tabletMode: true, hardwareKeyboard: false)
        let device = WireDevice(
            name: "n", devnode: nil, class: "ignored", external: false, reason: "r", vendorProduct: "0000:0000", syspath: "/s")
        let messages: [DaemonMessage] = [
            .welcome(version: 1, client: "c1", state: state), .keyboard(note, isLocal: false),
            .adjustment(view: "form", adjustment), .device(event: "removed", device),
            .policy(mode: .always, tabletMode: false, hardwareKeyboard: true),
            .status(id: .string("s"), state: state, clients: 1, views: 0), .devices(id: nil, [device]),
            .ok(id: .number(4)), .error(ProtocolError(.tooSlow, "slow", id: nil)), .bye(reason: "shutdown"),
        ]
        for message in messages {
            #expect(try DaemonMessageDecoder.decode(message.line().dropLast(), client: client) == message)
        }
    }
}
