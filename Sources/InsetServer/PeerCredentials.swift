import Glibc

/// Who is on the other end of a Unix socket, from `SO_PEERCRED`, plus the
/// supplementary groups of that process (from `/proc/PID/status`).
public struct PeerCredentials: Hashable, Sendable, CustomStringConvertible {
    public var pid: Int32
    public var uid: UInt32
    public var gid: UInt32
    public var groups: Set<UInt32>

    public init(pid: Int32, uid: UInt32, gid: UInt32, groups: Set<UInt32> = []) {
        self.pid = pid
        self.uid = uid
        self.gid = gid
        self.groups = groups
    }

    /// Reads the supplementary groups of `pid`; empty when the process is gone.
    static func supplementaryGroups(of pid: Int32) -> Set<UInt32> {
        guard let file = fopen("/proc/\(pid)/status", "r") else { return [] }
        defer { fclose(file) }
        var line: UnsafeMutablePointer<CChar>?
        var capacity = 0
        defer { free(line) }
        while getline(&line, &capacity, file) > 0 {
            let text = String(cString: line!)
            if text.hasPrefix("Groups:") {
                return Set(text.dropFirst(7).split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" }).compactMap { UInt32($0) })
            }
        }
        return []
    }

    public var description: String { "pid \(pid) uid \(uid) gid \(gid)" }
}

/// Who may send control commands (`command`, `policy`). Anyone who can connect may
/// register views and subscribe; the socket's mode (0660) decides who can connect.
public struct Authorization: Hashable, Sendable {
    public var uids: Set<UInt32>
    public var gids: Set<UInt32>

    public init(uids: Set<UInt32> = [0], gids: Set<UInt32> = []) {
        self.uids = uids
        self.gids = gids
    }

    /// Root, plus the named groups and users that exist on this machine (a name
    /// that does not resolve grants nothing).
    public static func resolving(users: [String], groups: [String]) -> Authorization {
        var result = Authorization()
        for user in users {
            if let uid = UInt32(user) { result.uids.insert(uid) } else if let entry = getpwnam(user) { result.uids.insert(entry.pointee.pw_uid) }
        }
        for group in groups {
            if let gid = UInt32(group) { result.gids.insert(gid) } else if let entry = getgrnam(group) { result.gids.insert(entry.pointee.gr_gid) }
        }
        return result
    }

    public func allowsControl(_ peer: PeerCredentials) -> Bool {
        uids.contains(peer.uid) || gids.contains(peer.gid) || !gids.isDisjoint(with: peer.groups)
    }
}
