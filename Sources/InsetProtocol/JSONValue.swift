import Foundation

/// A JSON value as insetd writes it: built directly from the daemon's messages
/// and written straight to bytes.
///
/// Why not `JSONSerialization`: going through `Any`, `NSDictionary` bridging and
/// locale-aware key sorting cost ~300 µs per message, which made a keyboard
/// change with 1000 clients take a third of a second. This writer produces the
/// same bytes (the tests compare it with `JSONSerialization` on every message
/// kind): keys sorted as Foundation's `.sortedKeys` sorts ASCII keys, slashes
/// unescaped, numbers as it writes a `Double` or `Int`.
public enum JSONValue: Hashable, Sendable {
    case string(String)
    case integer(Int)
    case number(Double)
    case bool(Bool)
    case array([JSONValue])
    case object([String: JSONValue])

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
        case .integer(let integer): output += String(integer).utf8
        case .number(let number): Self.write(number, to: &output)
        case .bool(let bool): output += (bool ? "true" : "false").utf8
        case .array(let values):
            output.append(UInt8(ascii: "["))
            for (index, value) in values.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                value.write(to: &output)
            }
            output.append(UInt8(ascii: "]"))
        case .object(let fields):
            output.append(UInt8(ascii: "{"))
            for (index, key) in fields.keys.sorted(by: Self.foundationOrder).enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                Self.write(key, to: &output)
                output.append(UInt8(ascii: ":"))
                fields[key]!.write(to: &output)
            }
            output.append(UInt8(ascii: "}"))
        }
    }

    /// Foundation's `.sortedKeys` order restricted to ASCII: letters compare
    /// without case, and where two keys differ only in case the lower-case
    /// letter comes first ("a" < "A" < "b").
    static func foundationOrder(_ left: String, _ right: String) -> Bool {
        let a = Array(left.utf8)
        let b = Array(right.utf8)
        var caseTieBreak: Bool?
        for (x, y) in zip(a, b) where x != y {
            let (lx, ly) = (lowered(x), lowered(y))
            if lx != ly { return lx < ly }
            if caseTieBreak == nil { caseTieBreak = x > y }  // lower case has the higher code
        }
        if a.count != b.count { return a.count < b.count }
        return caseTieBreak ?? false
    }

    private static func lowered(_ byte: UInt8) -> UInt8 {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte + 32 : byte
    }

    private static func write(_ number: Double, to output: inout [UInt8]) {
        precondition(number.isFinite, "JSON has no \(number)")
        // As JSONSerialization writes a Double: Swift's shortest round-trip
        // form, whole numbers bare ("302", not "302.0"). Zero of either sign is
        // "0", as the daemon's earlier encoder (a JSON round trip) wrote it.
        if number == 0 { return output.append(UInt8(ascii: "0")) }
        var text = number.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        output += text.utf8
    }

    private static func write(_ string: String, to output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
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

/// One JSON object as one line, newline included, keys sorted so the same
/// object always gives the same bytes.
public func jsonLine(_ fields: [String: JSONValue]) -> Data {
    var output: [UInt8] = []
    output.reserveCapacity(512)
    JSONValue.object(fields).write(to: &output)
    output.append(UInt8(ascii: "\n"))
    return Data(output)
}
