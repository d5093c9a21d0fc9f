#if canImport(Glibc)
import Glibc
#endif
import DBus
import InsetCore
import InsetSocket

/// Why a backend could not reach or drive its on-screen keyboard, as one line a
/// person can act on (the bridge logs it once and retries with back-off).
package struct OSKError: Error, Hashable, Sendable, CustomStringConvertible {
    package var description: String
    /// The OSK is not running (as opposed to running and failing).
    package var absent: Bool

    package init(_ description: String, absent: Bool = false) {
        self.description = description
        self.absent = absent
    }

    init(_ context: String, _ error: DBusError) {
        self.init("\(context): \(error)", absent: error.serviceUnknown)
    }
}

/// The bridge's log: one line per event on standard error (journald adds the
/// time under systemd). Never carries keystrokes: the bridge sees none.
package struct BridgeLog: Sendable {
    package var debug: Bool

    package init(debug: Bool = false) { self.debug = debug }

    package func info(_ line: String) { write("insetd-osk: \(line)\n") }
    package func trace(_ line: String) { if debug { write("insetd-osk: \(line)\n") } }

    private func write(_ text: String) {
        var bytes = Array(text.utf8)
        _ = bytes.withUnsafeMutableBytes { Glibc.write(2, $0.baseAddress, $0.count) }
    }
}

/// The monotonic clock, shared by the poll loop's timers and the machine's time.
func monotonicInstant() -> Instant {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return Instant(nanoseconds: Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec))
}

/// Doubling retry delays, 0.1 s to 5 s, so a missing OSK or daemon costs little.
struct Backoff {
    private(set) var delay = 0.1
    var next: Double = 0

    mutating func failed(now: Double) {
        next = now + delay
        delay = min(delay * 2, 5)
    }

    mutating func reset() {
        delay = 0.1
        next = 0
    }
}

/// A blocking Unix stream socket connected to `path`, for the bridge's two
/// sockets (insetd's and sway's IPC). A refused or missing socket is `absent`
/// (its owner is not running); errors start with `prefix` (say, "sway: ")
/// where the caller's context does not name it.
func connectUnixSocket(_ path: String, prefix: String = "") throws(OSKError) -> Int32 {
    do {
        return try UnixSocket.connect(path)
    } catch {
        throw OSKError("\(prefix)\(error)", absent: error.nobodyListens)
    }
}
