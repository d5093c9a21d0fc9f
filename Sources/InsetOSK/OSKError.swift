#if canImport(Glibc)
import Glibc
#endif
import DBus
import InsetCore

/// Why a backend could not reach or drive its on-screen keyboard, as one line a
/// person can act on (the bridge logs it once and retries with back-off).
public struct OSKError: Error, Hashable, Sendable, CustomStringConvertible {
    public var description: String
    /// The OSK is not running (as opposed to running and failing).
    public var absent: Bool

    public init(_ description: String, absent: Bool = false) {
        self.description = description
        self.absent = absent
    }

    init(_ context: String, _ error: DBusError) {
        self.init("\(context): \(error)", absent: error.serviceUnknown)
    }
}

/// The bridge's log: one line per event on standard error (journald adds the
/// time under systemd). Never carries keystrokes: the bridge sees none.
public struct BridgeLog: Sendable {
    public var debug: Bool

    public init(debug: Bool = false) { self.debug = debug }

    public func info(_ line: String) { write("insetd-osk: \(line)\n") }
    public func trace(_ line: String) { if debug { write("insetd-osk: \(line)\n") } }

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

/// A blocking, close-on-exec Unix stream socket connected to `path`: the one
/// `sockaddr_un` set-up for the bridge's two sockets (insetd's and sway's IPC).
/// A refused or missing socket is `absent` (its owner is not running); errors
/// start with `prefix` (say, "sway: ") where the caller's context does not name it.
func connectUnixSocket(_ path: String, prefix: String = "") throws(OSKError) -> Int32 {
    let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    guard fd >= 0 else { throw OSKError("\(prefix)socket: \(String(cString: strerror(errno)))") }
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    let bytes = Array(path.utf8)
    guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
        close(fd)
        throw OSKError("\(prefix)socket path \(path) is too long")
    }
    withUnsafeMutableBytes(of: &address.sun_path) { buffer in
        buffer.copyBytes(from: bytes)
        buffer[bytes.count] = 0
    }
    let result = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
    }
    guard result == 0 else {
        let error = errno
        close(fd)
        throw OSKError(
            "\(prefix)connect \(path): \(String(cString: strerror(error)))", absent: error == ENOENT || error == ECONNREFUSED)
    }
    return fd
}
