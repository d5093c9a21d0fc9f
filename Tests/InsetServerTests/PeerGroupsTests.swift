import Foundation
import Glibc
import InputTestbed
import Testing

@testable import InsetServer

/// Supplementary groups come from `SO_PEERGROUPS` (fixed at the peer's
/// `connect()`), not from `/proc/PID/status`.
@Suite struct PeerGroupsTests {
    /// The kernel writes the groups sorted ascending into NIO's zeroed buffer.
    @Test(arguments: [
        ([0, 0, 0, 0], false, Set<UInt32>()),
        ([0, 0, 0, 0], true, [0]),
        ([27, 100, 0, 0], true, [27, 100]),
        ([0, 27, 100, 0], true, [0, 27, 100]),
        ([4, 24, 27, 30, 46, 100, 1000, 4242], true, [4, 24, 27, 30, 46, 100, 1000, 4242]),
    ] as [([UInt32], Bool, Set<UInt32>)])
    func zeroPaddedAnswers(words: [UInt32], nonEmpty: Bool, groups: Set<UInt32>) {
        #expect(PeerCredentials.decodePeerGroups(words, nonEmpty: nonEmpty) == groups)
    }

    /// A client in another user's process, with groups set by `setpriv`, sends a
    /// control command; only a member of the authorized group may.
    static let client = #"""
        import socket, sys
        s = socket.socket(socket.AF_UNIX)
        s.connect(sys.argv[1])
        f = s.makefile("rwb")
        for line in ['{"type":"hello","version":1}', '{"type":"command","command":"show","id":5}']:
            f.write(line.encode() + b"\n")
            f.flush()
            answer = f.readline().decode().strip()
        print(answer)
        """#

    @Test(
        .enabled(if: getuid() == 0, "setpriv needs root to start a client as another user"),
        arguments: [
            // Supplementary groups: a member of 4242 among others.
            ("--groups=27,4242,60000", [4242], true),
            ("--groups=27,60000", [4242], false),
            // Group 0 alone looks like "no groups" in the zeroed buffer; the second
            // call tells them apart.
            ("--groups=0", [0], true),
            ("--clear-groups", [0], false),
        ] as [(String, Set<UInt32>, Bool)])
    func controlByGroupMembership(groupsOption: String, authorizedGroups: Set<UInt32>, allowed: Bool) async throws {
        let running = try await RunningServer(authorization: Authorization(uids: [], gids: authorizedGroups))
        // The socket is 0660 root:root; the test's client runs as nobody.
        chmod(running.path, 0o666)
        let (status, output) = try await ChildProcess.run([
            "setpriv", "--reuid=65534", "--regid=65534", groupsOption, "/usr/bin/python3", "-c", Self.client, running.path,
        ])
        await running.stop()
        #expect(status == 0, "\(output)")
        if allowed {
            #expect(output == "{\"id\":5,\"type\":\"ok\"}\n")
        } else {
            #expect(output.contains("\"code\":\"not-authorized\""), "\(output)")
            #expect(output.contains("\"id\":5"), "\(output)")
        }
    }
}
