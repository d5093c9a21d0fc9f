import InsetCore
import InsetProtocol
import NIOConcurrencyHelpers
import NIOCore

/// Where the daemon's core sends its messages: to clients by id, to everyone,
/// or to a topic's subscribers. The server implements it over its sessions
/// (whatever transport they arrived on); tests implement it to record.
///
/// Why: the core decides what each client hears; the server owns who the
/// clients are, what they subscribed to, and how bytes reach them. The core
/// never holds a connection.
package protocol ClientOutbox: AnyObject, Sendable {
    func send(_ message: DaemonMessage, to client: ClientID)
    /// One line encoded elsewhere (a timeline entry) to one client.
    func send(line: [UInt8], to client: ClientID)
    /// One encoded line to every client that said hello; a client in `special`
    /// gets its own line instead (the keyboard notification's `isLocal`).
    func broadcast(_ line: [UInt8], replacing special: [ClientID: [UInt8]])
    /// One encoded line to the clients subscribed to `topic`.
    func publish(_ line: [UInt8], to topic: Topic)
    func subscribe(_ client: ClientID, to topics: [Topic])
    /// False once the client has gone (its queued requests can be skipped).
    func isConnected(_ client: ClientID) -> Bool
    /// Clients that have completed `hello`.
    var clientCount: Int { get }
}

/// The server's clients: every connection, whether it said hello, and what it
/// subscribed to. Shared by every transport's sessions.
final class ClientRegistry: Sendable {
    struct Entry {
        var connection: ClientConnection
        var joined = false
        var topics: Set<Topic> = []
    }

    private let entries = NIOLockedValueBox([ClientID: Entry]())

    func add(_ connection: ClientConnection) {
        entries.withLockedValue { $0[connection.id] = Entry(connection: connection) }
    }

    func remove(_ id: ClientID) {
        _ = entries.withLockedValue { $0.removeValue(forKey: id) }
    }

    func markJoined(_ id: ClientID) {
        entries.withLockedValue { $0[id]?.joined = true }
    }

    func connection(_ id: ClientID) -> ClientConnection? { entries.withLockedValue { $0[id]?.connection } }

    var connections: [ClientConnection] { entries.withLockedValue { $0.values.map(\.connection) } }
    var count: Int { entries.withLockedValue { $0.count } }
    var joinedCount: Int { entries.withLockedValue { $0.values.count { $0.joined } } }

    func subscribe(_ id: ClientID, to topics: [Topic]) {
        entries.withLockedValue { $0[id]?.topics.formUnion(topics) }
    }

    /// The joined connections, with whether each is subscribed to `topic`.
    func joined(subscribedTo topic: Topic? = nil) -> [ClientConnection] {
        entries.withLockedValue { entries in
            entries.values.compactMap { entry in
                guard entry.joined, topic.map(entry.topics.contains) ?? true else { return nil }
                return entry.connection
            }
        }
    }
}

extension InsetServer: ClientOutbox {
    package func send(_ message: DaemonMessage, to client: ClientID) {
        guard let connection = registry.connection(client) else { return }
        if case .adjustment(let view, let adjustment) = message {
            connection.send(framed: adjustmentLines.wire(view: view, adjustment, for: connection.framing), coalescingView: view)
        } else {
            connection.send(message)
        }
    }

    package func send(line: [UInt8], to client: ClientID) {
        guard let connection = registry.connection(client) else { return }
        connection.send(framed: connection.framing.wire(line))
    }

    package func broadcast(_ line: [UInt8], replacing special: [ClientID: [UInt8]]) {
        // Encoded once, framed once per framing: every client's queue shares the buffer.
        var shared = SharedLine(line)
        for connection in registry.joined() {
            if !special.isEmpty, let own = special[connection.id] {
                connection.send(framed: connection.framing.wire(own))
            } else {
                connection.send(framed: shared.wire(for: connection.framing))
            }
        }
    }

    package func publish(_ line: [UInt8], to topic: Topic) {
        var shared = SharedLine(line)
        for connection in registry.joined(subscribedTo: topic) { connection.send(framed: shared.wire(for: connection.framing)) }
    }

    package func subscribe(_ client: ClientID, to topics: [Topic]) {
        registry.subscribe(client, to: topics)
    }

    package func isConnected(_ client: ClientID) -> Bool {
        registry.connection(client)?.isOpen ?? false
    }

    package var clientCount: Int { registry.joinedCount }
}
