/// Reads one libinput `.quirks` file with libinput's own rules, so a file
/// libinput rejects is rejected here too, with the line and the reason:
///
/// - `#` starts a comment anywhere; blank lines are skipped; no leading or
///   trailing whitespace.
/// - A section is `[Name]`, then one or more `MatchKey=value` lines, then one
///   or more `Attr...=value` / `Model...=value` lines; an empty section, or a
///   `Match` line after an attribute, is an error.
/// - `MatchVendor`, `MatchProduct`, `MatchVersion` are `0x` and upper-case hex
///   up to `0xFFFF`; `MatchDMIModalias` starts with `dmi:`; `MatchBus` and
///   `MatchUdevType` take libinput's names; a `Match` key appears once per section.
/// - `Model...` values are `0` or `1`; `AttrKeyboardIntegration` is `internal`
///   or `external`. Other attributes are kept as written (insetd does not use
///   them, and a newer libinput may add some).
public enum QuirksParser {
    /// `path` names the file in errors; sections carry its last component.
    public static func parse(_ text: String, path: String) throws(QuirksFileError) -> [QuirkSection] {
        let file = String(path.split(separator: "/").last ?? Substring(path))
        enum State { case section, match, matchOrValue, valueOrSection }
        var state = State.section
        var sections: [QuirkSection] = []
        var current: (section: QuirkSection, line: Int)?

        func fail(_ line: Int, _ why: String) -> QuirksFileError { QuirksFileError(file: path, line: line, reason: why) }
        func closeSection(at line: Int) throws(QuirksFileError) {
            guard let open = current else { return }
            guard !open.section.attributes.isEmpty else {
                throw fail(open.line, "section [\(open.section.name)] has no attributes")
            }
            sections.append(open.section)
            current = nil
        }

        var number = 0
        for raw in text.split(separator: "\n", omittingEmptySubsequences: false) {
            number += 1
            var line = Substring(raw)
            if let hash = line.firstIndex(of: "#") {
                line = line[..<hash]
                while let last = line.last, last == " " || last == "\t" { line = line.dropLast() }
            }
            guard let first = line.first else { continue }
            if line.last == " " || line.last == "\t" { throw fail(number, "trailing whitespace") }
            switch first {
            case " ", "\t":
                throw fail(number, "leading whitespace")
            case "[":
                guard line.count >= 2, line.last == "]" else { throw fail(number, "the closing ] is missing") }
                guard state == .section || state == .valueOrSection else {
                    throw fail(number, "section [\(current?.section.name ?? "")] has no attributes")
                }
                try closeSection(at: number)
                let name = String(line.dropFirst().dropLast())
                current = (QuirkSection(name: name, file: file, match: QuirkMatch(), attributes: []), number)
                state = .match
            case "A"..."Z":
                let isMatch = line.hasPrefix("Match")
                switch state {
                case .section: throw fail(number, "expected a [Section] before '\(line)'")
                case .match:
                    guard isMatch else { throw fail(number, "expected a MatchKey=value line first, found '\(line)'") }
                    state = .matchOrValue
                case .matchOrValue:
                    if !isMatch { state = .valueOrSection }
                case .valueOrSection:
                    if isMatch { throw fail(number, "a Match line after the section's attributes") }
                }
                let parts = line.split(separator: "=", omittingEmptySubsequences: false)
                guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else {
                    throw fail(number, "expected Key=value, found '\(line)'")
                }
                let key = String(parts[0])
                let value = String(parts[1])
                guard value.first != "\"" && value.first != "'" else { throw fail(number, "values are not quoted") }
                do throws(QuirkValueError) {
                    if isMatch {
                        try applyMatch(key, value, to: &current!.section.match)
                    } else {
                        try checkAttribute(key, value)
                        current!.section.attributes.append(.init(key: key, value: value))
                    }
                } catch {
                    throw fail(number, "\(key)=\(value): \(error.reason)")
                }
            default:
                throw fail(number, "unexpected line '\(line)'")
            }
        }
        guard current != nil || !sections.isEmpty else { throw fail(0, "the file has no sections") }
        try closeSection(at: number)
        return sections
    }

    private static func applyMatch(_ key: String, _ value: String, to match: inout QuirkMatch)
        throws(QuirkValueError)
    {
        func once<T>(_ field: inout T?, _ parsed: T) throws(QuirkValueError) {
            guard field == nil else { throw QuirkValueError(reason: "\(key) appears twice in the section") }
            field = parsed
        }
        switch key {
        case "MatchName": try once(&match.name, value)
        case "MatchBus":
            guard let bus = QuirkMatch.Bus(rawValue: value) else {
                throw QuirkValueError(reason: "unknown bus (known: \(QuirkMatch.Bus.allCases.map(\.rawValue).joined(separator: ", ")))")
            }
            try once(&match.bus, bus)
        case "MatchVendor": try once(&match.vendor, try hex(value))
        case "MatchProduct": try once(&match.product, try hex(value))
        case "MatchVersion": try once(&match.version, try hex(value))
        case "MatchDMIModalias":
            guard value.hasPrefix("dmi:") else { throw QuirkValueError(reason: "must start with 'dmi:'") }
            try once(&match.dmiModalias, value)
        case "MatchUdevType":
            guard let type = QuirkMatch.UdevType(rawValue: value) else {
                let known = QuirkMatch.UdevType.allCases.map(\.rawValue).joined(separator: ", ")
                throw QuirkValueError(reason: "unknown udev type (known: \(known))")
            }
            try once(&match.udevType, type)
        case "MatchDeviceTree": try once(&match.deviceTree, value)
        default: throw QuirkValueError(reason: "unknown Match key")
        }
    }

    private static func checkAttribute(_ key: String, _ value: String) throws(QuirkValueError) {
        if key.hasPrefix("Model") {
            guard value == "0" || value == "1" else { throw QuirkValueError(reason: "a Model value is 0 or 1") }
        } else if key.hasPrefix("Attr") {
            if key == "AttrKeyboardIntegration" && value != "internal" && value != "external" {
                throw QuirkValueError(reason: "is internal or external")
            }
        } else {
            throw QuirkValueError(reason: "keys start with Match, Attr or Model")
        }
    }

    /// `0x` and libinput's digits (`0-9`, `A-F`), at most `0xFFFF`.
    private static func hex(_ value: String) throws(QuirkValueError) -> UInt16 {
        let digits = value.dropFirst(2)
        guard value.hasPrefix("0x"), !digits.isEmpty,
            digits.allSatisfy({ ("0"..."9").contains($0) || ("A"..."F").contains($0) }),
            let parsed = UInt32(digits, radix: 16), parsed <= 0xFFFF
        else { throw QuirkValueError(reason: "expected 0x and upper-case hex digits, at most 0xFFFF") }
        return UInt16(parsed)
    }
}

/// A `.quirks` file insetd (like libinput) will not use, with where and why.
public struct QuirksFileError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The file's path as it was read.
    public var file: String
    /// 1-based; 0 when the file could not be read at all.
    public var line: Int
    public var reason: String

    public var description: String { line > 0 ? "\(file):\(line): \(reason)" : "\(file): \(reason)" }
}

struct QuirkValueError: Error {
    var reason: String
}
