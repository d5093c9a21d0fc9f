/// A point on the daemon's monotonic clock, in whole nanoseconds.
///
/// The pure core never reads a clock: every step is handed `now` as an `Instant`.
/// Integer nanoseconds keep deadlines exact, so a golden file that advances to
/// 150 ms reaches a deadline computed as 50 ms + 100 ms (floating-point seconds
/// would land a hair past it and miss).
public struct Instant: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
    public var nanoseconds: Int64

    public init(nanoseconds: Int64) {
        self.nanoseconds = nanoseconds
    }

    public static let zero = Instant(nanoseconds: 0)

    public static func milliseconds(_ ms: Int64) -> Instant { Instant(nanoseconds: ms * 1_000_000) }

    public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.nanoseconds < rhs.nanoseconds }

    public static func + (lhs: Instant, rhs: Duration) -> Instant {
        Instant(nanoseconds: lhs.nanoseconds + rhs.totalNanoseconds)
    }

    public static func - (lhs: Instant, rhs: Instant) -> Duration {
        .nanoseconds(lhs.nanoseconds - rhs.nanoseconds)
    }

    public var description: String { formatMilliseconds(nanoseconds) }

    /// The earlier of two optional deadlines (nil: none). A step asks for its
    /// next deadline on every event; an array of them to take the `min` of
    /// was an allocation per event on the hotkey's path.
    public static func earliest(_ a: Instant?, _ b: Instant?) -> Instant? {
        guard let a else { return b }
        guard let b else { return a }
        return b < a ? b : a
    }
}

extension Duration {
    /// The duration in whole nanoseconds (sub-nanosecond parts are dropped).
    public var totalNanoseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }

    /// The duration in seconds, for animation timings sent to clients.
    public var seconds: Double { Double(totalNanoseconds) / 1e9 }

    /// A duration from seconds, rounded to whole nanoseconds.
    public static func fromSeconds(_ seconds: Double) -> Duration {
        .nanoseconds(Int64((seconds * 1e9).rounded()))
    }

    /// Milliseconds text for logs and golden files: `100ms`, `12.5ms`.
    public var millisecondsDescription: String { formatMilliseconds(totalNanoseconds) }
}

func formatMilliseconds(_ nanoseconds: Int64) -> String {
    if nanoseconds % 1_000_000 == 0 { return "\(nanoseconds / 1_000_000)ms" }
    return "\(formatPoints(Double(nanoseconds) / 1e6))ms"
}
