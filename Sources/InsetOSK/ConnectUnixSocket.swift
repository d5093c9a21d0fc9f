import InsetSocket

/// A blocking Unix stream socket connected to `path`, for the bridge's two
/// sockets (insetd's and sway's IPC). A refused or missing socket is `absent`
/// (its owner is not running); errors start with `prefix` (say, "sway: ")
/// where the caller's context does not name it.
func connectUnixSocket(_ path: String, prefix: String = "") throws(OSKError) -> Int32 {
    do {
        return try UnixSocket.connect(path)
    } catch {
        throw OSKError("\(prefix)\(error)", absent: error.nobodyListens)
    }
}
