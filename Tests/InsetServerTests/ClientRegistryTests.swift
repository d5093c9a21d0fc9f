import InsetCore
import InsetProtocol
import Logging
import NIOEmbedded
import Testing

@testable import InsetServer

/// Who a broadcast reaches: the clients that said hello and are still
/// connected, as of the broadcast, however often the list was asked for before.
@Suite struct ClientRegistryTests {
    static func connection(_ id: String, on channel: EmbeddedChannel) -> ClientConnection {
        ClientConnection(
            id: ClientID(id), peer: .local(nil), transport: UnixSocketTransport(), channel: channel, socket: nil, capacity: 8,
            pendingFlushes: PendingFlushes(eventLoop: channel.eventLoop), logger: Logger(label: "test"))
    }

    @Test func theJoinedFollowJoiningAndLeaving() {
        let channel = EmbeddedChannel()
        let registry = ClientRegistry()
        let ids = ["c1", "c2", "c3"]
        for id in ids { registry.add(Self.connection(id, on: channel)) }
        #expect(registry.joined().isEmpty)
        registry.markJoined(ClientID("c1"))
        registry.markJoined(ClientID("c3"))
        #expect(Set(registry.joined().map(\.id.rawValue)) == ["c1", "c3"])
        #expect(Set(registry.joined().map(\.id.rawValue)) == ["c1", "c3"])  // asked again: the same
        registry.markJoined(ClientID("c2"))
        #expect(Set(registry.joined().map(\.id.rawValue)) == ["c1", "c2", "c3"])
        registry.remove(ClientID("c1"))
        #expect(Set(registry.joined().map(\.id.rawValue)) == ["c2", "c3"])
        registry.markJoined(ClientID("c9"))  // never connected: nobody joins
        registry.remove(ClientID("c9"))
        #expect(Set(registry.joined().map(\.id.rawValue)) == ["c2", "c3"])
        #expect(registry.joinedCount == 2)
        #expect(registry.count == 2)
    }

    /// A broadcast's sends leave one transport after the other (each transport's
    /// kernel path stays hot, and a peer serving many sessions is woken per burst).
    @Test func theJoinedAreGroupedByTransport() {
        let channel = EmbeddedChannel()
        let registry = ClientRegistry()
        let transports: [(String, any SessionTransport)] = [
            ("c1", WebSocketTransport(control: false)), ("c2", UnixSocketTransport()),
            ("c3", WebSocketTransport(control: false)), ("c4", UnixSocketTransport()),
        ]
        for (id, transport) in transports {
            registry.add(
                ClientConnection(
                    id: ClientID(id), peer: .local(nil), transport: transport, channel: channel, socket: nil, capacity: 8,
                    pendingFlushes: PendingFlushes(eventLoop: channel.eventLoop), logger: Logger(label: "test")))
            registry.markJoined(ClientID(id))
        }
        let framings = registry.joined().map(\.framing)
        #expect(framings == [.lines, .lines, .messages, .messages])
        #expect(Set(registry.joined().prefix(2).map(\.id.rawValue)) == ["c2", "c4"])
    }

    @Test func aTopicsSubscribersAreAmongTheJoined() {
        let channel = EmbeddedChannel()
        let registry = ClientRegistry()
        for id in ["c1", "c2"] { registry.add(Self.connection(id, on: channel)) }
        registry.markJoined(ClientID("c1"))
        registry.subscribe(ClientID("c1"), to: [.events])
        registry.subscribe(ClientID("c2"), to: [.events])
        #expect(registry.joined(subscribedTo: .events).map(\.id.rawValue) == ["c1"])
        #expect(registry.joined().map(\.id.rawValue) == ["c1"])
    }
}
