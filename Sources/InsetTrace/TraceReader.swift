#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import InsetProtocol

/// A trace that cannot be replayed, with the file and line that says why.
public struct TraceError: Error, Hashable, Sendable, CustomStringConvertible {
    public var file: String
    /// 1-based; 0 when the problem is the file as a whole.
    public var line: Int
    public var message: String

    public init(file: String, line: Int, _ message: String) {
        self.file = file
        self.line = line
        self.message = message
    }

    public var description: String { line > 0 ? "\(file):\(line): \(message)" : "\(file): \(message)" }
}

/// Turns the bytes of one trace file into records.
///
/// A daemon killed mid-write leaves its last line cut short: that line is
/// skipped with a warning, because everything before it is intact. A bad line
/// anywhere else means the file is not what insetd wrote, and is an error.
public enum TraceReader {
    public struct File: Sendable {
        public var name: String
        public var records: [TraceRecord]
        /// What was skipped and why, for the person replaying.
        public var warnings: [String]
    }

    public static func read(_ data: Data, name: String) throws(TraceError) -> File {
        let (lines, unterminated) = splitLines(data)
        var records: [TraceRecord] = []
        var warnings: [String] = []
        let decoder = JSONDecoder()
        for (index, line) in lines.enumerated() where !line.isEmpty {
            do {
                records.append(try decoder.decode(TraceRecord.self, from: Data(line)))
            } catch {
                if unterminated && index == lines.count - 1 {
                    warnings.append(
                        "\(name):\(index + 1): the last line is cut short (insetd stopped mid-write); skipped")
                    break
                }
                throw TraceError(file: name, line: index + 1, explain(error))
            }
        }
        return File(name: name, records: records, warnings: warnings)
    }

    private static func explain(_ error: any Error) -> String {
        if let error = error as? DecodingError, case .dataCorrupted(let context) = error, context.codingPath.isEmpty {
            return "not a JSON object: \(context.underlyingError.map { "\($0)" } ?? context.debugDescription)"
        }
        return ClientMessageDecoder.describe(error, in: "trace record")
    }
}
