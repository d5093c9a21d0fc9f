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
/// never holds a connection, and hands on messages, not bytes: the server
/// encodes them at one point (`SessionFraming`), once however many clients
/// get one.
package protocol ClientOutbox: AnyObject, Sendable {
    func send(_ message: DaemonMessage, to client: ClientID)
    /// Messages to every client that said hello, each client getting all of
    /// them in order, then its own of `adjustments` (as `send` would send
    /// them), all in one pass over the clients; a client in a message's
    /// `special` gets its own message instead (the keyboard notification's
    /// `isLocal`).
    func broadcast(_ messages: [BroadcastMessage], then adjustments: [ViewAdjustment])
    /// One message to the clients subscribed to `topic`.
    func publish(_ message: DaemonMessage, to topic: Topic)
    func subscribe(_ client: ClientID, to topics: [Topic])
    /// False once the client has gone (its queued requests can be skipped).
    func isConnected(_ client: ClientID) -> Bool
    /// Clients that have completed `hello`.
    var clientCount: Int { get }
}

extension ClientOutbox {
    /// Messages to every client that said hello (`broadcast(_:then:)`).
    func broadcast(_ messages: [BroadcastMessage]) {
        broadcast(messages, then: [])
    }
}

/// One message of a broadcast: what every client that said hello gets, the
/// clients that get a message of their own instead, and those that get none
/// (OSK bridges, for a show they heard of when it was decided).
package struct BroadcastMessage: Sendable {
    package var message: DaemonMessage
    package var special: [ClientID: DaemonMessage]
    package var skipped: Set<ClientID>

    package init(
        _ message: DaemonMessage, replacing special: [ClientID: DaemonMessage] = [:], skipping skipped: Set<ClientID> = []
    ) {
        self.message = message
        self.special = special
        self.skipped = skipped
    }
}

/// The server's clients: every connection, whether it said hello, and what it
/// subscribed to. Shared by every transport's sessions.
final class ClientRegistry: Sendable {
    struct Entry {
        var connection: ClientConnection
        var joined = false
        var topics: Set<Topic> = []
    }

    private struct Members {
        var entries: [ClientID: Entry] = [:]
        /// The joined connections, kept between changes of who has joined: a
        /// broadcast walks this array instead of building one from `entries`.
        /// Unix socket sessions first, then WebSocket sessions.
        var joined: [ClientConnection]?
    }

    private let members = NIOLockedValueBox(Members())

    func add(_ connection: ClientConnection) {
        members.withLockedValue { $0.entries[connection.id] = Entry(connection: connection) }
    }

    func remove(_ id: ClientID) {
        members.withLockedValue { members in
            if members.entries.removeValue(forKey: id)?.joined == true { members.joined = nil }
        }
    }

    func markJoined(_ id: ClientID) {
        members.withLockedValue { members in
            guard members.entries[id] != nil else { return }
            members.entries[id]!.joined = true
            members.joined = nil
        }
    }

    func connection(_ id: ClientID) -> ClientConnection? { members.withLockedValue { $0.entries[id]?.connection } }

    var connections: [ClientConnection] { members.withLockedValue { $0.entries.values.map(\.connection) } }
    var count: Int { members.withLockedValue { $0.entries.count } }
    var joinedCount: Int { members.withLockedValue { $0.entries.values.count { $0.joined } } }

    func subscribe(_ id: ClientID, to topics: [Topic]) {
        members.withLockedValue { $0.entries[id]?.topics.formUnion(topics) }
    }

    /// The joined connections, with whether each is subscribed to `topic`.
    func joined(subscribedTo topic: Topic? = nil) -> [ClientConnection] {
        members.withLockedValue { members in
            if topic == nil, let joined = members.joined { return joined }
            let joined = members.entries.values.compactMap { entry -> ClientConnection? in
                guard entry.joined, topic.map(entry.topics.contains) ?? true else { return nil }
                return entry.connection
            }
            guard topic == nil else { return joined }
            // One transport's sessions after the other's, so a broadcast's sends
            // (in this order, at the task's end) come back to back per transport:
            // the kernel's path for each stays in the CPU's caches, and a peer
            // process serving many WebSocket sessions is woken once for a burst
            // instead of once per send (measured: 25 wakeups a change instead
            // of 75 to 120, for the perf harness's thousand pages).
            let grouped = joined.filter(\.framing.sendsLinesAsTheyAre) + joined.filter { !$0.framing.sendsLinesAsTheyAre }
            members.joined = grouped
            return grouped
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

    package func publish(_ message: DaemonMessage, to topic: Topic) {
        var shared = SharedLine(message)
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

