#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Compares replayed output lines with a recorded output file, byte for byte,
/// and describes the first difference so a person sees where a run diverged.
public struct OutputComparison: Sendable, Equatable {
    /// 1-based line of the first difference; nil when the streams are identical.
    public var line: Int?
    public var expected: String?
    public var replayed: String?
    /// Lines compared equal before the difference (all of them when none).
    public var matching: Int
    /// The recording's last line was cut short and was left out of the comparison.
    public var truncatedLastLine: Bool

    public var isIdentical: Bool { line == nil }

    public static func compare(replayed: [Data], recorded: Data) -> OutputComparison {
        var (lines, truncated) = splitLines(recorded)
        if truncated { lines.removeLast() }
        // Replayed lines end in a newline; recorded ones were split on it.
        let replayedLines = replayed.map { $0.last == UInt8(ascii: "\n") ? $0.dropLast() : $0[...] }
        let common = min(lines.count, replayedLines.count)
        for index in 0..<common where !lines[index].elementsEqual(replayedLines[index]) {
            return OutputComparison(
                line: index + 1, expected: text(lines[index]), replayed: text(replayedLines[index]), matching: index,
                truncatedLastLine: truncated)
        }
        guard lines.count == replayedLines.count else {
            return OutputComparison(
                line: common + 1, expected: lines.count > common ? text(lines[common]) : nil,
                replayed: replayedLines.count > common ? text(replayedLines[common]) : nil, matching: common,
                truncatedLastLine: truncated)
        }
        return OutputComparison(line: nil, matching: common, truncatedLastLine: truncated)
    }

    /// "first difference at output line 3:" and both sides, or nil when identical.
    public func report(recordedName: String) -> String? {
        guard let line else { return nil }
        return """
            first difference at output line \(line) (\(matching) lines before it are identical):
              \(recordedName): \(expected ?? "(ends here)")
              replay: \(replayed ?? "(ends here)")
            """
    }

    private static func text(_ bytes: some Collection<UInt8>) -> String { String(decoding: bytes, as: UTF8.self) }
}
