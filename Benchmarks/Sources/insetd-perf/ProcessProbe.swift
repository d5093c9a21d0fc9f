import Foundation
import InputTestbed

/// What `/proc` says about a running process, summed over all its threads:
/// the figures the targets are stated in (CPU time, wakeups, resident memory,
/// open descriptors).
struct ProcessProbe {
    let pid: Int32

    /// A reading of each thread's counters, to subtract two of. Threads come
    /// and go (Swift's pool lets idle ones exit), so readings are kept per thread.
    struct Counters {
        struct Thread {
            /// Time on a CPU (`schedstat`, nanoseconds).
            var cpuNanoseconds: UInt64
            /// Voluntary + involuntary context switches: each is one wakeup.
            var contextSwitches: UInt64
        }

        var threads: [String: Thread] = [:]

        /// What happened between `earlier` and this reading. A thread that
        /// ended in between counts one wakeup (its last run) and its CPU up to
        /// the earlier reading is not counted again; a new thread counts in full.
        func since(_ earlier: Counters) -> (cpuNanoseconds: UInt64, wakeups: UInt64) {
            var cpu: UInt64 = 0
            var wakeups: UInt64 = 0
            for (tid, now) in threads {
                let then = earlier.threads[tid] ?? Thread(cpuNanoseconds: 0, contextSwitches: 0)
                cpu += now.cpuNanoseconds - min(then.cpuNanoseconds, now.cpuNanoseconds)
                wakeups += now.contextSwitches - min(then.contextSwitches, now.contextSwitches)
            }
            wakeups += UInt64(earlier.threads.keys.filter { threads[$0] == nil }.count)
            return (cpu, wakeups)
        }
    }

    func counters() -> Counters {
        var result = Counters()
        for task in tasks() {
            let base = "/proc/\(pid)/task/\(task)"
            let schedstat = read("\(base)/schedstat")?.split(separator: " ").first.flatMap { UInt64($0) }
            let status = read("\(base)/status") ?? ""
            result.threads[task] = Counters.Thread(
                cpuNanoseconds: schedstat ?? 0,
                contextSwitches: field(status, "voluntary_ctxt_switches") + field(status, "nonvoluntary_ctxt_switches"))
        }
        return result
    }

    /// The process's CPU time so far, user and system apart (`/proc/PID/stat`,
    /// all threads, ended ones included), nanoseconds. The kernel keeps these
    /// in clock ticks, so they are as fine as the tick (10 ms at 100 Hz).
    func cpuTimes() -> (user: UInt64, system: UInt64) {
        guard let stat = read("/proc/\(pid)/stat"), let end = stat.lastIndex(of: ")") else { return (0, 0) }
        // Fields after the command's closing parenthesis start at field 3 (state):
        // utime is field 14, stime 15.
        let fields = stat[stat.index(after: end)...].split(separator: " ")
        guard fields.count > 13, let user = UInt64(fields[11]), let system = UInt64(fields[12]) else { return (0, 0) }
        return (user * Self.tickNanoseconds, system * Self.tickNanoseconds)
    }

    /// One clock tick (`_SC_CLK_TCK`), nanoseconds.
    static let tickNanoseconds = UInt64(1_000_000_000) / UInt64(max(1, sysconf(Int32(_SC_CLK_TCK))))

    /// Resident set size (`VmRSS`), KiB.
    var residentKibibytes: Int { Int(field(read("/proc/\(pid)/status") ?? "", "VmRSS")) }

    /// Peak resident set size (`VmHWM`), KiB.
    var peakResidentKibibytes: Int { Int(field(read("/proc/\(pid)/status") ?? "", "VmHWM")) }

    var openDescriptors: Int { ProcessFacts(pid: pid).openDescriptors }

    var threads: Int { tasks().count }

    private func tasks() -> [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
    }

    private func read(_ path: String) -> String? { try? String(contentsOfFile: path, encoding: .utf8) }

    /// The number after `name:` in a `/proc/.../status` text.
    private func field(_ status: String, _ name: String) -> UInt64 {
        for line in status.split(separator: "\n") where line.hasPrefix(name + ":") {
            let digits = line.dropFirst(name.count + 1).filter(\.isNumber)
            return UInt64(digits) ?? 0
        }
        return 0
    }
}
