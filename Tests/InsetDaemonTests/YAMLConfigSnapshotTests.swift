import Testing

@testable import InsetDaemon

/// The configuration file's YAML rules (libyaml parsing, YAML 1.1 scalar
/// resolution, dotted keys) and its errors, each with the position it names.
@Suite struct YAMLConfigSnapshotTests {
    static func snapshot(_ text: String) throws -> YAMLConfigSnapshot {
        let bytes = Array(text.utf8)
        return try YAMLConfigSnapshot(data: bytes.span.bytes)
    }

    static func parseError(_ text: String) -> String? {
        do {
            _ = try snapshot(text)
            return nil
        } catch {
            return "\(error)"
        }
    }

    @Test(arguments: [
        ("42", 42), ("-7", -7), ("+7", 7), ("1_000", 1000), ("0x1F", 31), ("0o17", 15), ("017", 15), ("0b101", 5),
        ("0", 0), ("-0x10", -16),
    ])
    func plainIntegers(_ text: String, _ value: Int) {
        #expect(YAMLScalar.int(text, plain: true) == value)
    }

    @Test(arguments: ["", "4.5", "abc", "08", "0x", "1-2", "--1", "+-1", "0x-1", "1 000", "9223372036854775808"])
    func notIntegers(_ text: String) {
        #expect(YAMLScalar.int(text, plain: true) == nil)
    }

    @Test func quotedScalarsAreNeverNumbersOrBooleans() {
        #expect(YAMLScalar.int("42", plain: false) == nil)
        #expect(YAMLScalar.double("4.5", plain: false) == nil)
        #expect(YAMLScalar.bool("true", plain: false) == nil)
    }

    @Test(arguments: [
        ("true", true), ("True", true), ("YES", true), ("on", true), ("false", false), ("No", false), ("OFF", false),
    ])
    func plainBooleans(_ text: String, _ value: Bool) {
        #expect(YAMLScalar.bool(text, plain: true) == value)
    }

    @Test(arguments: ["y", "n", "1", "0", "", "truthy"])
    func notBooleans(_ text: String) {
        #expect(YAMLScalar.bool(text, plain: true) == nil)
    }

    @Test(arguments: [
        ("4.5", 4.5), ("-1e3", -1000), ("1_000.5", 1000.5), (".5", 0.5), ("336", 336), (".inf", .infinity),
        ("-.Inf", -.infinity),
    ])
    func plainDoubles(_ text: String, _ value: Double) {
        #expect(YAMLScalar.double(text, plain: true) == value)
    }

    @Test(arguments: ["inf", "nan", "infinity", "0x1p3", "abc", "", "1.2.3"])
    func notDoubles(_ text: String) {
        #expect(YAMLScalar.double(text, plain: true) == nil)
    }

    @Test func nestedMappingsBecomeDottedKeysAndListsStayLists() throws {
        let snapshot = try Self.snapshot("""
            # a comment
            a:
              b: {c: "x y", d: 3}
              list: [one, "two", 3]
            top: ~
            empty: {}
            """)
        typealias Scalar = YAMLNode.Scalar
        #expect(snapshot.values == [
            "a.b.c": .scalar(Scalar(text: "x y", plain: false)), "a.b.d": .scalar(Scalar(text: "3", plain: true)),
            "a.list": .sequence([
                Scalar(text: "one", plain: true), Scalar(text: "two", plain: false), Scalar(text: "3", plain: true),
            ]),
            "top": .scalar(Scalar(text: "~", plain: true)),
        ])
    }

    @Test func lookupsConvertOrThrow() throws {
        let snapshot = try Self.snapshot("n: 0x20\nq: \"5\"\nflags: [yes, off]\n")
        #expect(try snapshot.value(forKey: "n", type: .int) == .int(32))
        #expect(try snapshot.value(forKey: "q", type: .string) == .string("5"))
        #expect(try snapshot.value(forKey: "flags", type: .boolArray) == .boolArray([true, false]))
        #expect(try snapshot.value(forKey: "missing", type: .int) == nil)
        #expect(throws: YAMLError(description: "q is not a int")) {
            try snapshot.value(forKey: "q", type: .int)
        }
        #expect(throws: YAMLError(description: "n is not a stringArray")) {
            try snapshot.value(forKey: "n", type: .stringArray)
        }
    }

    @Test(arguments: ["", "# only a comment\n", "---\n", "--- ~\n", "\n\n"])
    func noDocumentIsNoValues(_ text: String) throws {
        #expect(try Self.snapshot(text).values.isEmpty)
    }

    @Test(arguments: [
        ("- a\n- b\n", "the top level (line 1) is not a mapping of keys to values"),
        ("just text\n", "the top level (line 1) is not a mapping of keys to values"),
        ("a: 1\n---\nb: 2\n", "a second YAML document starts at line 3"),
        ("a: [1, {b: 2}]\n", "a: the list item at line 1 is not a scalar"),
        ("a: [unclosed\n", "did not find expected ',' or ']' at line 2, column 1 (while parsing a flow sequence at line 1)"),
        ("a: 1\n\tb: 2\n", "found a tab character that violates indentation at line 2, column 1 (while scanning a plain scalar at line 1)"),
        ("a: *nowhere\n", "found undefined alias at line 1, column 4"),
    ])
    func unusableDocumentsSayWhy(_ text: String, _ why: String) {
        #expect(Self.parseError(text) == why)
    }

    @Test func invalidUTF8NamesTheByte() {
        let bytes: [UInt8] = Array("a: ".utf8) + [0xFF] + Array("\n".utf8)
        #expect(throws: YAMLError(description: "invalid leading UTF-8 octet at byte 3")) {
            try YAMLConfigSnapshot(data: bytes.span.bytes)
        }
    }

    /// "Billion laughs": nine levels of nine aliases each would be 387 million values.
    @Test func aliasesThatMultiplyAreBounded() {
        var text = "a0: &a0 [x, x, x, x, x, x, x, x, x]\n"
        for level in 1...9 {
            let previous = Array(repeating: "*a\(level - 1)", count: 9).joined(separator: ", ")
            text += "a\(level): &a\(level) [\(previous)]\n"
        }
        #expect(Self.parseError(text) == "more than 10000 values (aliases repeat a subtree too often)")
    }

    @Test func nestingIsBounded() {
        let deep = String(repeating: "[", count: 100) + String(repeating: "]", count: 100)
        #expect(Self.parseError("a: \(deep)\n") == "nested deeper than 64 levels at line 1")
    }
}
