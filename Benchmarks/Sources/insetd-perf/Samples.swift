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
    let micro = (nanoseconds + 500) / 1000
    let fraction = String(micro % 1000)
    return "\(micro / 1000).\(String(repeating: "0", count: 3 - fraction.count))\(fraction) ms"
}

/// Mebibytes with one decimal.
func mebibytes(kibibytes: Int) -> String {
    let tenths = (kibibytes * 10 + 512) / 1024
    return "\(tenths / 10).\(tenths % 10) MiB"
}

/// A ratio with two decimals.
func ratio(_ numerator: UInt64, _ denominator: UInt64) -> String {
    guard denominator > 0 else { return "n/a" }
    let hundredths = (numerator * 100 + denominator / 2) / denominator
    let fraction = String(hundredths % 100)
    return "\(hundredths / 100).\(fraction.count == 1 ? "0" : "")\(fraction)×"
}
