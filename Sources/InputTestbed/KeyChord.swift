import CLibevdev

/// Keys pressed together, as a tester writes them (`LEFTMETA+K`): kernel key
/// names from `linux/input-event-codes.h`, `KEY_` optional, any case. The
/// testbed presses them in order and releases them in reverse, as a person does.
public struct KeyChord: Hashable, Sendable, CustomStringConvertible {
    /// Key codes in press order.
    public var codes: [Int]
    /// The names as given, upper-cased, without `KEY_`.
    public var names: [String]

    public init(_ text: String) throws(KeyChordError) {
        let parts = text.split(separator: "+", omittingEmptySubsequences: false).map {
            $0.filter { $0 != " " }.uppercased()
        }
        guard !text.isEmpty, !parts.contains(where: \.isEmpty) else {
            throw KeyChordError(message: "empty key name in '\(text)' (write keys as LEFTMETA+K)")
        }
        var codes: [Int] = []
        var names: [String] = []
        for part in parts {
            let name = part.hasPrefix("KEY_") ? String(part.dropFirst(4)) : part
            let full = part.hasPrefix("BTN_") ? part : "KEY_" + name
            let code = libevdev_event_code_from_name(UInt32(EV_KEY), full)
            guard code >= 0 else {
                throw KeyChordError(
                    message: "unknown key name '\(part)' in '\(text)' (kernel names without KEY_, e.g. LEFTMETA, K, F5, ROTATE_DISPLAY)")
            }
            guard !codes.contains(Int(code)) else {
                throw KeyChordError(message: "'\(part)' appears twice in '\(text)'")
            }
            codes.append(Int(code))
            names.append(part.hasPrefix("BTN_") ? part : name)
        }
        self.codes = codes
        self.names = names
    }

    public var description: String { names.joined(separator: "+") }
}

/// A key chord that names no key the kernel has.
public struct KeyChordError: Error, Hashable, Sendable, CustomStringConvertible {
    public var message: String
    public var description: String { message }

    public init(message: String) { self.message = message }
}
