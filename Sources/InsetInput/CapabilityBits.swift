/// A set of event codes a device supports, as the kernel reports it in sysfs
/// (`capabilities/key`, the `KEY=` uevent property): space-separated hex words of
/// `unsigned long`, most significant word first.
///
/// Classification reads these rather than udev's `ID_INPUT_*` properties, so it
/// works the same where no udevd runs and those properties are absent.
public struct CapabilityBits: Hashable, Sendable, Codable, CustomStringConvertible {
    /// Least significant word first; bit `code % 64` of word `code / 64`.
    public private(set) var words: [UInt64]

    public init(words: [UInt64] = []) {
        self.words = words
        trim()
    }

    public init<S: Sequence>(codes: S) where S.Element == Int {
        self.init()
        for code in codes { insert(code) }
    }

    /// Parses the sysfs form (`"120013"`, `"3 0 0 fffffffffffffffe"`). Words are
    /// the width of the kernel's `unsigned long` (64 bits here).
    public init?(sysfs text: String) {
        let parts = text.split(whereSeparator: { $0 == " " || $0 == "\n" })
        var words: [UInt64] = []
        for part in parts.reversed() {
            guard let word = UInt64(part, radix: 16) else { return nil }
            words.append(word)
        }
        self.init(words: words)
    }

    public static let empty = CapabilityBits()

    public var isEmpty: Bool { words.isEmpty }

    public func contains(_ code: Int) -> Bool {
        guard code >= 0 else { return false }
        let word = code / 64
        return word < words.count && words[word] & (1 << UInt64(code % 64)) != 0
    }

    /// True when every code in `range` is present.
    public func containsAll(_ range: ClosedRange<Int>) -> Bool { range.allSatisfy(contains) }

    public mutating func insert(_ code: Int) {
        precondition(code >= 0, "event codes are not negative")
        let word = code / 64
        if word >= words.count { words += Array(repeating: 0, count: word - words.count + 1) }
        words[word] |= 1 << UInt64(code % 64)
    }

    /// Every code present, ascending.
    public var codes: [Int] {
        words.indices.flatMap { word in
            (0..<64).filter { words[word] & (1 << UInt64($0)) != 0 }.map { word * 64 + $0 }
        }
    }

    /// The sysfs text form, most significant word first.
    public var description: String {
        words.isEmpty ? "0" : words.reversed().map { String($0, radix: 16) }.joined(separator: " ")
    }

    private mutating func trim() {
        while words.last == 0 { words.removeLast() }
    }
}
