import NIOConcurrencyHelpers

/// How many clients may be connected, and how long one may take to say hello.
///
/// Why: every connection holds a descriptor, and insetd shares its descriptor
/// limit with the input devices it reads. Without bounds, a local user could
/// open connections until `accept` fails for everyone (and idle ones would
/// never go). The per-user cap keeps one user from taking the whole total.
package struct ConnectionLimits: Sendable, Hashable {
    /// A connection that has not completed `hello` by then is closed.
    package var handshakeTimeout: Duration
    /// Connections at once, from everyone.
    package var maximumConnections: Int
    /// Connections at once from one user (uid).
    package var maximumConnectionsPerUser: Int

    package init(handshakeTimeout: Duration = .seconds(5), maximumConnections: Int = 4096, maximumConnectionsPerUser: Int = 1024) {
        self.handshakeTimeout = handshakeTimeout
        self.maximumConnections = maximumConnections
        self.maximumConnectionsPerUser = maximumConnectionsPerUser
    }

    /// WebSocket sessions at once: all but a quarter of `maximumConnections`
    /// (at least one place each way), so that pages, which any local program
    /// can pretend to be, never take the places of the Unix socket's clients.
    package var maximumWebSocketConnections: Int {
        max(1, maximumConnections - max(1, maximumConnections / 4))
    }
}

/// Counts connections per user and admits or refuses new ones, for every
/// transport alike (a session holds its admission until it ends).
final class ConnectionAdmission: Sendable {
    /// Whom a connection is counted under: a socket peer's uid, or the pages
    /// of the WebSocket together.
    enum Key: Hashable, Sendable {
        case user(UInt32)
        case webPages
    }

    enum Refusal: String, Sendable {
        case total = "too many connections"
        case perUser = "too many connections from this user"
        case webSocket = "too many WebSocket connections"
    }

    private let limits: ConnectionLimits
    private let counts = NIOLockedValueBox((total: 0, perKey: [Key: Int]()))

    init(limits: ConnectionLimits) {
        self.limits = limits
    }

    /// Counts the connection in, or says why not (then nothing is counted).
    func admit(_ key: Key) -> Refusal? {
        counts.withLockedValue { counts in
            guard counts.total < limits.maximumConnections else { return .total }
            let held = counts.perKey[key, default: 0]
            // Pages count as one user too: the per-user cap holds for them,
            // and the WebSocket's own below it when it is lower.
            guard held < limits.maximumConnectionsPerUser else { return .perUser }
            if key == .webPages, held >= limits.maximumWebSocketConnections { return .webSocket }
            counts.total += 1
            counts.perKey[key] = held + 1
            return nil
        }
    }

    /// A connection `admit` counted has ended.
    func release(_ key: Key) {
        counts.withLockedValue { counts in
            counts.total -= 1
            let left = counts.perKey[key, default: 1] - 1
            counts.perKey[key] = left > 0 ? left : nil
        }
    }
}
