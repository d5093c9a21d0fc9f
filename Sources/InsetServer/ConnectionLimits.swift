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
    /// Whom a connection is counted under (its transport says: a socket
    /// peer's uid, or the pages of the WebSocket together), and the cap the
    /// transport sets on that key below the per-user cap, if any.
    struct Key: Hashable, Sendable {
        enum Holder: Hashable, Sendable {
            case user(UInt32)
            /// Every peer of a transport that knows no users, as one.
            case transport(String)
        }

        /// A transport's own cap, and what a connection it refuses is told.
        struct Cap: Hashable, Sendable {
            var limit: Int
            var refusal: Refusal
        }

        var holder: Holder
        var cap: Cap?

        init(_ holder: Holder, cap: Cap? = nil) {
            self.holder = holder
            self.cap = cap
        }
    }

    /// Why a connection was not admitted (the log's words).
    struct Refusal: Hashable, Sendable {
        let reason: String

        init(_ reason: String) {
            self.reason = reason
        }

        static let total = Refusal("too many connections")
        static let perUser = Refusal("too many connections from this user")
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
            // A transport's one key counts as one user too: the per-user cap
            // holds for it, and the transport's own below it when it is lower.
            guard held < limits.maximumConnectionsPerUser else { return .perUser }
            if let cap = key.cap, held >= cap.limit { return cap.refusal }
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
