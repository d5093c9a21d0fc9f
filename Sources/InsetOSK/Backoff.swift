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
