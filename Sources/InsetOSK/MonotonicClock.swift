import Glibc
import InsetCore

/// The monotonic clock, shared by the poll loop's timers and the machine's time.
func monotonicInstant() -> Instant {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return Instant(nanoseconds: Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec))
}
