#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc
import InputTestbed
import Synchronization

/// Forwarded signals that reached another thread of this process, one bit per
/// signal number. The runner's thread blocks them and takes them with
/// `sigtimedwait`, but the process has other threads (umockdev's, the runtime's)
/// that do not; without a handler, a SIGTERM delivered to one of them would end
/// the runner at once and leave the command running, orphaned.
private let caughtSignals = Atomic<UInt64>(0)

private func forwardLater(_ number: Int32) {
    caughtSignals.bitwiseOr(UInt64(1) << UInt64(number), ordering: .relaxed)
}

/// Runs the tester's command beside the emulated hardware and answers the
/// control socket until the command ends, then takes down everything the
/// command left behind. The command gets its own process group (and the
/// terminal, when there is one), so a daemon it started in the background and
/// forgot is stopped with it.
struct CommandRunner {
    var hardware: EmulatedHardware
    var control: TestbedControlServer

    /// Signals the runner forwards to the command's group instead of dying of them.
    static let forwarded: [Int32] = [SIGINT, SIGTERM, SIGHUP, SIGQUIT]

    /// The command's exit status (128 + N when signal N ended it).
    func run(_ command: [String]) throws(RunnerError) -> Int32 {
        var blocked = sigset_t()
        sigemptyset(&blocked)
        for signal in Self.forwarded + [SIGTTOU, SIGCHLD] { sigaddset(&blocked, signal) }
        var previous = sigset_t()
        pthread_sigmask(SIG_BLOCK, &blocked, &previous)
        defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
        for number in Self.forwarded { Glibc.signal(number, forwardLater) }

        let child = try spawn(command)
        let terminal = isatty(0) == 1 && tcgetpgrp(0) == getpgrp()
        if terminal { tcsetpgrp(0, child) }
        defer { if terminal { tcsetpgrp(0, getpgrp()) } }

        var status: Int32 = 0
        var zero = timespec(tv_sec: 0, tv_nsec: 0)
        while true {
            var ready = pollfd(fd: control.fd, events: Int16(POLLIN), revents: 0)
            if poll(&ready, 1, 20) > 0 { control.serve(hardware) }
            var info = siginfo_t()
            while true {
                let signal = sigtimedwait(&blocked, &info, &zero)
                guard signal > 0 else { break }
                if Self.forwarded.contains(signal) { kill(-child, signal) }
            }
            let caught = caughtSignals.exchange(0, ordering: .relaxed)
            for number in Self.forwarded where caught & (UInt64(1) << UInt64(number)) != 0 { kill(-child, number) }
            let reaped = waitpid(child, &status, WNOHANG)
            if reaped == child { break }
        }
        stopGroup(child)
        // WIFEXITED / WEXITSTATUS / WTERMSIG are macros Swift cannot import.
        return status & 0x7f == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
    }

    private func spawn(_ command: [String]) throws(RunnerError) -> pid_t {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigmask(&attributes, &empty)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in Self.forwarded + [SIGTTOU, SIGCHLD, SIGPIPE] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(
            &attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP))
        let argv = command.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        // The live C environment: umockdev's testbed set UMOCKDEV_DIR in it.
        let rc = posix_spawnp(&pid, command[0], nil, &attributes, argv, environ)
        guard rc == 0 else {
            throw RunnerError(
                message: "cannot run '\(command[0])': \(String(cString: strerror(rc)))", status: rc == ENOENT ? 127 : 126)
        }
        return pid
    }

    /// SIGTERM to what is left of the command's group, up to 3 s, then SIGKILL.
    private func stopGroup(_ group: pid_t) {
        guard Self.hasLiveMembers(group) else { return }
        kill(-group, SIGTERM)
        kill(-group, SIGCONT)
        let deadline = ContinuousClock.now + .seconds(3)
        while ContinuousClock.now < deadline {
            if !Self.hasLiveMembers(group) { return }
            usleep(10_000)
        }
        kill(-group, SIGKILL)
        for _ in 0..<300 where Self.hasLiveMembers(group) { usleep(10_000) }
    }

    /// Whether a process of the group still runs. Zombies do not count: their
    /// parent may be an init that is slow to reap (containers), and
    /// `kill(-group, 0)` succeeds for them.
    static func hasLiveMembers(_ group: pid_t) -> Bool {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        for entry in entries where entry.first?.isNumber == true {
            guard let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8) else { continue }
            // After the parenthesised command name: state, ppid, pgrp, ...
            let fields = stat[(stat.lastIndex(of: ")") ?? stat.startIndex)...].split(separator: " ")
            if fields.count > 3, fields[3] == "\(group)", fields[1] != "Z" { return true }
        }
        return false
    }
}

/// The command could not be started: the message, and the exit status that
/// says so (127 not found, 126 not runnable, as a shell says).
struct RunnerError: Error {
    var message: String
    var status: Int32
}
