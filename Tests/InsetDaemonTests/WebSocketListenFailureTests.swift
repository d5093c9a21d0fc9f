import Glibc
import InsetServer
import InsetSocket
import Testing

@testable import InsetDaemon

/// A WebSocket listener that cannot be opened: one line saying what to do, and
/// an exit status that keeps systemd from restarting into it when starting
/// again cannot help (78, EX_CONFIG, named in the unit's
/// RestartPreventExitStatus=: the sandbox forbids IP sockets, the port needs
/// a privilege); a port another program holds may come free, an address may
/// come up with the network (1: systemd restarts).
@Suite struct WebSocketListenFailureTests {
    @Test(arguments: [
        // systemd's RestrictAddressFamilies= makes socket(2) fail with EAFNOSUPPORT.
        (EAFNOSUPPORT, "socket", Int32(78), "install the drop-in websocket.conf"),
        (EPERM, "socket", Int32(78), "IP sockets are not allowed to insetd here"),
        (EACCES, "bind", Int32(78), "ports below 1024 need CAP_NET_BIND_SERVICE"),
        (EADDRNOTAVAIL, "bind", Int32(1), "the address is not one of this machine's, or not yet"),
        (EADDRINUSE, "bind", Int32(1), "another program listens on that port"),
    ])
    func failures(errno: Int32, call: String, status: Int32, advice: String) {
        let error = WebSocketListenError(host: "127.0.0.1", port: 8099, cause: TCPSocketError(operation: call, host: "127.0.0.1", port: 8099, errno: errno))
        #expect(Daemon.exitStatus(for: error) == status)
        let line = "\(error)"
        #expect(line.hasPrefix("cannot listen for WebSockets on 127.0.0.1:8099: \(String(cString: strerror(errno))) (errno \(errno)) ("))
        #expect(line.contains(advice))
        #expect(line.contains("websocket.listen"))
        #expect(!line.contains("\n"))
    }

    @Test func anIPv6AddressIsBracketed() {
        let error = WebSocketListenError(host: "::1", port: 8099, cause: TCPSocketError(operation: "bind", host: "::1", port: 8099, errno: EADDRINUSE))
        #expect("\(error)".hasPrefix("cannot listen for WebSockets on [::1]:8099: "))
    }

    @Test func otherFailuresExitWithOne() {
        struct Unexpected: Error {}
        #expect(Daemon.exitStatus(for: Unexpected()) == 1)
    }
}
