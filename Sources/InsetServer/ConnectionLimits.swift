import NIOConcurrencyHelpers

/// How many clients may be connected, and how long one may take to say hello.
///
/// Why: every connection holds a descriptor, and insetd shares its descriptor
/// limit with the input devices it reads. Without bounds, a local user could
/// open connections until `accept` fails for everyone (and idle ones would
/// never go). The per-user cap keeps one user from taking the whole total.
public struct ConnectionLimits: Sendable, Hashable {
    /// A connection that has not completed `hello` by then is closed.
    public var handshakeTimeout: Duration
    /// Connections at once, from everyone.
    public var maximumConnections: Int
    /// Connections at once from one user (uid).
    public var maximumConnectionsPerUser: Int

    public init(handshakeTimeout: Duration = .seconds(5), maximumConnections: Int = 4096, maximumConnectionsPerUser: Int = 1024) {
        self.handshakeTimeout = handshakeTimeout
        self.maximumConnections = maximumConnections
        self.maximumConnectionsPerUser = maximumConnectionsPerUser
    }

    /// WebSocket sessions at once: all but a quarter of `maximumConnections`
    /// (at least one place each way), so that pages, which any local program
    /// can pretend to be, never take the places of the Unix socket's clients.
    public var maximumWebSocketConnections: Int {
        max(1, maximumConnections - max(1, maximumConnections / 4))
    }
}

/// Counts connections per user and admits or refuses new ones, for every
/// transport alike (a session holds its admission until it ends).
final class ConnectionAdmission: Sendable {
    enum Refusal: String, Sendable {
        case total = "too many connections"
        case perUser = "too many connections from this user"
        case webSocket = "too many WebSocket connections"
    }

    private struct Counts {
        var total = 0
        var webSocket = 0
        var perUser: [UInt32: Int] = [:]
    }

    private let limits: ConnectionLimits
    private let counts = NIOLockedValueBox(Counts())

    init(limits: ConnectionLimits) {
        self.limits = limits
    }

    /// Counts the connection in, or says why not (then nothing is counted).
    func admit(uid: UInt32, webSocket: Bool = false) -> Refusal? {
        counts.withLockedValue { counts in
            guard counts.total < limits.maximumConnections else { return .total }
            guard !webSocket || counts.webSocket < limits.maximumWebSocketConnections else { return .webSocket }
            guard counts.perUser[uid, default: 0] < limits.maximumConnectionsPerUser else { return .perUser }
            counts.total += 1
            if webSocket { counts.webSocket += 1 }
            counts.perUser[uid, default: 0] += 1
            return nil
        }
    }

    /// A connection `admit` counted has ended.
    func release(uid: UInt32, webSocket: Bool = false) {
        counts.withLockedValue { counts in
            counts.total -= 1
            if webSocket { counts.webSocket -= 1 }
            let left = counts.perUser[uid, default: 1] - 1
            counts.perUser[uid] = left > 0 ? left : nil
        }
    }
}
