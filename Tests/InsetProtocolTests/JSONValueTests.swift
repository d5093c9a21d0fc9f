import Foundation
import InsetCore
import Testing

@testable import InsetProtocol

/// The direct JSON writer must write exactly what Foundation's
/// `JSONSerialization` (`.sortedKeys`, `.withoutEscapingSlashes`) writes, byte for
/// byte: recorded traces, golden outputs and clients depend on those bytes.
@Suite struct JSONValueTests {
    /// What JSONSerialization writes for the same values (Doubles as Double,
    /// integers as Int), as the daemon's encoder did before.
    static func foundation(_ value: JSONValue) throws -> String {
        let data = try JSONSerialization.data(
            withJSONObject: foundationObject(value), options: [.sortedKeys, .withoutEscapingSlashes, .fragmentsAllowed])
        return String(decoding: data, as: UTF8.self)
    }

    static func foundationObject(_ value: JSONValue) -> Any {
        switch value {
        case .string(let string): string
        case .integer(let integer): integer
        case .number(let number): number == 0 ? 0.0 : number  // -0 is written "0"
        case .bool(let bool): bool
        case .array(let values): values.map(foundationObject)
        case .object(let object): Dictionary(uniqueKeysWithValues: object.fields.map { ($0.key, foundationObject($0.value)) })
        }
    }

    static let note = KeyboardNotification(
        phase: .willShow, beginFrame: Rect(x: 0, y: 844, width: 390, height: 336),
        endFrame: Rect(x: 0, y: 508.5, width: 390, height: 335.5), animation: .keyboardDefault, focusOwner: ClientID("c1"))
    static let adjustment = ViewAdjustment(
        view: ViewID(client: ClientID("c1"), name: "sign \"up\"/\\ é"), additionalBottomInset: 0.1 + 0.2,
        contentInset: EdgeInsets(top: 1e-7), indicatorInsets: EdgeInsets(bottom: 1e20),
        adjustedContentInset: EdgeInsets(top: 47, left: -3.25, bottom: 336, right: 123_456_789_012.5),
        contentSize: Size(width: 390, height: 1.0 / 3), contentOffset: Point(x: 0, y: -256), alwaysBounceVertical: true,
        animation: .keyboardDefault)
    static let state = StateSnapshot(
        keyboard: Rect(x: 0, y: 508, width: 390, height: 336), screen: Size(width: 390, height: 844), mode: .auto,
        tabletMode: false, hardwareKeyboard: true)
    static let device = WireDevice(
        name: "Keychron\tK2\u{1}", devnode: "/dev/input/event11", class: "keyboard-external", external: true,
        reason: "line\nbreak", vendorProduct: "05ac:024f", syspath: "/sys/devices/virtual/misc/uhid/input11/event11")

    static let messages: [DaemonMessage] = [
        .welcome(version: 1, client: "c1", state: state), .keyboard(note, isLocal: true),
        .adjustment(view: "sign \"up\"/\\ é", adjustment), .device(event: "attached", device),
        .policy(mode: .never, tabletMode: true, hardwareKeyboard: false),
        .status(id: .number(-3), state: state, clients: 2, views: 5), .devices(id: .string("d\u{7f}😀"), [device]),
        .ok(id: nil), .ok(id: .string("t1")), .error(ProtocolError(.unknownView, "no view c1/x is registered", id: .number(7))),
        .bye(reason: "shutdown"),
    ]

    @Test(arguments: messages)
    func everyMessageIsWrittenAsFoundationWritesIt(_ message: DaemonMessage) throws {
        let line = Array(message.line())
        #expect(line.last == UInt8(ascii: "\n"))
        let foundation = try Self.foundation(.object(message.jsonFields()))
        #expect(String(decoding: line.dropLast(), as: UTF8.self) == foundation)
    }

    @Test func keysAreInFoundationsOrder() throws {
        let keys = [
            "b", "A", "a", "B", "_x", "x_", "Z", "isLocal", "id", "contentSize", "contentOffset", "contentInset",
            "additionalBottomInset", "adjustedContentInset", "type", "t", "focusOwner", "client", "aB", "ab", "Ab",
        ]
        var object: JSONObject = [:]
        for key in keys { object[key] = .integer(1) }
        let value = JSONValue.object(object)
        #expect(String(decoding: value.bytes, as: UTF8.self) == (try Self.foundation(value)))
        #expect(keys.sorted(by: JSONValue.foundationOrder).prefix(5) == ["_x", "a", "A", "ab", "aB"])
    }

    /// Numbers (any finite Double) and strings drawn at random, with a fixed
    /// seed so a failure repeats.
    @Test func randomNumbersAndStringsMatchFoundation() throws {
        var generator = SplitMix64(seed: 0x1A5E_7D)
        let alphabet: [Unicode.Scalar] = ["a", "Z", "\"", "\\", "/", "\n", "\r", "\t", "\u{8}", "\u{c}", "\u{0}", "\u{1f}", "\u{7f}", "é", "€", "😀", " "]
        for _ in 0..<2000 {
            var number = Double(bitPattern: generator.next())
            if !number.isFinite { number = -0.0 }
            let scaled = [number, Double(Int32(truncatingIfNeeded: generator.next())) / 4, Double(generator.next() % 10_000)]
            let text = String(String.UnicodeScalarView((0..<Int(generator.next() % 12)).map { _ in
                alphabet[Int(generator.next() % UInt64(alphabet.count))]
            }))
            let value = JSONValue.object([
                "numbers": .array(scaled.map(JSONValue.number)), "text": .string(text),
                "integer": .integer(Int(truncatingIfNeeded: generator.next())),
            ])
            #expect(String(decoding: value.bytes, as: UTF8.self) == (try Self.foundation(value)))
        }
    }

    /// The two messages written without a value tree give the bytes the tree
    /// gives, for random geometry, animations, names and phases.
    @Test func streamWrittenMessagesMatchTheirValueTree() {
        var generator = SplitMix64(seed: 0x57_2EA3)
        func number() -> Double {
            switch generator.next() % 4 {
            case 0: Double(Int(generator.next() % 2000)) - 500
            case 1: Double(Int32(truncatingIfNeeded: generator.next())) / 7
            case 2: -0.0
            default: Double(bitPattern: generator.next() & 0x7FEF_FFFF_FFFF_FFFF)  // finite, any size
            }
        }
        func rect() -> Rect { Rect(x: number(), y: number(), width: number(), height: number()) }
        func insets() -> EdgeInsets { EdgeInsets(top: number(), left: number(), bottom: number(), right: number()) }
        func animation() -> Animation {
            Animation(
                duration: .nanoseconds(Int64(generator.next() % 2_000_000_000)),
                curve: AnimationCurve.allCases[Int(generator.next() % 4)])
        }
        let names = ["v", "sign \"up\"/\\ é", "tab\tline\n", "😀", ""]
        for _ in 0..<500 {
            let note = KeyboardNotification(
                phase: KeyboardPhase.allCases[Int(generator.next() % 6)], beginFrame: rect(), endFrame: rect(),
                animation: animation(), focusOwner: nil)
            let adjustment = ViewAdjustment(
                view: ViewID(client: ClientID("c1"), name: "v"), additionalBottomInset: number(), contentInset: insets(),
                indicatorInsets: insets(), adjustedContentInset: insets(), contentSize: Size(width: number(), height: number()),
                contentOffset: Point(x: number(), y: number()), alwaysBounceVertical: generator.next() % 2 == 0,
                animation: animation())
            let messages: [DaemonMessage] = [
                .keyboard(note, isLocal: generator.next() % 2 == 0),
                .adjustment(view: names[Int(generator.next() % UInt64(names.count))], adjustment),
            ]
            for message in messages {
                #expect(message.lineBytes() == jsonLineBytes(message.jsonFields()), "\(message)")
            }
        }
    }
}

/// A small seeded generator (SplitMix64) for repeatable random cases.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
