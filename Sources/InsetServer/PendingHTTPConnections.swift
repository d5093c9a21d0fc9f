import Glibc
import NIOConcurrencyHelpers
import NIOCore

/// The WebSocket listener's connections that are not sessions yet (an HTTP
/// request in progress, an asset being served, an upgrade not yet asked for),
/// capped per peer address and in total.
///
/// Why: the TCP port is open to every local program, and before its upgrade a
/// connection counts against no session cap and holds a descriptor. Without a
/// cap, connections that send half a request (or nothing) would take every
/// descriptor insetd has, and the Unix socket's clients would be refused with
/// them.
///
/// The caps refuse the slow, not the busy. Over a cap the *oldest slow*
/// connection (of that address, or of the address holding the most) is closed
/// to make room: one that has had `Limits.slowAfter` to send its request and
/// has no complete one, neither waiting unread in its socket nor being
/// answered. A connection whose whole request is there waits on insetd, not on
/// its peer, and is never closed for room (the request deadline still holds);
/// when every place is taken
/// by such ones, the new connection is counted beyond the cap and the acceptor
/// waits (`hasRoom`) instead of taking more, leaving the rest in the kernel's
/// queue. A peer that was answered and sends its next requests without
/// reading the answers is slow `Limits.busyFor` after its answer. A burst of
/// honest pages from one address (every tab of a kiosk
/// connects from loopback) is then served in full, while a page still gets in
/// past stalled connections holding every place; the request deadline
/// (`WebHTTPHandler`) ends the rest.
final class PendingHTTPConnections: Sendable {
    struct Limits: Sendable, Hashable {
        /// Unfinished connections from one address (a browser opens about 6 per host).
        var perAddress: Int
        /// Unfinished connections in all.
        var total: Int
        /// An HTTP request must be complete this long after the connection
        /// opened or its previous response was sent.
        var requestTimeout: TimeAmount
        /// How long a new connection (or one answered, waiting for its next
        /// request) has to send a whole request before it counts as slow: a
        /// page connects and sends its request at once, but a burst of them
        /// is admitted faster than their bytes arrive.
        var slowAfter = TimeAmount.milliseconds(100)
        /// How long an answered connection with its next request in is safe
        /// from being closed for room: an honest one is answered in
        /// milliseconds, one that never reads its answers holds its next
        /// requests unread for ever.
        var busyFor = TimeAmount.seconds(1)

        /// Caps that leave the Unix socket's clients their descriptors: at most
        /// 128 in all, and no more than the descriptors left over once every
        /// session `maximumConnections` allows and the daemon's own reserve are
        /// counted (never fewer than 16). `requestTimeout` is the hello deadline.
        static func derived(
            descriptorLimit: Int?, maximumConnections: Int, reserve: Int, requestTimeout: TimeAmount
        ) -> Limits {
            let spare = descriptorLimit.map { $0 - reserve - maximumConnections } ?? 128
            let total = max(16, min(128, spare))
            return Limits(perAddress: min(32, total), total: total, requestTimeout: requestTimeout)
        }
    }

    private struct Entry {
        var channel: any Channel
        var address: String
        var descriptor: Int32
        /// Its whole request is in: seen waiting unread in its socket, or read
        /// and being answered (or upgraded). Bytes do not go back: once seen,
        /// its socket is not looked into again until it was answered.
        var requestIn = false
        /// It was answered at least once (keep-alive).
        var answered = false
        /// When it was admitted, or last answered.
        var since: NIODeadline
    }

    private struct State {
        var next: UInt64 = 0
        /// Keyed by admission order: the smallest key is the oldest.
        var entries: [UInt64: Entry] = [:]
        var perAddress: [String: Int] = [:]
    }

    let limits: Limits
    private let state = NIOLockedValueBox(State())
    /// Whether a descriptor's socket holds a complete HTTP request head not
    /// read yet (`completeRequestWaiting` but for tests).
    private let requestWaiting: @Sendable (Int32) -> Bool
    private let now: @Sendable () -> NIODeadline

    init(
        limits: Limits, requestWaiting: @escaping @Sendable (Int32) -> Bool = completeRequestWaiting,
        now: @escaping @Sendable () -> NIODeadline = { .now() }
    ) {
        self.limits = limits
        self.requestWaiting = requestWaiting
        self.now = now
    }

    /// Unfinished connections now.
    var count: Int { state.withLockedValue { $0.entries.count } }

    /// Whether one more connection can be taken without passing the total cap
    /// for good: under it, or a slow connection can make room.
    var hasRoom: Bool {
        state.withLockedValue { state in
            state.entries.count < limits.total || oldestSlow(in: &state, from: nil) != nil
        }
    }

    /// Counts `channel` (connected on `descriptor`) in and returns its ticket,
    /// with the connection closed to make room for it, if one had to be (the
    /// caller closes and logs it).
    func admit(_ channel: any Channel, address: String, descriptor: Int32) -> (ticket: UInt64, evicted: (any Channel)?) {
        state.withLockedValue { state in
            var evicted: (any Channel)?
            if state.perAddress[address, default: 0] >= limits.perAddress {
                evicted = remove(oldestSlow(in: &state, from: address), in: &state)
            }
            if evicted == nil, state.entries.count >= limits.total {
                let busiest = state.perAddress.max(by: { $0.value < $1.value })?.key
                evicted = remove(oldestSlow(in: &state, from: busiest) ?? oldestSlow(in: &state, from: nil), in: &state)
            }
            let ticket = state.next
            state.next += 1
            state.entries[ticket] = Entry(channel: channel, address: address, descriptor: descriptor, since: now())
            state.perAddress[address, default: 0] += 1
            return (ticket, evicted)
        }
    }

    /// The connection's request is complete and being answered: it is not slow
    /// (until `awaitingRequest`).
    func answering(_ ticket: UInt64) {
        state.withLockedValue { $0.entries[ticket]?.requestIn = true }
    }

    /// The connection was answered and waits for its next request (keep-alive).
    func awaitingRequest(_ ticket: UInt64) {
        let now = now()
        state.withLockedValue { state in
            state.entries[ticket]?.requestIn = false
            state.entries[ticket]?.answered = true
            state.entries[ticket]?.since = now
        }
    }

    /// The connection became a session, or closed: it no longer counts.
    /// Calling it again for the same ticket does nothing.
    func remove(_ ticket: UInt64) {
        state.withLockedValue { state in
            guard let entry = state.entries.removeValue(forKey: ticket) else { return }
            Self.decrement(entry.address, in: &state)
        }
    }

    /// The oldest slow connection of `address`, or of any.
    private func oldestSlow(in state: inout State, from address: String?) -> UInt64? {
        let now = now()
        // At most `total` entries and a handful beyond (128): scanning in age
        // order costs less than keeping a queue per address, and stops at the
        // first slow one, which in a flood of stalled connections is the first.
        for key in state.entries.keys.sorted() {
            guard let entry = state.entries[key], address == nil || entry.address == address else { continue }
            let waited = now - entry.since
            if waited < limits.slowAfter { continue }
            if entry.answered && waited >= limits.busyFor { return key }
            if entry.requestIn { continue }
            if requestWaiting(entry.descriptor) {
                state.entries[key]?.requestIn = true
                continue
            }
            return key
        }
        return nil
    }

    private func remove(_ ticket: UInt64?, in state: inout State) -> (any Channel)? {
        guard let ticket, let entry = state.entries.removeValue(forKey: ticket) else { return nil }
        Self.decrement(entry.address, in: &state)
        return entry.channel
    }

    private static func decrement(_ address: String, in state: inout State) {
        let left = state.perAddress[address, default: 1] - 1
        state.perAddress[address] = left > 0 ? left : nil
    }
}

/// Whether `descriptor`'s socket holds the end of an HTTP request head (an
/// empty line) among the bytes not read yet, looked at without taking them.
/// A head longer than the look counts as not there: its peer is slow.
func completeRequestWaiting(_ descriptor: Int32) -> Bool {
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 4096) { bytes in
        let got = recv(descriptor, bytes.baseAddress, bytes.count, Int32(MSG_PEEK | MSG_DONTWAIT))
        guard got >= 4 else { return false }
        return (0...(got - 4)).contains { bytes[$0] == 13 && bytes[$0 + 1] == 10 && bytes[$0 + 2] == 13 && bytes[$0 + 3] == 10 }
    }
}
