import Foundation
import InputTestbed
import InsetCore
import Testing

@testable import InsetProtocol

/// Every daemon message kind, timeline entries included, has one writer
/// (`DaemonMessage.lineBytes`) and one reader (`DaemonMessageDecoder`): reading
/// back what was written gives the same message, the bytes are the ones
/// Foundation's `JSONSerialization` writes for the same object, and the
/// documented examples read and write back without losing a field.
@Suite struct DaemonMessageWireTests {
    static let client = ClientID("c1")

    /// What JSONSerialization writes for the object `line` holds: the canonical
    /// bytes (sorted keys, Foundation's numbers), no newline. The line is read
    /// with JSONDecoder, whose numbers are exact (JSONSerialization's reader
    /// rounds some tiny ones and turns huge whole ones into integers), and its
    /// numbers go to Foundation as the `Double`s insetd holds.
    static func foundationBytes(_ line: [UInt8]) throws -> String {
        let tree = try JSONDecoder().decode(JSONTree.self, from: Data(line))
        let data = try JSONSerialization.data(withJSONObject: tree.foundation, options: [.sortedKeys, .withoutEscapingSlashes])
        return String(decoding: data, as: UTF8.self)
    }

    static func check(_ message: DaemonMessage, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let line = message.lineBytes()
        #expect(line.last == UInt8(ascii: "\n"), sourceLocation: sourceLocation)
        #expect(line.dropLast().firstIndex(of: UInt8(ascii: "\n")) == nil, sourceLocation: sourceLocation)
        let text = String(decoding: line.dropLast(), as: UTF8.self)
        let canonical = try foundationBytes(line)
        #expect(text == canonical, "\(text) vs \(canonical)", sourceLocation: sourceLocation)
        #expect(try DaemonMessageDecoder.decode(line, client: client) == message, "\(text)", sourceLocation: sourceLocation)
    }

    @Test func handWrittenLines() {
        let lines: [(DaemonMessage, String)] = [
            (.ok(id: .number(7)), #"{"id":7,"type":"ok"}"#),
            (.ok(id: nil), #"{"type":"ok"}"#),
            (.bye(reason: "shutdown"), #"{"reason":"shutdown","type":"bye"}"#),
            (.focusLost(view: "form"), #"{"type":"focusLost","view":"form"}"#),
            (.rotate(direction: .left), #"{"direction":"left","type":"rotate"}"#),
            (.reloaded(id: .string("r"), config: nil, changed: ["keyboard.mode"], restart: []),
             #"{"changed":["keyboard.mode"],"id":"r","restart":[],"type":"reloaded"}"#),
            (.event(TimelineEntry(
                at: Instant(nanoseconds: 1_500_000_000), decision: .tabletMode(true), cause: .tabletSwitch(on: true),
                state: TimelineState(keyboard: .shown, hardwareKeyboard: false, tabletMode: true, mode: .auto, devices: 2))),
             #"{"at":1500000000,"cause":{"kind":"tablet-switch","on":true},"decision":"tablet-mode","#
                + #""state":{"devices":2,"hardwareKeyboard":false,"keyboard":"shown","mode":"auto","tabletMode":true},"#
                + #""tabletMode":true,"type":"event"}"#),
        ]
        for (message, expected) in lines {
            #expect(String(decoding: message.lineBytes(), as: UTF8.self) == expected + "\n")
        }
    }

    /// Random messages of every kind, with a fixed seed so a failure repeats.
    @Test func everyKindReadsBackAndIsWrittenAsFoundationWritesIt() throws {
        var random = MessageGenerator(seed: 0x3E55_A6E)
        var kinds = Set<String>()
        for _ in 0..<3000 {
            let message = random.message(client: Self.client)
            kinds.insert(String(describing: message).prefix { $0 != "(" }.description)
            try Self.check(message)
        }
        #expect(kinds.count == 15, "\(kinds.sorted())")
    }

    @Test func timelineEntriesOfEveryDecisionAndCauseReadBack() throws {
        var random = MessageGenerator(seed: 0x7111_E)
        var seen = Set<String>()
        for _ in 0..<2000 {
            let entry = random.entry()
            seen.insert("\(entry.decision)".prefix { $0 != "(" } + "/" + "\(entry.cause)".prefix { $0 != "(" })
            try Self.check(.event(entry))
        }
        #expect(seen.count == 8 * 9)
    }

    @Test(arguments: ["daemon", "timeline"])
    func documentedExamplesReadAndWriteBackWhole(role: String) throws {
        let examples = try ProtocolDocument.examples(role)
        #expect(!examples.isEmpty)
        for example in examples {
            let message = try DaemonMessageDecoder.decode(Data(example.utf8), client: Self.client)
            let documented = try JSONSerialization.jsonObject(with: Data(example.utf8)) as? NSDictionary
            let written = try JSONSerialization.jsonObject(with: Data(message.lineBytes())) as? NSDictionary
            #expect(documented == written, "\(example)")
        }
    }

    @Test(arguments: [
        (#"{"type":"event","at":1,"decision":"mode","mode":"never","cause":{"kind":"reload"},"state":{}}"#, "state.keyboard"),
        (#"{"type":"event","at":1,"decision":"tablet-mode","tabletMode":true,"cause":{"kind":"lightning"},"state":{"keyboard":"bar","hardwareKeyboard":true,"tabletMode":true,"mode":"auto","devices":0}}"#, "cause.kind"),
        (#"{"type":"event","at":"soon","decision":"subscribed","cause":{"kind":"subscribe"},"state":{"keyboard":"bar","hardwareKeyboard":true,"tabletMode":true,"mode":"auto","devices":0}}"#, "at"),
        (#"{"type":"event","at":1,"decision":"whim","cause":{"kind":"subscribe"},"state":{"keyboard":"bar","hardwareKeyboard":true,"tabletMode":true,"mode":"auto","devices":0}}"#, "decision"),
    ])
    func aMalformedEntryIsAnErrorNamingItsField(line: String, field: String) {
        #expect {
            try DaemonMessageDecoder.decode(Data(line.utf8), client: Self.client)
        } throws: { error in
            guard let error = error as? ProtocolError else { return false }
            return error.code == .invalidField && error.message.contains("\"\(field)\"")
        }
    }
}

/// Any JSON value, read by JSONDecoder, for handing to JSONSerialization.
private enum JSONTree: Decodable {
    case object([String: JSONTree]), array([JSONTree]), string(String), number(Double), bool(Bool)

    init(from decoder: any Decoder) throws {
        let single = try decoder.singleValueContainer()
        if let bool = try? single.decode(Bool.self) {
            self = .bool(bool)
        } else if let number = try? single.decode(Double.self) {
            self = .number(number)
        } else if let string = try? single.decode(String.self) {
            self = .string(string)
        } else if let array = try? single.decode([JSONTree].self) {
            self = .array(array)
        } else {
            self = .object(try single.decode([String: JSONTree].self))
        }
    }

    var foundation: Any {
        switch self {
        case .object(let object): object.mapValues(\.foundation)
        case .array(let array): array.map(\.foundation)
        case .string(let string): string
        case .number(let number): number
        case .bool(let bool): bool
        }
    }
}
