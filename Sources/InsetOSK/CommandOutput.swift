import Glibc
import InsetSocket

/// Runs a helper program (`gsettings`, `systemctl --user`) and returns what it
/// printed: posix_spawn directly, because FoundationEssentials has no `Process`
/// and full Foundation would bring ICU's data into the bridge for it.
enum CommandOutput {
    /// Runs `path` with `arguments` (stdin and stderr on /dev/null, the
    /// bridge's environment) and reads its standard output to the end.
    /// Returns its exit status (128 + signal when killed) and output.
    static func run(_ path: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
        guard let ends = CloseOnExecPipe.make() else { throw OSKError("\(path): pipe: \(String(cString: strerror(errno)))") }
        defer { close(ends.read) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, ends.write, 1)
        // The child keeps only its standard output's end.
        posix_spawn_file_actions_addclose(&actions, ends.read)
        posix_spawn_file_actions_addclose(&actions, ends.write)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, path, &actions, nil, argv, environ)
        close(ends.write)
        guard spawned == 0 else { throw OSKError("\(path): \(String(cString: strerror(spawned)))") }
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(ends.read, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            output += chunk[..<count]
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        // WIFEXITED / WEXITSTATUS / WTERMSIG, which Swift does not import (macros).
        let exitStatus = status & 0x7f == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        return (exitStatus, String(decoding: output, as: UTF8.self))
    }
}

extension String {
    /// Without leading and trailing whitespace and newlines (a command's output line).
    var trimmedOfWhitespace: String {
        let isSpace: (Character) -> Bool = { $0.isWhitespace || $0.isNewline }
        return String(drop(while: isSpace).reversed().drop(while: isSpace).reversed())
    }
}
