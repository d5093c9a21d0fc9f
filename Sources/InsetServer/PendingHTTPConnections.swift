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
/// them. Over a cap the *oldest* unfinished connection (of that address, or of
/// the address holding the most) is closed to make room, not the new one: a
/// page's connection finishes its upgrade in milliseconds, so a page still gets
/// in while stalled connections hold every place; the request deadline
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
    }

    private struct State {
        var next: UInt64 = 0
        /// Keyed by admission order: the smallest key is the oldest.
        var entries: [UInt64: Entry] = [:]
        var perAddress: [String: Int] = [:]
    }

    let limits: Limits
    private let state = NIOLockedValueBox(State())

    init(limits: Limits) {
        self.limits = limits
    }

    /// Unfinished connections now.
    var count: Int { state.withLockedValue { $0.entries.count } }

    /// Counts `channel` in and returns its ticket, with the connection closed
    /// to make room for it, if one had to be (the caller closes and logs it).
    func admit(_ channel: any Channel, address: String) -> (ticket: UInt64, evicted: (any Channel)?) {
        state.withLockedValue { state in
            var evicted: (any Channel)?
            if state.perAddress[address, default: 0] >= limits.perAddress {
                evicted = Self.removeOldest(from: address, in: &state)
            } else if state.entries.count >= limits.total,
                let busiest = state.perAddress.max(by: { $0.value < $1.value })?.key
            {
                evicted = Self.removeOldest(from: busiest, in: &state)
            }
            let ticket = state.next
            state.next += 1
            state.entries[ticket] = Entry(channel: channel, address: address)
            state.perAddress[address, default: 0] += 1
            return (ticket, evicted)
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

    private static func removeOldest(from address: String, in state: inout State) -> (any Channel)? {
        // At most `total` entries (128): a scan costs less than keeping a queue per address.
        guard let oldest = state.entries.filter({ $0.value.address == address }).keys.min(),
            let entry = state.entries.removeValue(forKey: oldest)
        else { return nil }
        decrement(address, in: &state)
        return entry.channel
    }

    private static func decrement(_ address: String, in state: inout State) {
        let left = state.perAddress[address, default: 1] - 1
        state.perAddress[address] = left > 0 ? left : nil
    }
}
