#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc
import InsetSocket

/// `sd_notify` without libsystemd: one datagram per state change to the socket
/// named by `NOTIFY_SOCKET` (a path, or `@name` in the abstract namespace).
/// Without that variable (not started by systemd) every call is a no-op.
package struct SystemdNotifier: Sendable {
    private let path: String?

    package init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        path = environment["NOTIFY_SOCKET"]
    }

    package var isActive: Bool { path != nil }

    /// Sends lines such as `READY=1`, `STATUS=...`, `STOPPING=1`, `WATCHDOG=1`.
    @discardableResult
    package func notify(_ lines: String...) -> Bool {
        guard let path, !path.isEmpty else { return false }
        do {
            try UnixSocket.sendDatagram(Array(lines.joined(separator: "\n").utf8), to: path)
            return true
        } catch {
            return false
        }
    }

    /// CLOCK_MONOTONIC in microseconds, for `MONOTONIC_USEC=` beside `RELOADING=1`
    /// (systemd matches a reload to the request it answers by this time).
    package static func monotonicMicroseconds() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) * 1_000_000 + UInt64(time.tv_nsec) / 1000
    }

    /// The watchdog interval systemd expects pings within (`WatchdogSec=`).
    package static func watchdogInterval(environment: [String: String] = ProcessInfo.processInfo.environment) -> Duration? {
        guard let text = environment["WATCHDOG_USEC"], let usec = Int64(text), usec > 0 else { return nil }
        if let pid = environment["WATCHDOG_PID"], Int32(pid) != getpid() { return nil }
        return .microseconds(usec)
    }
}

/// Socket activation (`sd_listen_fds`): the listening socket systemd passed, if
/// any. The variables are removed so children do not inherit them.
package enum SocketActivation {
    package static let firstDescriptor: Int32 = 3

    package static func inheritedListener() -> Int32? {
        let environment = ProcessInfo.processInfo.environment
        defer {
            unsetenv("LISTEN_PID")
            unsetenv("LISTEN_FDS")
            unsetenv("LISTEN_FDNAMES")
        }
        guard let pid = environment["LISTEN_PID"].flatMap(Int32.init), pid == getpid(),
            let count = environment["LISTEN_FDS"].flatMap(Int.init), count >= 1
        else { return nil }
        _ = fcntl(firstDescriptor, F_SETFD, FD_CLOEXEC)
        return firstDescriptor
    }
}

/// Where insetd binds its socket when systemd did not pass one
/// (`InsetdSocketPath.forDaemon`); as root it makes /run/insetd first.
package enum SocketLocation {
    package static func resolve(explicit: String?, environment: [String: String], uid: UInt32) throws -> String {
        guard let path = InsetdSocketPath.forDaemon(explicit: explicit, environment: environment, uid: uid) else {
            throw SocketLocationError()
        }
        if explicit == nil, path == InsetdSocketPath.system { mkdir("/run/insetd", 0o755) }
        return path
    }
}

package struct SocketLocationError: Error, CustomStringConvertible {
    package var description: String {
        "no socket path: pass --socket PATH, or run under systemd (RuntimeDirectory=) or with XDG_RUNTIME_DIR set"
    }
}
