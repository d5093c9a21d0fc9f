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
        // A socket read is contiguous: split it at newlines a segment at a time
        // rather than a byte at a time.
        if let out = bytes.withContiguousStorageIfAvailable({ feed(contiguous: $0) }) { return out }
        return Array(bytes).withUnsafeBufferPointer { feed(contiguous: $0) }
    }

    private mutating func feed(contiguous chunk: UnsafeBufferPointer<UInt8>) -> [Output] {
        var out: [Output] = []
        var start = 0
        while start < chunk.count {
            let newline = chunk[start...].firstIndex(of: UInt8(ascii: "\n"))
            let segment = chunk[start..<(newline ?? chunk.count)]
            // Checked before copying: never more than `limit` bytes held. A
            // carriage return counts towards the limit, though it is dropped.
            guard buffer.count + segment.count <= limit else {
                buffer = []
                out.append(.tooLong)
                return out
            }
            buffer.append(contentsOf: segment)
            guard let newline else { break }
            if buffer.last == UInt8(ascii: "\r") { buffer.removeLast() }
            if !buffer.isEmpty { out.append(.line(buffer)) }
            buffer.removeAll(keepingCapacity: true)
            start = newline + 1
        }
        return out
    }

    /// Bytes of an unfinished line held now.
    public var pendingCount: Int { buffer.count }
}
