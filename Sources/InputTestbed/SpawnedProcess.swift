import Glibc

/// A child process started with `posix_spawn` and reaped with `waitpid` on its
/// own pid. Foundation's `Process` scans `/proc/self/fd` before every start and
/// over-reads it (swift-corelibs-foundation#5472), which crashes a test process
/// holding many descriptors; this needs neither that scan nor a SIGCHLD handler.
/// Every descriptor this project's tests and harness open is close-on-exec, so
/// the child inherits only its three standard streams.
public final class SpawnedProcess: @unchecked Sendable {
    public let pid: pid_t
    private var waitStatus: Int32?

    /// How a child ended.
    public enum Termination: Equatable, Sendable {
        case exited(Int32)
        case signalled(Int32)
    }

    /// Starts `executable` (a path) with `arguments`. `environment` nil passes this
    /// process's live C environment on, umockdev's preload and testbed root included;
    /// standard output and error go to the given files (created or truncated), else
    /// to /dev/null (both to one file when the paths are equal). `passing` descriptors become the child's 3, 4, … (as systemd
    /// passes sockets).
    public init(
        _ executable: String, _ arguments: [String], environment: [String: String]? = nil, stdout: String? = nil,
        stderr: String? = nil, passing descriptors: [Int32] = []
    ) throws(SpawnError) {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, stdout ?? "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        if let stderr, stderr == stdout {
            posix_spawn_file_actions_adddup2(&actions, 1, 2)
        } else {
            posix_spawn_file_actions_addopen(&actions, 2, stderr ?? "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        }
        for (index, descriptor) in descriptors.enumerated() {
            posix_spawn_file_actions_adddup2(&actions, descriptor, Int32(3 + index))
        }
        // A child starts as a process started from a shell would: no signal
        // blocked and the usual dispositions, whatever the test process's thread
        // had (test runners block SIGTERM and others in their threads, and a
        // spawned child would inherit that and ignore `terminate`).
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGTERM, SIGINT, SIGHUP, SIGQUIT, SIGPIPE, SIGCHLD, SIGUSR1, SIGUSR2] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { $0.map { strdup("\($0.key)=\($0.value)") } + [nil] }
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp ?? [] { free(pointer) }
        }
        var child: pid_t = 0
        let rc =
            if var envp {
                posix_spawn(&child, executable, &actions, &attributes, argv, &envp)
            } else {
                posix_spawn(&child, executable, &actions, &attributes, argv, environ)
            }
        guard rc == 0 else { throw SpawnError(executable: executable, errno: rc) }
        pid = child
    }

    deinit {
        if waitStatus == nil {
            kill(pid, SIGKILL)
            _ = reap(blocking: true)
        }
    }

    /// True until the child has ended (and been reaped).
    public var isRunning: Bool { reap(blocking: false) == nil }

    /// How the child ended, or nil while it runs.
    public var termination: Termination? { reap(blocking: false) }

    /// Foundation `Process` spellings, so tests read the same either way.
    public var processIdentifier: Int32 { pid }

    /// The exit status, or the signal number that ended the child (-1 while running).
    public var terminationStatus: Int32 {
        switch termination {
        case .exited(let code)?: code
        case .signalled(let signal)?: signal
        case nil: -1
        }
    }

    /// Sends a signal (SIGTERM, SIGKILL, SIGHUP…).
    public func signal(_ number: Int32) {
        if waitStatus == nil { kill(pid, number) }
    }

    /// Blocks until the child ends.
    @discardableResult
    public func wait() -> Termination {
        reap(blocking: true)!
    }

    /// SIGTERM, then up to `timeout` for the child to end, then SIGKILL. Polls, so
    /// it can be called from a task without blocking a thread for long.
    @discardableResult
    public func terminate(within timeout: Duration = .seconds(5)) async -> Termination {
        signal(SIGTERM)
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if let ended = reap(blocking: false) { return ended }
            try? await Task.sleep(for: .milliseconds(5))
        }
        signal(SIGKILL)
        return wait()
    }

    private func reap(blocking: Bool) -> Termination? {
        if waitStatus == nil {
            var status: Int32 = 0
            var rc: pid_t
            repeat { rc = waitpid(pid, &status, blocking ? 0 : WNOHANG) } while rc < 0 && errno == EINTR
            if rc == pid { waitStatus = status }
        }
        guard let status = waitStatus else { return nil }
        // WIFEXITED / WEXITSTATUS / WTERMSIG are macros Swift cannot import.
        return status & 0x7f == 0 ? .exited((status >> 8) & 0xff) : .signalled(status & 0x7f)
    }
}

/// `posix_spawn` refused to start a program.
public struct SpawnError: Error, CustomStringConvertible {
    public var executable: String
    public var errno: Int32
    public var description: String { "cannot start \(executable): \(String(cString: strerror(errno)))" }
}
