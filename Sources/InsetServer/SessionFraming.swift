import NIOCore

/// How a session's messages travel, as its transport frames them
/// (`SessionFraming.lines` on the Unix socket, `.messages` on a WebSocket).
///
/// The one place where a daemon message (an encoded line, ending in a newline)
/// becomes what a session's channel sends, so a connection stages and queues
/// bytes that are ready to go: a broadcast is framed once per framing and
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

    /// An encoded line (`DaemonMessage.lineBytes()`) as this framing sends it,
    /// written once into one buffer.
    func wire(_ line: [UInt8]) -> ByteBuffer {
        var buffer = ByteBuffer()
        buffer.reserveCapacity(line.count + overhead)
        append(line, to: &buffer)
        return buffer
    }

    /// Appends an encoded line as this framing sends it.
    func append(_ line: [UInt8], to buffer: inout ByteBuffer) {
        line.withUnsafeBytes { appendLine($0, &buffer) }
    }
}

/// One encoded line sent to many sessions (a broadcast, a topic's message):
/// framed at most once per framing, and that buffer shared by every session
/// of the framing.
struct SharedLine {
    private let line: ByteBuffer
    /// The line as the one framing that frames lines made it.
    private var frame: (framing: SessionFraming, bytes: ByteBuffer)?

    init(_ line: [UInt8]) {
        self.line = ByteBuffer(bytes: line)
    }

    mutating func wire(for framing: SessionFraming) -> ByteBuffer {
        if framing.sendsLinesAsTheyAre { return line }
        if let frame, frame.framing == framing { return frame.bytes }
        let framed = framing.wire(line)
        frame = (framing, framed)
        return framed
    }
}
