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
/// lines with a timeout. Deliberately not the project's client library, so
/// server tests do not depend on it. Its blocking reads run on a queue of its
/// own: blocking the test's task would starve the server on a 2-core machine.
public final class LineClient: @unchecked Sendable {
    private let queue = DispatchQueue(label: "LineClient")
    public let fd: Int32
    private var reader: LineReader
    private let receiveTimeout: Double
    private var closed = false
    /// This connection's id, from the welcome: adjustments name their view with it.
    private var client = ClientID("")
    /// The last line `readMessage` could not decode, and why, for a test's report.
    public private(set) var undecoded: (line: String, error: ProtocolError)?

    public init(path: String, receiveTimeout: Double = 3) throws {
        fd = try UnixSocket.connect(path)
        reader = LineReader(descriptor: fd)
        self.receiveTimeout = receiveTimeout
        var timeout = timeval(tv_sec: Int(receiveTimeout), tv_usec: Int((receiveTimeout - Double(Int(receiveTimeout))) * 1e6))
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit { close() }

    /// Closes the connection now (closing twice is harmless). Call it from the
    /// task that owns the client, with no read pending.
    public func close() {
        guard !closed else { return }
        closed = true
        Glibc.close(fd)
    }

    public func send(_ text: String) {
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            if written <= 0 { return }
            offset += written
        }
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
        (try? reader.line(timeout: receiveTimeout)).flatMap { $0 }.map { String(decoding: $0, as: UTF8.self) }
    }

    /// The next line, read by the protocol's decoder (`DaemonMessageDecoder`);
    /// nil on timeout, at the end of the stream, or for a line that is not a
    /// daemon message (kept in `undecoded`).
    public func readMessage() async -> DaemonMessage? {
        guard let line = await readLine() else { return nil }
        do {
            let message = try DaemonMessageDecoder.decode(Data(line.utf8), client: client)
            if case .welcome(_, let id, _, _) = message { client = ClientID(id) }
            return message
        } catch {
            undecoded = (line, error)
            return nil
        }
    }

    /// True when the server has closed the connection (end of stream).
    public func isClosedByPeer() async -> Bool { await readLine() == nil && reader.pendingCount == 0 }
}
