/// A YAML configuration file as the loader reads it: nested mappings become
/// dotted keys (`keyboard.mode`), values are scalars or lists of scalars, and
/// `value(forKey:type:)` converts one to the type asked for (`ConfigFileReader`).
///
/// Why not Yams: it needs Foundation, for one read of a small file (see
/// `YAMLNode`). The rules are YAML 1.1's resolution of plain scalars —
/// `yes`/`on`/`true` are booleans, `0x1F`, `0o17`, `017` and `0b101` integers,
/// `_` a digit separator, `.inf` and `.nan` doubles — and quoted scalars are
/// always strings.
struct YAMLConfigSnapshot: Sendable {
    enum Value: Sendable, Equatable {
        case scalar(YAMLNode.Scalar)
        case sequence([YAMLNode.Scalar])
    }

    let values: [String: Value]
    /// Where each dotted key's value starts, and each list item, for errors.
    let layout: YAMLLayout

    init(data: RawSpan) throws(YAMLError) {
        let root = try data.withUnsafeBytes { (bytes) throws(YAMLError) in try YAMLNode.parse(bytes) }
        var layout = YAMLLayout()
        self.values = try root.map { (root) throws(YAMLError) in try Self.flatten(root, layout: &layout) } ?? [:]
        self.layout = layout
    }

    static func flatten(_ root: YAMLNode) throws(YAMLError) -> [String: Value] {
        var layout = YAMLLayout()
        return try flatten(root, layout: &layout)
    }

    /// Dotted keys for every scalar or scalar list under the top-level mapping;
    /// `layout` gets their positions, the sections, and every key given twice
    /// (only the first one's value is kept).
    static func flatten(_ root: YAMLNode, layout: inout YAMLLayout) throws(YAMLError) -> [String: Value] {
        // `---` alone, or `~`: a document whose content is null, nothing configured.
        if let scalar = root.scalar, scalar.plain, ["", "~", "null", "Null", "NULL"].contains(scalar.text) { return [:] }
        guard case .mapping(let top) = root.kind else {
            throw YAMLError(description: "the top level (line \(root.line)) is not a mapping of keys to values")
        }
        var values: [String: Value] = [:]
        // Breadth first through nested mappings; a queue read by index, as pairs are only appended.
        var pending: [(prefix: String, pair: YAMLNode.Pair)] = top.map { ("", $0) }
        var next = 0
        while next < pending.count {
            let (prefix, pair) = pending[next]
            next += 1
            guard let name = pair.key.scalar?.text else {
                throw YAMLError(
                    description: "the key at line \(pair.key.line), column \(pair.key.column) is not a scalar (a name)")
            }
            let key = prefix.isEmpty ? name : "\(prefix).\(name)"
            let here = YAMLLayout.Position(line: pair.key.line, column: pair.key.column)
            if let first = layout.keys[key] {
                layout.duplicates.append(.init(key: key, at: here, first: first))
                continue
            }
            layout.keys[key] = here
            layout.values[key] = YAMLLayout.Position(line: pair.value.line, column: pair.value.column)
            switch pair.value.kind {
            case .mapping(let children):
                layout.sections.insert(key)
                pending.append(contentsOf: children.map { (key, $0) })
            case .scalar(let scalar):
                values[key] = .scalar(scalar)
            case .sequence(let items):
                layout.items[key] = items.map { YAMLLayout.Position(line: $0.line, column: $0.column) }
                values[key] = .sequence(
                    try items.map { (item) throws(YAMLError) in
                        guard let scalar = item.scalar else {
                            throw YAMLError(description: "\(key): the list item at line \(item.line) is not a scalar")
                        }
                        return scalar
                    })
            }
        }
        return values
    }

    /// The value of a dotted key as `type`: nil when the key is absent, an
    /// error when its value is not one.
    func value(forKey key: String, type: ConfigType) throws(YAMLError) -> ConfigContent? {
        guard let value = values[key] else { return nil }
        guard let content = Self.content(value, as: type) else {
            throw YAMLError(description: "\(key) is not a \(type)")
        }
        return content
    }

    /// The value as `type`, nil when it is not one.
    static func content(_ value: Value, as type: ConfigType) -> ConfigContent? {
        switch (value, type) {
        case (.scalar(let scalar), .string): return .string(scalar.text)
        case (.scalar(let scalar), .int): return YAMLScalar.int(scalar.text, plain: scalar.plain).map { .int($0) }
        case (.scalar(let scalar), .double): return YAMLScalar.double(scalar.text, plain: scalar.plain).map { .double($0) }
        case (.scalar(let scalar), .bool): return YAMLScalar.bool(scalar.text, plain: scalar.plain).map { .bool($0) }
        case (.sequence(let items), .stringArray): return .stringArray(items.map(\.text))
        case (.sequence(let items), .intArray): return all(items, YAMLScalar.int).map { .intArray($0) }
        case (.sequence(let items), .doubleArray): return all(items, YAMLScalar.double).map { .doubleArray($0) }
        case (.sequence(let items), .boolArray): return all(items, YAMLScalar.bool).map { .boolArray($0) }
        default:
            // Scalars as lists, lists as scalars.
            return nil
        }
    }

    private static func all<T>(_ items: [YAMLNode.Scalar], _ convert: (String, Bool) -> T?) -> [T]? {
        var result: [T] = []
        for item in items {
            guard let converted = convert(item.text, item.plain) else { return nil }
            result.append(converted)
        }
        return result
    }
}

/// YAML 1.1's resolution of plain scalars to numbers and booleans.
enum YAMLScalar {
    static func bool(_ text: String, plain: Bool) -> Bool? {
        guard plain else { return nil }
        switch text.lowercased() {
        case "true", "yes", "on": return true
        case "false", "no", "off": return false
        default: return nil
        }
    }

    static func int(_ text: String, plain: Bool) -> Int? {
        guard plain else { return nil }
        var digits = Substring(text.filter { $0 != "_" })
        let negative = digits.hasPrefix("-")
        if negative || digits.hasPrefix("+") { digits = digits.dropFirst() }
        // Signs inside the digits would be accepted by `Int(_:radix:)`.
        guard !digits.isEmpty, !digits.contains("-"), !digits.contains("+") else { return nil }
        var radix = 10
        for (prefix, base) in [("0x", 16), ("0b", 2), ("0o", 8), ("0", 8)] where digits.count > 1 && digits.hasPrefix(prefix) {
            digits = digits.dropFirst(prefix.count)
            radix = base
            break
        }
        guard !digits.isEmpty else { return nil }
        return Int((negative ? "-" : "") + digits, radix: radix)
    }

    static func double(_ text: String, plain: Bool) -> Double? {
        guard plain else { return nil }
        switch text.lowercased() {
        case ".inf", "+.inf": return .infinity
        case "-.inf": return -.infinity
        case ".nan": return .nan
        default:
            let digits = text.filter { $0 != "_" }
            // Swift also reads "inf", "nan" and hexadecimal floats, which YAML does not.
            guard let first = digits.first, first.isNumber || first == "-" || first == "+" || first == "." else { return nil }
            guard !digits.lowercased().contains("x"), !digits.lowercased().contains("n") else { return nil }
            return Double(digits)
        }
    }
}

/// Where things are in a configuration file: each dotted key's own position and
/// its value's, list items' positions, which keys are sections (mappings), and
/// keys given twice. The loader uses it to name line and column in every error.
struct YAMLLayout: Sendable, Equatable {
    struct Position: Sendable, Hashable {
        var line: Int
        var column: Int
    }

    struct Duplicate: Sendable, Hashable {
        var key: String
        var at: Position
        var first: Position
    }

    var keys: [String: Position] = [:]
    var values: [String: Position] = [:]
    var items: [String: [Position]] = [:]
    var sections: Set<String> = []
    var duplicates: [Duplicate] = []
}
