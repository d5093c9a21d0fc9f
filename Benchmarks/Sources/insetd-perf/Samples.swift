import Foundation
import Glibc

/// Nanoseconds on the monotonic clock: the harness's one time base, read
/// around every measured step.
func monotonicNanoseconds() -> UInt64 {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
}

/// Sleeps without being cut short by a signal.
func pause(nanoseconds: UInt64) {
    var request = timespec(tv_sec: Int(nanoseconds / 1_000_000_000), tv_nsec: Int(nanoseconds % 1_000_000_000))
    var remaining = timespec()
    while nanosleep(&request, &remaining) != 0 && errno == EINTR { request = remaining }
}

/// Latency samples of one measurement, summarised by nearest-rank percentiles
/// (no interpolation: every reported value was really observed).
struct Samples {
    private(set) var nanoseconds: [UInt64] = []

    mutating func append(_ value: UInt64) { nanoseconds.append(value) }

    var count: Int { nanoseconds.count }

    /// The smallest sample with at least `fraction` of all samples at or below it.
    func percentile(_ fraction: Double) -> UInt64 {
        precondition(!nanoseconds.isEmpty, "no samples")
        let sorted = nanoseconds.sorted()
        let rank = Swift.max(1, Int((fraction * Double(sorted.count)).rounded(.up)))
        return sorted[min(rank, sorted.count) - 1]
    }

    var p50: UInt64 { percentile(0.50) }
    var p99: UInt64 { percentile(0.99) }
    var max: UInt64 { percentile(1.0) }
}

/// Milliseconds with three decimals, as the report prints latencies.
func milliseconds(_ nanoseconds: UInt64) -> String {
    String(format: "%.3f ms", Double(nanoseconds) / 1e6)
}

/// Mebibytes with one decimal.
func mebibytes(kibibytes: Int) -> String {
    String(format: "%.1f MiB", Double(kibibytes) / 1024)
}

/// A ratio with two decimals.
func ratio(_ numerator: UInt64, _ denominator: UInt64) -> String {
    denominator > 0 ? String(format: "%.2f×", Double(numerator) / Double(denominator)) : "n/a"
}
