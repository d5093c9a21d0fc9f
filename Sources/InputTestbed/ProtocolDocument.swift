#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc

/// docs/PROTOCOL.md as the tests read it: its examples, each a fenced block
/// marked with its role (```json client, ```json daemon, ```json timeline),
/// one JSON message per line. One reader for every test that sends, decodes or
/// validates the documented messages.
public enum ProtocolDocument {
    /// The project's root, from this file's place in it.
    public static let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    public static let url = repositoryRoot.appendingPathComponent("docs/PROTOCOL.md")

    public static func markdown() throws -> String {
        try String(contentsOf: url, encoding: .utf8)
    }

    /// Every line of every block marked ```json ROLE, in the document's order.
    public static func examples(_ role: String) throws -> [String] {
        var result: [String] = []
        var inBlock = false
        for line in try markdown().split(separator: "\n", omittingEmptySubsequences: false) {
            if line == "```json \(role)" {
                inBlock = true
            } else if line.hasPrefix("```") {
                inBlock = false
            } else if inBlock {
                result.append(String(line))
            }
        }
        return result
    }
}
