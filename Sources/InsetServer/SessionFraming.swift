import InsetProtocol
import NIOCore

/// How a session's messages travel, as its transport frames them
/// (`SessionFraming.lines` on the Unix socket, `.messages` on a WebSocket).
///
/// The one place in the server where a daemon message becomes bytes: the
/// protocol's encoder (`DaemonMessage.lineBytes()`, the wire format's one
/// owner) writes its line here, and the framing makes it what a session's
/// channel sends. Everything else in the server, and the daemon's core,
/// hands on typed messages, so a connection stages and queues bytes that are
/// ready to go: a broadcast is encoded once, framed once per framing and
/// shared by every session of that framing, and nothing below the session
/// copies or re-frames per client. A value, not a type per transport: a
/// connection keeps its framing beside its hot state, and a broadcast
/// compares framings per client.
struct SessionFraming: Sendable, Hashable, CustomStringConvertible {
    /// Names the framing; two framings are the same when their names are.
    let name: String
    /// The most bytes the framing adds to a line.
    let overhead: Int
    /// Whether a line goes out as it is: then a line's own buffer is sent,
    /// shared and never copied.
    let sendsLinesAsTheyAre: Bool
    /// Appends one encoded line as this framing sends it.
    private let appendLine: @Sendable (_ line: UnsafeRawBufferPointer, _ buffer: inout ByteBuffer) -> Void

    init(
        name: String, overhead: Int, sendsLinesAsTheyAre: Bool,
        appendLine: @escaping @Sendable (_ line: UnsafeRawBufferPointer, _ buffer: inout ByteBuffer) -> Void
    ) {
        self.name = name
        self.overhead = overhead
        self.sendsLinesAsTheyAre = sendsLinesAsTheyAre
        self.appendLine = appendLine
    }

    static func == (a: SessionFraming, b: SessionFraming) -> Bool { a.name == b.name }

    func hash(into hasher: inout Hasher) { hasher.combine(name) }

    var description: String { name }

    /// `line` as this framing sends it.
    func wire(_ line: ByteBuffer) -> ByteBuffer {
        if sendsLinesAsTheyAre { return line }
        var buffer = ByteBuffer()
        buffer.reserveCapacity(line.readableBytes + overhead)
        line.withUnsafeReadableBytes { appendLine($0, &buffer) }
        return buffer
    }

    /// `message` as this framing sends it, encoded and framed into one buffer.
    func wire(_ message: DaemonMessage) -> ByteBuffer {
        let line = Self.line(message)
        var buffer = ByteBuffer()
        buffer.reserveCapacity(line.count + overhead)
        line.withUnsafeBytes { appendLine($0, &buffer) }
        return buffer
    }

    /// Appends `message` as this framing sends it.
    func append(_ message: DaemonMessage, to buffer: inout ByteBuffer) {
        Self.line(message).withUnsafeBytes { appendLine($0, &buffer) }
    }

    /// `message`'s line, by the protocol's encoder: the server's only call of it.
    fileprivate static func line(_ message: DaemonMessage) -> [UInt8] { message.lineBytes() }
}

/// One message sent to many sessions (a broadcast, a topic's message, an
/// adjustment many clients share): encoded once, framed at most once per
/// framing, and that buffer shared by every session of the framing.
struct SharedLine {
    private let line: ByteBuffer
    /// The line as the one framing that frames lines made it.
    private var frame: (framing: SessionFraming, bytes: ByteBuffer)?

    init(_ message: DaemonMessage) {
        line = ByteBuffer(bytes: SessionFraming.line(message))
    }

    mutating func wire(for framing: SessionFraming) -> ByteBuffer {
        if framing.sendsLinesAsTheyAre { return line }
        if let frame, frame.framing == framing { return frame.bytes }
        let framed = framing.wire(line)
        frame = (framing, framed)
        return framed
    }
}
