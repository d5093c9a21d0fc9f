import Glibc

/// Unbuffered writes to standard output and error, straight to the
/// descriptors: FoundationEssentials has no `FileHandle`, and full Foundation
/// would bring ICU's data into insetctl for these two calls.
enum StandardStreams {
    /// Writes all of `bytes` to `descriptor` (1 or 2), retrying short writes.
    static func write<Bytes: Collection<UInt8>>(_ bytes: Bytes, to descriptor: Int32) {
        var remaining = Array(bytes)[...]
        while !remaining.isEmpty {
            let written = remaining.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            if written < 0, errno == EINTR { continue }
            guard written > 0 else { return }
            remaining = remaining.dropFirst(written)
        }
    }

    /// A line on standard error.
    static func printError(_ text: String) {
        write((text + "\n").utf8, to: 2)
    }
}
