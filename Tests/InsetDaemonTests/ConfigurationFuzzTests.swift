import Foundation
import InsetDaemon
import PropertyBased
import Testing

/// Random, truncated and mutated configuration files: each gives a usable
/// configuration or a `ConfigurationError` that names the file and says what is
/// wrong. A crash ends the test process, so getting through is itself the check.
@Suite struct ConfigurationFuzzTests {
    static let shipped = try! String(
        contentsOf: repositoryRoot.appendingPathComponent("config/insetd.yaml"), encoding: .utf8)

    /// Loads `text` and checks the outcome is one of the two allowed ones.
    static func expectClearOutcome(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let path = try temporaryConfig(text)
        defer { try? FileManager.default.removeItem(atPath: path) }
        do {
            _ = try await DaemonConfigurationLoader.load(path: path)
        } catch {
            #expect(!error.problems.isEmpty, sourceLocation: sourceLocation)
            for line in error.description.split(separator: "\n") {
                #expect(line.hasPrefix("\(path):"), "\(line)", sourceLocation: sourceLocation)
                #expect(line.count > path.count + 8, "an error must say what is wrong: \(line)", sourceLocation: sourceLocation)
            }
        }
    }

    @Test func everyTruncationOfTheShippedFileIsUsableOrAClearError() async throws {
        let bytes = Array(Self.shipped.utf8)
        // Every 7th cut plus every line end: about 600 files.
        var cuts = Set(stride(from: 0, to: bytes.count, by: 7))
        for (index, byte) in bytes.enumerated() where byte == UInt8(ascii: "\n") { cuts.insert(index) }
        for cut in cuts.sorted() {
            try await Self.expectClearOutcome(String(decoding: bytes[..<cut], as: UTF8.self))
        }
    }

    /// Found by `mutatedShippedFilesAreUsableOrAClearError` (when Yams parsed the file):
    /// a mapping key that is not a scalar made Yams trap. Now it is an error naming where.
    @Test(arguments: [
        ("[a]: 1\n", "line 1, column 1"), ("screen: {[w]: 1}\n", "line 1, column 10"),
        ("? {x: 1}\n: 2\n", "line 1, column 3"), ("keyboard:\n  ? [mode]\n  : auto\n", "line 2, column 5"),
    ])
    func aKeyThatIsNotAScalarIsAClearError(_ text: String, position: String) async throws {
        let path = try temporaryConfig(text)
        let error = await #expect(throws: ConfigurationError.self) { try await DaemonConfigurationLoader.load(path: path) }
        #expect(error?.description == "\(path): (file): '\(path)' cannot be read as YAML: the key at \(position) is not a scalar (a name)")
    }

    static let alphabet: [Character] = Array("abcdefghijklmnopqrstuvwxyz-_.0123456789 :\n\t{}[],\"'#&*!|>%@`\\-~?")
    static let yamlish = Gen.int(in: 0...(alphabet.count - 1)).array(of: 0...400).map { String($0.map { alphabet[$0] }) }

    @Test func randomYAMLishTextIsUsableOrAClearError() async {
        await propertyCheck(count: 300, input: Self.yamlish) { text in
            try? await Self.expectClearOutcome(text)
        }
    }

    static let mutations = zip(Gen.int(in: 0...100_000), Gen.uint8(in: 0...255)).array(of: 1...12)

    @Test func mutatedShippedFilesAreUsableOrAClearError() async {
        let bytes = Array(Self.shipped.utf8)
        await propertyCheck(count: 300, input: Self.mutations) { edits in
            var mutated = bytes
            for (position, byte) in edits { mutated[position % mutated.count] = byte }
            try? await Self.expectClearOutcome(String(decoding: mutated, as: UTF8.self))
        }
    }
}
