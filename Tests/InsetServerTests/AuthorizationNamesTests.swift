import Testing

@testable import InsetServer

/// `control-users` / `control-groups` by name: looked up at the first control
/// command root does not already cover, and what they resolve to then counts
/// as the numbers would. The names are Debian's fixed base-passwd entries
/// (`daemon` is uid 1 and gid 1, `bin` uid 2).
@Suite struct AuthorizationNamesTests {
    @Test func namesCountAsTheirIdsAndUnknownNamesGrantNothing() {
        let authorization = Authorization.resolving(
            users: ["bin", "no-such-user-insetd-test"], groups: ["daemon", "no-such-group-insetd-test", "4242"])
        // Root always; numbers without a lookup.
        #expect(authorization.allowsControl(PeerCredentials(pid: 10, uid: 0, gid: 0)))
        #expect(authorization.allowsControl(PeerCredentials(pid: 11, uid: 1000, gid: 4242)))
        // The user `bin` (uid 2), the group `daemon` (gid 1) as primary and as supplementary group.
        #expect(authorization.allowsControl(PeerCredentials(pid: 12, uid: 2, gid: 2)))
        #expect(authorization.allowsControl(PeerCredentials(pid: 13, uid: 1000, gid: 1)))
        #expect(authorization.allowsControl(PeerCredentials(pid: 14, uid: 1000, gid: 1000, groups: [24, 1])))
        // Anyone else, also after the lookup is kept.
        #expect(!authorization.allowsControl(PeerCredentials(pid: 15, uid: 1000, gid: 1000, groups: [24, 100])))
        #expect(!authorization.allowsControl(PeerCredentials(pid: 16, uid: 3, gid: 3)))
    }

    /// Two configurations with the same entries are equal whether or not
    /// either has looked its names up yet.
    @Test func equalityIgnoresWhetherTheNamesWereLookedUp() {
        let first = Authorization.resolving(users: [], groups: ["daemon"])
        let second = Authorization.resolving(users: [], groups: ["daemon"])
        _ = first.allowsControl(PeerCredentials(pid: 1, uid: 1000, gid: 1000))
        #expect(first == second)
        #expect(first != Authorization.resolving(users: [], groups: ["bin"]))
    }
}
