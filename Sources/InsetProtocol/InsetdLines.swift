#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import InsetCore

/// What a client does with the bytes insetd sends, apart from reading them off
/// a socket: splits them into lines under `LineFramer`'s limit and decodes each
/// through `DaemonMessageDecoder`, with this connection's id learned from the
/// welcome. One type for it, so a blocking reader, a poll loop and an event
/// loop (the Swift client's NIO channel) all read insetd the same way.
public struct InsetdLines: Sendable {
    /// Why no more lines can come from this stream.
    public enum Failure: Error, Equatable, Sendable {
        /// The peer closed the connection.
        case closed
        /// A line longer than the limit: the stream cannot be resynchronised.
        case tooLong
        /// `poll(2)`, `read(2)` or `send(2)` failed with this errno.
        case failed(errno: Int32)
    }

    private var framer: LineFramer
    /// This connection's id, from the welcome: adjustments name their view with it.
    public private(set) var client = ClientID("")

    public init(limit: Int = LineFramer.defaultLimit) {
        framer = LineFramer(limit: limit)
    }

    /// The longest line accepted.
    public var limit: Int { framer.limit }

    /// Bytes of an unfinished line held now.
    public var pendingCount: Int { framer.pendingCount }

    /// The complete lines in `bytes` (and what came before), without their newlines.
    public mutating func split(_ bytes: some Sequence<UInt8>) throws(Failure) -> [[UInt8]] {
        var lines: [[UInt8]] = []
        for output in framer.feed(bytes) {
            switch output {
            case .line(let line): lines.append(line)
            case .tooLong: throw .tooLong
            }
        }
        return lines
    }

    /// The message `line` holds, nil when it is none this build knows (a newer
    /// insetd's). A welcome sets `client`.
    public mutating func decode(_ line: [UInt8]) -> DaemonMessage? {
        try? decodeOrThrow(line)
    }

    /// As `decode`, with the decoder's reason when the line is no message.
    public mutating func decodeOrThrow(_ line: [UInt8]) throws(ProtocolError) -> DaemonMessage {
        let message = try DaemonMessageDecoder.decode(line, client: client)
        if case .welcome(_, let id, _, _) = message { client = ClientID(id) }
        return message
    }

    /// The hello every client opens with, naming itself `client`.
    public static func hello(client: String) -> ClientRequest {
        ClientRequest(message: .hello(versions: supportedProtocolVersions, client: client))
    }
}
