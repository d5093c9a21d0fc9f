import Foundation
import Glibc
import InsetSocket
import Testing

/// Where the daemon binds and where clients look, by one set of rules; and
/// the socket calls' errors.
@Suite struct InsetSocketTests {
    @Test(arguments: [
        ("--socket wins", "/tmp/x.sock", ["INSETD_SOCKET": "/tmp/y.sock"], true, "/tmp/x.sock"),
        ("then INSETD_SOCKET", nil, ["INSETD_SOCKET": "/tmp/y.sock", "XDG_RUNTIME_DIR": "/run/user/1000"], true, "/tmp/y.sock"),
        ("then the user's own insetd", nil, ["XDG_RUNTIME_DIR": "/run/user/1000"], true, "/run/user/1000/insetd.sock"),
        ("not when its socket is absent", nil, ["XDG_RUNTIME_DIR": "/run/user/1000"], false, "/run/insetd/insetd.sock"),
        ("an empty INSETD_SOCKET is unset", nil, ["INSETD_SOCKET": ""], false, "/run/insetd/insetd.sock"),
        ("else the system daemon", nil, [:], false, "/run/insetd/insetd.sock"),
    ] as [(String, String?, [String: String], Bool, String)])
    func aClientFindsTheSocket(rule: String, explicit: String?, environment: [String: String], exists: Bool, expected: String) {
        #expect(InsetdSocketPath.forClient(explicit: explicit, environment: environment, exists: { _ in exists }) == expected, "\(rule)")
    }

    /// A user's insetd binds where that user's clients look first.
    @Test func aUsersDaemonAndItsClientsAgree() {
        let environment = ["XDG_RUNTIME_DIR": "/run/user/1000"]
        let bound = InsetdSocketPath.forDaemon(explicit: nil, environment: environment, uid: 1000)
        #expect(bound == "/run/user/1000/insetd.sock")
        #expect(InsetdSocketPath.forClient(explicit: nil, environment: environment, exists: { $0 == bound }) == bound)
        #expect(InsetdSocketPath.forDaemon(explicit: nil, environment: [:], uid: 0) == InsetdSocketPath.system)
        #expect(InsetdSocketPath.forDaemon(explicit: nil, environment: [:], uid: 1000) == nil)
    }

    @Test func errorsCarryErrnoAndSayWhat() throws {
        let long = "/tmp/" + String(repeating: "x", count: 200)
        #expect(throws: UnixSocketError(operation: "address", path: long, errno: ENAMETOOLONG)) { try UnixSocket.connect(long) }
        let missing = FileManager.default.temporaryDirectory.appendingPathComponent("absent-\(UUID().uuidString).sock").path
        do {
            _ = try UnixSocket.connect(missing)
            Issue.record("connected to nothing")
        } catch {
            #expect(error.nobodyListens)
            #expect(error.description == "connect \(missing): No such file or directory")
        }
    }

    @Test func aDatagramReachesAnAbstractSocket() throws {
        let name = "@insetd-test-\(UUID().uuidString.prefix(8))"
        let fd = try UnixSocket.bind(name, type: SOCK_DGRAM)
        defer { close(fd) }
        try UnixSocket.sendDatagram(Array("READY=1".utf8), to: name)
        var buffer = [UInt8](repeating: 0, count: 64)
        let got = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
        #expect(got == 7)
        #expect(Array(buffer.prefix(7)) == Array("READY=1".utf8))
    }
}
