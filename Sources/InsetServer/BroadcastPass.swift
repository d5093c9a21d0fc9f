import InsetCore
import InsetProtocol
import NIOCore

extension InsetServer {
    package func broadcast(_ messages: [BroadcastMessage], then adjustments: [ViewAdjustment]) {
        // Without messages, finding the few clients with adjustments beats a
        // pass over every client.
        guard !messages.isEmpty else { return adjustments.forEach(send) }
        var buffers = PassBuffers(messages, keyboardLines: keyboardLines)
        // Each client's adjustments together (the engine lists a pass's by
        // view): one visit per client. Otherwise the lines now, the
        // adjustments one by one, all written at the task's end.
        guard var runs = AdjustmentRuns(adjustments) else {
            for connection in registry.joined() { sendLines(&buffers, to: connection, inPass: false) }
            return adjustments.forEach(send)
        }
        // A client with several views of its own waits until every client
        // with one is served: its lines cost as much as many clients', and a
        // client that registers hundreds of views (or never reads what they
        // bring) must not hold up everyone else's change.
        var heavy: [(connection: ClientConnection, run: Range<Int>)] = []
        for connection in registry.joined() {
            let run = runs.take(connection.id)
            if let run, run.count > 1 {
                heavy.append((connection, run))
                continue
            }
            // The common case, a client with nothing waiting that gets what
            // many others get: one send of bytes the pass shares, and none of
            // the connection's buffers touched (as a C program writing the same
            // bytes to every client would do). The bytes are made only for a
            // client that can take them so.
            if !buffers.hasOwnLine(connection.id) {
                let sent = connection.sendAtOnce {
                    let adjustment = run.map { adjustments[$0.lowerBound] }.map {
                        adjustmentLines.encoded(view: $0.view.name, $0, for: connection.framing)
                    }
                    return buffers.bytes(for: connection.framing, then: adjustment)
                }
                if sent { continue }
            }
            sendInPass(&buffers, adjustments[run ?? 0..<0], to: connection)
        }
        for (connection, run) in heavy { sendInPass(&buffers, adjustments[run], to: connection) }
        // Clients that have not said hello get theirs as any send.
        for run in runs.remaining { adjustments[run].forEach(send) }
    }

    /// The pass's lines then `adjustments`, through the connection's own buffers.
    private func sendInPass(
        _ buffers: inout PassBuffers, _ adjustments: ArraySlice<ViewAdjustment>, to connection: ClientConnection
    ) {
        sendLines(&buffers, to: connection, inPass: true)
        for adjustment in adjustments {
            let view = adjustment.view.name
            connection.sendInPass(
                framed: adjustmentLines.wire(view: view, adjustment, for: connection.framing), coalescingView: view)
        }
        connection.endPass()
    }

    private func sendLines(_ buffers: inout PassBuffers, to connection: ClientConnection, inPass: Bool) {
        for index in buffers.messages.indices where !buffers.messages[index].skipped.contains(connection.id) {
            let bytes = buffers.line(index, for: connection)
            if inPass { connection.sendInPass(framed: bytes) } else { connection.send(framed: bytes) }
        }
    }

    private func send(_ adjustment: ViewAdjustment) {
        send(.adjustment(view: adjustment.view.name, adjustment), to: adjustment.view.client)
    }
}

/// A broadcast's bytes, made once and shared by every client of the pass: each
/// message encoded once and framed once per framing, and the lines followed by
/// one adjustment line as one buffer per framing and adjustment (many clients
/// get the same one).
struct PassBuffers {
    let messages: [BroadcastMessage]
    private var shared: [SharedLine]
    /// Clients that get a message of their own instead of one of `messages`, or none.
    private let ownLines: Set<ClientID>
    private let keyboardLines: KeyboardLines?
    /// The last joined buffer made for each framing, and the adjustment line
    /// it ends with (its `AdjustmentLines` generation; nil: none).
    private var joined: [(framing: SessionFraming, generation: Int?, bytes: ByteBuffer)] = []
    /// The generation of the adjustment line asked for last: a line is
    /// joined once a second client in a row asks for it.
    private var lastAsked: Int?

    /// The pass's lines; a keyboard notification's from `keyboardLines` (the
    /// server's lines of the last notifications) when given.
    init(_ messages: [BroadcastMessage], keyboardLines: KeyboardLines? = nil) {
        self.messages = messages
        shared = messages.map { keyboardLines?.line($0.message) ?? SharedLine($0.message) }
        ownLines = messages.reduce(into: []) {
            $0.formUnion($1.special.keys)
            $0.formUnion($1.skipped)
        }
        self.keyboardLines = keyboardLines
    }

    func hasOwnLine(_ client: ClientID) -> Bool { !ownLines.isEmpty && ownLines.contains(client) }

    /// Line `index` as `connection` gets it.
    mutating func line(_ index: Int, for connection: ClientConnection) -> ByteBuffer {
        if hasOwnLine(connection.id), let own = messages[index].special[connection.id] {
            guard let keyboardLines else { return connection.framing.wire(own) }
            var line = keyboardLines.line(own)
            return line.wire(for: connection.framing)
        }
        return shared[index].wire(for: connection.framing)
    }

    /// Every line then `adjustment`, framed by `framing`, in one buffer; nil
    /// for an adjustment line no other client of the pass has asked for yet.
    /// A buffer made for one client would be an allocation per client where
    /// every client's adjustment differs; the client's own staging buffer,
    /// reused from change to change, costs none.
    mutating func bytes(for framing: SessionFraming, then adjustment: (bytes: ByteBuffer, generation: Int)?)
        -> ByteBuffer?
    {
        if let made = joined.firstIndex(where: { $0.framing == framing }),
            joined[made].generation == adjustment?.generation
        {
            return joined[made].bytes
        }
        if let generation = adjustment?.generation {
            defer { lastAsked = generation }
            guard lastAsked == generation else { return nil }
        }
        var bytes = ByteBuffer()
        for index in shared.indices { bytes.writeImmutableBuffer(shared[index].wire(for: framing)) }
        if let adjustment { bytes.writeImmutableBuffer(adjustment.bytes) }
        joined.removeAll { $0.framing == framing }
        joined.append((framing, adjustment?.generation, bytes))
        return bytes
    }
}

/// Where each client's adjustments are in a pass's list: the engine lists a
/// pass's adjustments by view, so each client's come together. Nil when a
/// client's are not together (the broadcast then sends them one by one).
///
/// The runs are kept in list order and, for a few clients, found by a linear
/// search: a hotkey's change for one or two clients then builds no dictionary
/// (a `Dictionary` with its `ClientID` strings hashed was a fifth of the
/// broadcast's time on P1's path). Past `linearLimit` runs a dictionary finds them.
struct AdjustmentRuns {
    /// Each client's run in list order; nil once taken.
    private var runs: [(client: ClientID, range: Range<Int>?)] = []
    /// Where each client's run is in `runs`; empty up to `linearLimit` runs.
    private var positions: [ClientID: Int] = [:]
    static let linearLimit = 8

    init?(_ adjustments: [ViewAdjustment]) {
        var index = adjustments.startIndex
        while index < adjustments.endIndex {
            let client = adjustments[index].view.client
            var end = index + 1
            while end < adjustments.endIndex, adjustments[end].view.client == client { end += 1 }
            runs.append((client, index..<end))
            index = end
        }
        if runs.count <= Self.linearLimit {
            for later in runs.indices.dropFirst() where runs[..<later].contains(where: { $0.client == runs[later].client }) {
                return nil
            }
        } else {
            positions.reserveCapacity(runs.count)
            for (position, run) in runs.enumerated() {
                guard positions.updateValue(position, forKey: run.client) == nil else { return nil }
            }
        }
    }

    /// The run of `client`'s adjustments, once.
    mutating func take(_ client: ClientID) -> Range<Int>? {
        let found = positions.isEmpty ? runs.firstIndex { $0.client == client } : positions[client]
        guard let found, let range = runs[found].range else { return nil }
        runs[found].range = nil
        return range
    }

    /// Runs not taken, in list order.
    var remaining: [Range<Int>] { runs.compactMap(\.range) }
}
