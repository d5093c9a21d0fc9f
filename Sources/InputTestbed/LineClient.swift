#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Dispatch
import Glibc
import InsetCore
import InsetProtocol
import InsetSocket

/// A minimal client for tests: connects to a Unix socket, writes lines, reads
/// lines with a timeout, on the connection every Swift socket client shares
/// (`InsetdConnection`). Deliberately not the project's client library, so
/// server tests do not depend on it. Its blocking reads run on a queue of its
/// own: blocking the test's task would starve the server on a 2-core machine.
public final class LineClient: @unchecked Sendable {
    private let queue = DispatchQueue(label: "LineClient")
    private let connection: InsetdConnection
    private let receiveTimeout: Double
    /// The last line `readMessage` could not decode, and why, for a test's report.
    public private(set) var undecoded: (line: String, error: ProtocolError)?

    public init(path: String, receiveTimeout: Double = 3) throws {
        connection = try InsetdConnection(path: path)
        self.receiveTimeout = receiveTimeout
    }

    public var fd: Int32 { connection.descriptor }

    /// Closes the connection now (closing twice is harmless). Call it from the
    /// task that owns the client, with no read pending.
    public func close() {
        connection.close()
    }

    public func send(_ text: String) {
        connection.send(bytes: Array(text.utf8))
    }

    public func sendLine(_ text: String) { send(text + "\n") }

    /// The next line, or nil on timeout or end of stream.
    public func readLine() async -> String? {
        await withCheckedContinuation { continuation in
            queue.async { continuation.resume(returning: self.blockingReadLine()) }
        }
    }

    /// Waits at most the receive timeout.
    private func blockingReadLine() -> String? {
        (try? connection.line(timeout: receiveTimeout)).flatMap { $0 }.map { String(decoding: $0, as: UTF8.self) }
    }

    /// The next line, read by the protocol's decoder (`DaemonMessageDecoder`);
    /// nil on timeout, at the end of the stream, or for a line that is not a
    /// daemon message (kept in `undecoded`).
    public func readMessage() async -> DaemonMessage? {
        guard let line = await readLine() else { return nil }
        do {
            return try connection.decode(Array(line.utf8))
        } catch {
            undecoded = (line, error)
            return nil
        }
    }

    /// True when the server has closed the connection (end of stream).
    public func isClosedByPeer() async -> Bool { await readLine() == nil && connection.pendingCount == 0 }
}
