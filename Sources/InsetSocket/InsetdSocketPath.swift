import Glibc

/// Where insetd's socket is, for the daemon that binds it and for every
/// client that connects to it (insetctl, insetd-osk, the client libraries):
/// one set of rules, so a client finds the socket the daemon made.
public enum InsetdSocketPath {
    /// The system daemon's socket (`insetd.socket`).
    public static let system = "/run/insetd/insetd.sock"

    /// Where insetd binds its socket when systemd did not pass one: `--socket`,
    /// else `$RUNTIME_DIRECTORY/insetd.sock`, else the system path for root or
    /// `$XDG_RUNTIME_DIR/insetd.sock` for a user; nil when none applies.
    public static func forDaemon(explicit: String?, environment: [String: String], uid: UInt32) -> String? {
        if let explicit { return explicit }
        if let runtime = environment["RUNTIME_DIRECTORY"]?.split(separator: ":").first {
            return "\(runtime)/insetd.sock"
        }
        if uid == 0 { return system }
        if let runtime = environment["XDG_RUNTIME_DIR"], !runtime.isEmpty { return "\(runtime)/insetd.sock" }
        return nil
    }

    /// Where a client connects, by the rule every client follows
    /// (docs/PROTOCOL.md, "Which socket a client connects to"): `--socket`,
    /// else `$INSETD_SOCKET`, else a user's own insetd
    /// (`$XDG_RUNTIME_DIR/insetd.sock`) when that path leads somewhere, else
    /// the system daemon's. An empty value counts as unset.
    public static func forClient(
        explicit: String?, environment: [String: String], exists: (String) -> Bool = fileExists
    ) -> String {
        if let explicit, !explicit.isEmpty { return explicit }
        if let variable = environment["INSETD_SOCKET"], !variable.isEmpty { return variable }
        if let runtime = environment["XDG_RUNTIME_DIR"], !runtime.isEmpty, exists("\(runtime)/insetd.sock") {
            return "\(runtime)/insetd.sock"
        }
        return system
    }

    /// How a client names its sources, for `--help`.
    public static let clientHelp = "$INSETD_SOCKET, $XDG_RUNTIME_DIR/insetd.sock if it exists, \(system)"

    /// Whether `path` exists as `connect` would reach it: through symbolic
    /// links (`stat`), so a dangling link does not count.
    public static func fileExists(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0
    }
}
