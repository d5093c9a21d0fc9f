/// The checks that make a configuration file strict: every key must be one
/// insetd reads, given once, with a section where a section belongs and a value
/// where a value belongs. A misspelt key would otherwise be ignored and its
/// default used without a word; each problem names the line, the column and
/// the closest known key.
extension ConfigurationValues {
    func structureProblems(in layout: YAMLLayout) -> [ConfigurationError.Problem] {
        let leaves = Set(known)
        var sections: Set<String> = []
        for key in known {
            var parts = key.split(separator: ".").dropLast()
            while !parts.isEmpty {
                sections.insert(parts.joined(separator: "."))
                parts = parts.dropLast()
            }
        }
        var problems: [ConfigurationError.Problem] = []
        func add(_ key: String, _ why: String, at position: YAMLLayout.Position?) {
            problems.append(.init(key: key, value: "", why: why, line: position?.line, column: position?.column, quotesValue: false))
        }
        for (key, position) in layout.keys.sorted(by: { ($0.value.line, $0.value.column) < ($1.value.line, $1.value.column) }) {
            let parents = Self.parents(of: key)
            // One problem per subtree: below an unknown key or a value, say nothing more.
            if parents.contains(where: { leaves.contains($0) || !sections.contains($0) }) { continue }
            if leaves.contains(key) {
                if layout.sections.contains(key) { add(key, "takes a value, not a section of keys", at: position) }
            } else if sections.contains(key) {
                if !layout.sections.contains(key) && !Self.isNull(reader: reader, key: key) {
                    let children = known.filter { $0.hasPrefix(key + ".") }.map { String($0.dropFirst(key.count + 1)) }
                    add(key, "is a section (\(children.joined(separator: ", "))), not a value", at: position)
                }
            } else {
                let candidates = known + sections.sorted()
                add(key, "unknown key; did you mean '\(Self.closest(to: key, among: candidates))'?", at: position)
            }
        }
        for duplicate in layout.duplicates {
            add(
                duplicate.key, "is given twice (first at line \(duplicate.first.line), column \(duplicate.first.column))",
                at: duplicate.at)
        }
        return problems.sorted { ($0.line ?? 0, $0.column ?? 0) < ($1.line ?? 0, $1.column ?? 0) }
    }

    /// `a.b.c` -> `a`, `a.b`.
    static func parents(of key: String) -> [String] {
        let parts = key.split(separator: ".")
        return (1..<max(parts.count, 1)).map { parts.prefix($0).joined(separator: ".") }
    }

    /// `keyboard:` with nothing under it (every key commented out) is an empty
    /// section, not a value.
    static func isNull(reader: ConfigFileReader, key: String) -> Bool {
        guard let text = reader.string(forKey: key) else { return false }
        return ["", "~", "null", "Null", "NULL"].contains(text)
    }

    /// The known key nearest to `key`: by edit distance over the whole dotted
    /// key, or over its last part alone (a right name in the wrong section, or
    /// a section left out: `portait-height` -> `keyboard.portrait-height`).
    static func closest(to key: String, among known: [String]) -> String {
        let name = key.split(separator: ".").last.map(String.init) ?? key
        func distance(_ candidate: String) -> Int {
            let last = candidate.split(separator: ".").last.map(String.init) ?? candidate
            return min(editDistance(key, candidate), editDistance(name, last) + 1)
        }
        return known.min { distance($0) < distance($1) } ?? ""
    }

    /// Levenshtein distance, by characters.
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        var previous = Array(0...b.count)
        for i in 1...max(a.count, 1) where !a.isEmpty {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in stride(from: 1, through: b.count, by: 1) {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return a.isEmpty ? b.count : previous[b.count]
    }
}
