import Logging
import NIOConcurrencyHelpers

/// Logs why the server refused or dropped a client, at most once a second per
/// reason, with how many were not logged in between.
///
/// Why: refusals come in floods exactly when something is wrong (a client in a
/// reconnect loop, a user holding the socket open); one line per refusal would
/// fill the journal and cost the daemon its time, none would leave an operator
/// guessing.
final class RefusalLog: Sendable {
    private struct Entry {
        var lastLogged: ContinuousClock.Instant
        var suppressed: Int
    }

    private let logger: Logger
    private let interval: Duration
    private let entries = NIOLockedValueBox([String: Entry]())

    init(logger: Logger, interval: Duration = .seconds(1)) {
        self.logger = logger
        self.interval = interval
    }

    /// `reason` is the server's own wording; `metadata` must hold nothing a
    /// client chose unless passed through `logSafe`.
    func refused(_ reason: String, metadata: Logger.Metadata = [:]) {
        let now = ContinuousClock.now
        let suppressed: Int? = entries.withLockedValue { entries in
            if let entry = entries[reason], now - entry.lastLogged < interval {
                entries[reason]!.suppressed += 1
                return nil
            }
            let suppressed = entries[reason]?.suppressed ?? 0
            entries[reason] = Entry(lastLogged: now, suppressed: 0)
            return suppressed
        }
        guard let suppressed else { return }
        var metadata = metadata
        if suppressed > 0 { metadata["alsoSinceLastLogged"] = "\(suppressed)" }
        logger.warning("client refused: \(reason)", metadata: metadata)
    }
}
