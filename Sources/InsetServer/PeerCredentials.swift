import Glibc
import InsetSocket
import NIOCore
import Synchronization

/// Who is on the other end of a Unix socket, as the kernel recorded it when the
/// peer connected: `SO_PEERCRED` (pid, uid, gid) and `SO_PEERGROUPS` (its
/// supplementary groups). Both are fixed at `connect()`, so a peer cannot gain
/// rights by changing groups, exiting or having its pid reused afterwards, and
/// nothing is read from `/proc` (which `ProtectProc=invisible` hides).
package struct PeerCredentials: Hashable, Sendable, CustomStringConvertible {
    package var pid: Int32
    package var uid: UInt32
    package var gid: UInt32
    package var groups: Set<UInt32>

    package init(pid: Int32, uid: UInt32, gid: UInt32, groups: Set<UInt32> = []) {
        self.pid = pid
        self.uid = uid
        self.gid = gid
        self.groups = groups
    }

    /// Who is behind an accepted channel: nil without `SO_PEERCRED` (such a
    /// peer is authorized for no control command); without `SO_PEERGROUPS`
    /// only the uid and primary gid count.
    static func read(from channel: any Channel) -> EventLoopFuture<PeerCredentials?> {
        guard let provider = channel as? any SocketOptionProvider else {
            return channel.eventLoop.makeSucceededFuture(nil)
        }
        let record: EventLoopFuture<PeerCredentialsRecord> = provider.unsafeGetSocketOption(
            level: SocketOptionLevel(SOL_SOCKET), name: SocketOptionName(SO_PEERCRED))
        return record.flatMap { record in
            supplementaryGroups(from: provider).map {
                PeerCredentials(pid: record.pid, uid: record.uid, gid: record.gid, groups: $0) as PeerCredentials?
            }
        }.recover { _ in nil }
    }

    /// `SO_PEERGROUPS` through NIO, which passes a fixed-size buffer and keeps
    /// the returned length to itself. The kernel writes the groups sorted
    /// ascending into a zeroed buffer, so everything up to the last non-zero
    /// entry is a group; an all-zero buffer is either no groups or group 0
    /// alone, which a second call with room for none tells apart (it fails with
    /// `ERANGE` when there is at least one). A peer with more than
    /// `PeerGroupsBuffer.capacity` groups gets none counted.
    static func supplementaryGroups(from provider: any SocketOptionProvider) -> EventLoopFuture<Set<UInt32>> {
        let groups: EventLoopFuture<PeerGroupsBuffer> = provider.unsafeGetSocketOption(
            level: SocketOptionLevel(SOL_SOCKET), name: SocketOptionName(SO_PEERGROUPS))
        return groups.flatMap { buffer in
            let words = (0..<PeerGroupsBuffer.capacity).map { buffer.gids[$0] }
            guard words.allSatisfy({ $0 == 0 }) else {
                return provider.eventLoop.makeSucceededFuture(decodePeerGroups(words, nonEmpty: true))
            }
            let probe: EventLoopFuture<NoRoom> = provider.unsafeGetSocketOption(
                level: SocketOptionLevel(SOL_SOCKET), name: SocketOptionName(SO_PEERGROUPS))
            return probe.map { _ in Set<UInt32>() }.recover { error in
                (error as? IOError)?.errnoCode == ERANGE ? [0] : []
            }
        }.recover { _ in [] }
    }

    /// The groups in a zero-padded `SO_PEERGROUPS` answer (see above).
    static func decodePeerGroups(_ words: [UInt32], nonEmpty: Bool) -> Set<UInt32> {
        guard let last = words.lastIndex(where: { $0 != 0 }) else { return nonEmpty ? [0] : [] }
        return Set(words[...last])
    }

    package var description: String { "pid \(pid) uid \(uid) gid \(gid)" }
}

/// Room for `SO_PEERGROUPS`' answer: 1024 groups (4 KiB), far beyond what a
/// desktop user has and well below `NGROUPS_MAX` (65536).
struct PeerGroupsBuffer: Sendable {
    static let capacity = 1024
    var gids = InlineArray<1024, UInt32>(repeating: 0)
}

/// A buffer of size zero: asks only whether the peer has any groups at all.
struct NoRoom: Sendable {}

/// Who may send control commands (`command`, `policy`). Anyone who can connect may
/// register views and subscribe; the socket's mode (0660) decides who can connect.
///
/// Names (`control-users`, `control-groups` that are not numbers) are looked up
/// once, at the first control command that root and the numeric ids do not
/// already allow, not at start: a lookup can load an NSS module for the rest of
/// the process's life (`libnss_systemd` and libcap, 0.36 MiB, when a name is
/// not in `/etc/passwd` or `/etc/group`), which a daemon that only root
/// commands, or none, never needs.
package struct Authorization: Hashable, Sendable {
    package var uids: Set<UInt32>
    package var gids: Set<UInt32>
    /// The names still to look up; nil when every entry was a number.
    private var names: NamesToResolve?

    package init(uids: Set<UInt32> = [0], gids: Set<UInt32> = []) {
        self.uids = uids
        self.gids = gids
    }

    /// Root, plus the named groups and users that exist on this machine when
    /// first needed (a name that does not resolve grants nothing).
    package static func resolving(users: [String], groups: [String]) -> Authorization {
        var result = Authorization()
        var userNames: [String] = []
        var groupNames: [String] = []
        for user in users {
            if let uid = UInt32(user) { result.uids.insert(uid) } else { userNames.append(user) }
        }
        for group in groups {
            if let gid = UInt32(group) { result.gids.insert(gid) } else { groupNames.append(group) }
        }
        if !userNames.isEmpty || !groupNames.isEmpty {
            result.names = NamesToResolve(users: userNames, groups: groupNames)
        }
        return result
    }

    package func allowsControl(_ peer: PeerCredentials) -> Bool {
        if Self.allows(peer, uids: uids, gids: gids) { return true }
        guard let names else { return false }
        let resolved = names.resolved()
        return Self.allows(peer, uids: resolved.uids, gids: resolved.gids)
    }

    private static func allows(_ peer: PeerCredentials, uids: Set<UInt32>, gids: Set<UInt32>) -> Bool {
        uids.contains(peer.uid) || gids.contains(peer.gid) || !gids.isDisjoint(with: peer.groups)
    }
}

/// The user and group names of an `Authorization`, looked up on the first
/// call of `resolved()` and kept: shared by every session's copy, so the
/// lookup happens once per configuration, on whichever thread asks first.
private final class NamesToResolve: Hashable, Sendable {
    let users: [String]
    let groups: [String]
    private let ids = Mutex<(uids: Set<UInt32>, gids: Set<UInt32>)?>(nil)

    init(users: [String], groups: [String]) {
        self.users = users
        self.groups = groups
    }

    func resolved() -> (uids: Set<UInt32>, gids: Set<UInt32>) {
        ids.withLock { ids in
            if let ids { return ids }
            var found: (uids: Set<UInt32>, gids: Set<UInt32>) = ([], [])
            for user in users {
                if let entry = getpwnam(user) { found.uids.insert(entry.pointee.pw_uid) }
            }
            for group in groups {
                if let entry = getgrnam(group) { found.gids.insert(entry.pointee.gr_gid) }
            }
            ids = found
            return found
        }
    }

    static func == (left: NamesToResolve, right: NamesToResolve) -> Bool {
        left.users == right.users && left.groups == right.groups
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(users)
        hasher.combine(groups)
    }
}
