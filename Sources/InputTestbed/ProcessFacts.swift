#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc

/// What /proc says about a running process, for tests that check the daemon
/// leaks no descriptors and goes idle.
public struct ProcessFacts: Sendable {
    public var pid: Int32

    public init(pid: Int32) { self.pid = pid }

    public var openDescriptors: Int {
        ((try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd")) ?? []).count
    }

    /// User + system CPU time so far, in clock ticks (1/100 s), from /proc/PID/stat.
    public var cpuTicks: Int {
        let stat = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
        // Fields after the parenthesised command name; utime and stime are the 14th and 15th.
        let fields = stat.split(separator: ")").last?.split(separator: " ") ?? []
        return fields.count > 13 ? Int(fields[11])! + Int(fields[12])! : -1
    }
}
