import Synchronization

/// Where the writers report a value JSON cannot carry (a non-finite number).
///
/// Why: such a value reaching the wire is a bug in insetd (decoding bounds every
/// client number, so the engine's arithmetic stays finite), and a bug in what
/// is sent must never stop the daemon for everyone: the writer sends `0` in its
/// place and reports here, and the daemon logs the report. Reports are counted;
/// after the first ten only every thousandth is passed on, so a bug hit on every
/// keyboard change cannot flood the journal.
package enum EncodingFaults {
    private struct State {
        var handler: (@Sendable (String) -> Void)?
        var count = 0
    }

    private static let state = Mutex(State())

    /// Sets who hears about faults (the daemon: its logger). Without one, faults
    /// are only counted.
    package static func report(to handler: @escaping @Sendable (String) -> Void) {
        state.withLock { $0.handler = handler }
    }

    /// Faults seen since the process started.
    package static var count: Int { state.withLock { $0.count } }

    static func nonFinite(_ value: Double) {
        let (handler, count) = state.withLock { state -> ((@Sendable (String) -> Void)?, Int) in
            state.count += 1
            return (state.handler, state.count)
        }
        guard count <= 10 || count % 1000 == 0 else { return }
        handler?("bug: a non-finite number (\(value)) was about to be sent; sent 0 instead (fault \(count))")
    }
}
