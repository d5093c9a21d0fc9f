import Foundation
import InsetCore
import Testing

@testable import InsetProtocol

/// The JSON writers' numbers, strings and key order must be exactly what
/// Foundation's `JSONSerialization` (`.sortedKeys`, `.withoutEscapingSlashes`)
/// writes, byte for byte: recorded traces, golden outputs and clients depend on
/// those bytes. (DaemonMessageWireTests checks whole daemon messages.)
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

    /// Numbers of up to three decimals are written from integers: the same
    /// bytes as Swift's shortest round-trip `description` (what they were
    /// written with before), every thousandth near zero and samples up to the
    /// bound of that path (1e9) and beyond it.
    @Test func thousandthsAreWrittenAsDescriptionWritesThem() {
        var numbers = (-30_000...30_000).map { Double($0) / 1000 }
        numbers += [0.1, 0.2, 0.3, 1.1, 2.675, 1.005, 1e-3, 0.0005, 0.00001, 123_456_789.125, 999_999_999.999, 1e9 + 0.5]
        numbers += [7_654_321_012.5, 123_456_789_012.25, 1e12 + 0.5, 8.8e12 + 0.125].flatMap { [$0, -$0] }
        var generator = SplitMix64(seed: 0x7_0005)
        for _ in 0..<20_000 {
            numbers.append(Double(Int64(truncatingIfNeeded: generator.next()) % 2_000_000_000_000) / 1000)
        }
        for number in numbers where number != number.rounded(.towardZero) {
            var bytes: [UInt8] = []
            JSONValue.write(number, to: &bytes)
            #expect(String(decoding: bytes, as: UTF8.self) == number.description, "\(number)")
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
