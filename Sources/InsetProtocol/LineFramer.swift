/// Splits a byte stream into newline-terminated lines, refusing any line longer
/// than `limit` bytes (64 KiB by default) without buffering more than that.
public struct LineFramer: Sendable {
    public static let defaultLimit = 64 * 1024

    public let limit: Int
    private var buffer: [UInt8] = []

    public init(limit: Int = LineFramer.defaultLimit) {
        self.limit = limit
    }

    /// What a chunk of input produced.
    public enum Output: Hashable, Sendable {
        case line([UInt8])
        /// The current line passed the limit; the stream cannot be resynchronised
        /// reliably, so the caller reports it and closes.
        case tooLong
    }

    /// Feeds bytes; returns the complete lines in order (without `\n`, and without
    /// a trailing `\r`). Stops at `.tooLong`.
    public mutating func feed(_ bytes: some Sequence<UInt8>) -> [Output] {
        var out: [Output] = []
        for byte in bytes {
            if byte == UInt8(ascii: "\n") {
                if buffer.last == UInt8(ascii: "\r") { buffer.removeLast() }
                if !buffer.isEmpty { out.append(.line(buffer)) }
                buffer.removeAll(keepingCapacity: true)
            } else {
                buffer.append(byte)
                if buffer.count > limit {
                    buffer = []
                    out.append(.tooLong)
                    return out
                }
            }
        }
        return out
    }

    /// Bytes of an unfinished line held now.
    public var pendingCount: Int { buffer.count }
}
