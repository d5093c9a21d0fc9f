#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A JSON value built in memory and written straight to bytes: what clients'
/// messages are encoded with (`ClientMessageEncoder`), where a message is
/// assembled field by field before it is written.
///
/// The bytes are JSON as Foundation's `JSONSerialization` writes it with
/// `.sortedKeys` and `.withoutEscapingSlashes` (keys in ASCII order, slashes
/// unescaped, numbers as Swift prints a `Double` or `Int`), so that recorded
/// traces and golden outputs stay byte for byte what they are; the tests
/// compare the two on every kind of value.
public enum JSONValue: Hashable, Sendable {
    case string(String)
    case integer(Int)
    case number(Double)
    case bool(Bool)
    case array([JSONValue])
    case object(JSONObject)

    /// The value as bytes, with no trailing newline.
    public var bytes: [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(256)
        write(to: &output)
        return output
    }

    func write(to output: inout [UInt8]) {
        switch self {
        case .string(let string): Self.write(string, to: &output)
        case .integer(let integer): Self.write(integer, to: &output)
        case .number(let number): Self.write(number, to: &output)
        case .bool(let bool): output += (bool ? "true" : "false").utf8
        case .array(let values):
            output.append(UInt8(ascii: "["))
            for (index, value) in values.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                value.write(to: &output)
            }
            output.append(UInt8(ascii: "]"))
        case .object(let object):
            output.append(UInt8(ascii: "{"))
            for (index, field) in object.sortedFields.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                Self.write(field.key, to: &output)
                output.append(UInt8(ascii: ":"))
                field.value.write(to: &output)
            }
            output.append(UInt8(ascii: "}"))
        }
    }

    /// Foundation's `.sortedKeys` order restricted to ASCII: letters compare
    /// without case, and where two keys differ only in case the lower-case
    /// letter comes first ("a" < "A" < "b").
    static func foundationOrder(_ left: String, _ right: String) -> Bool {
        var caseTieBreak: Bool?
        var a = left.utf8.makeIterator()
        var b = right.utf8.makeIterator()
        while true {
            switch (a.next(), b.next()) {
            case (nil, nil): return caseTieBreak ?? false
            case (nil, _): return true
            case (_, nil): return false
            case (let x?, let y?) where x != y:
                let (lx, ly) = (lowered(x), lowered(y))
                if lx != ly { return lx < ly }
                if caseTieBreak == nil { caseTieBreak = x > y }  // lower case has the higher code
            default: continue
            }
        }
    }

    private static func lowered(_ byte: UInt8) -> UInt8 {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte + 32 : byte
    }

    static func write(_ number: Double, to output: inout [UInt8]) {
        // JSON has no infinity or NaN; see `EncodingFaults` for why not a trap.
        guard number.isFinite else {
            EncodingFaults.nonFinite(number)
            return output.append(UInt8(ascii: "0"))
        }
        // As JSONSerialization writes a Double: Swift's shortest round-trip
        // form, whole numbers bare ("302", not "302.0"). Zero of either sign is
        // "0": a client never sees "-0".
        if number == 0 { return output.append(UInt8(ascii: "0")) }
        // Whole numbers (most geometry) without formatting a String.
        if number.rounded(.towardZero) == number, abs(number) < 1e15 { return write(Int(number), to: &output) }
        // Up to three decimals (an animation's duration in seconds, half
        // points) from integers too. k / 1000 is the double nearest the decimal
        // k/1000, so that decimal reads back as `number`; with |k| below 10^12
        // (`number` under 10^9) no other decimal of at most three places does,
        // and one with more places has more digits: it is the shortest
        // round-trip form `description` writes (`JSONValueTests` compares them).
        let thousandths = (number * 1000).rounded()
        if abs(thousandths) < 1e12, thousandths / 1000 == number {
            return writeThousandths(Int(thousandths), to: &output)
        }
        var text = number.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        output += text.utf8
    }

    /// `thousandths / 1000` as a decimal without trailing zeros (not a whole number).
    private static func writeThousandths(_ thousandths: Int, to output: inout [UInt8]) {
        let whole = thousandths / 1000
        var fraction = Int(thousandths.magnitude % 1000)
        // The sign of -0.5, whose whole part is 0.
        if thousandths < 0 && whole == 0 { output.append(UInt8(ascii: "-")) }
        write(whole, to: &output)
        output.append(UInt8(ascii: "."))
        var digits = 3
        while fraction % 10 == 0 {
            fraction /= 10
            digits -= 1
        }
        var divisor = digits == 3 ? 100 : digits == 2 ? 10 : 1
        while divisor > 0 {
            output.append(UInt8(ascii: "0") + UInt8(fraction / divisor % 10))
            divisor /= 10
        }
    }

    static func write(_ integer: Int, to output: inout [UInt8]) {
        if integer < 0 { output.append(UInt8(ascii: "-")) }
        var magnitude = integer.magnitude
        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                     UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &digits) { buffer in
            var index = buffer.count
            repeat {
                index -= 1
                buffer[index] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            // As a raw buffer, not a slice: a slice's elements are copied one
            // by one, a buffer's at once (a line has some twenty numbers).
            output.append(contentsOf: UnsafeRawBufferPointer(rebasing: buffer[index...]))
        }
    }

    static func write(_ string: String, to output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        // Most strings (keys, names) need no escaping: copy them whole.
        if !string.utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
            output += string.utf8
            return output.append(UInt8(ascii: "\""))
        }
        for byte in string.utf8 {
            switch byte {
            case UInt8(ascii: "\""): output += #"\""#.utf8
            case UInt8(ascii: "\\"): output += #"\\"#.utf8
            case 0x0A: output += #"\n"#.utf8
            case 0x0D: output += #"\r"#.utf8
            case 0x09: output += #"\t"#.utf8
            case 0x08: output += #"\b"#.utf8
            case 0x0C: output += #"\f"#.utf8
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                output += #"\u00"#.utf8
                output += [hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
            default: output.append(byte)
            }
        }
        output.append(UInt8(ascii: "\""))
    }
}

extension JSONValue: ExpressibleByStringLiteral {
    public init(stringLiteral value: String) { self = .string(value) }
}

/// A JSON object's fields: written with a dictionary literal, kept as a small
/// array (a message has a handful of fields; hashing them cost more than
/// finding one), sorted only when written.
public struct JSONObject: Hashable, Sendable, ExpressibleByDictionaryLiteral {
    public struct Field: Hashable, Sendable {
        public var key: String
        public var value: JSONValue
    }

    public private(set) var fields: [Field]

    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        fields = elements.map { Field(key: $0.0, value: $0.1) }
    }

    /// The value of `key`; setting nil removes it.
    public subscript(key: String) -> JSONValue? {
        get { fields.first { $0.key == key }?.value }
        set {
            let index = fields.firstIndex { $0.key == key }
            switch (index, newValue) {
            case (let index?, let value?): fields[index].value = value
            case (let index?, nil): fields.remove(at: index)
            case (nil, let value?): fields.append(Field(key: key, value: value))
            case (nil, nil): break
            }
        }
    }

    /// In Foundation's `.sortedKeys` order.
    var sortedFields: [Field] {
        let inOrder = zip(fields, fields.dropFirst()).allSatisfy { JSONValue.foundationOrder($0.key, $1.key) }
        return inOrder ? fields : fields.sorted { JSONValue.foundationOrder($0.key, $1.key) }
    }
}

/// One JSON object as one line, newline included, keys sorted so the same
/// object always gives the same bytes.
public func jsonLine(_ fields: JSONObject) -> Data {
    Data(jsonLineBytes(fields))
}

/// `jsonLine` as bytes.
public func jsonLineBytes(_ fields: JSONObject) -> [UInt8] {
    var output: [UInt8] = []
    output.reserveCapacity(512)
    JSONValue.object(fields).write(to: &output)
    output.append(UInt8(ascii: "\n"))
    return output
}
