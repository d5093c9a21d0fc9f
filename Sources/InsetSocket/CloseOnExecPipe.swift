import CSocketCalls
import Glibc

/// A pipe whose ends are close-on-exec from the moment they exist. `pipe(2)`
/// then `fcntl` leaves a window in which a child another thread spawns
/// inherits both ends, and a child holding a write end keeps the reader from
/// ever seeing end of file.
public enum CloseOnExecPipe {
    /// The read and write ends, or nil with `errno` set, as pipe2(2) fails.
    public static func make() -> (read: Int32, write: Int32)? {
        var ends: [Int32] = [-1, -1]
        guard csocket_pipe_cloexec(&ends) == 0 else { return nil }
        return (ends[0], ends[1])
    }
}
