#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc
import InsetCore
import InsetProtocol

/// The bridge's connection to insetd's socket: says hello, subscribes to the
/// policy topic (hardware keyboard changes), reads daemon messages and sends the
/// bridge's feedback. Non-blocking, driven by the bridge's poll loop.
final class InsetdLink {
    let fd: Int32
    private var framer = LineFramer()
    private var pendingOutput: [UInt8] = []

    /// Connects (a Unix stream socket connects at once or fails) and sends the hello.
    init(path: String, client: String) throws(OSKError) {
        fd = try connectUnixSocket(path)
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        send(.hello(versions: supportedProtocolVersions, client: client))
        send(.subscribe(topics: [.policy]))
    }

    deinit { close(fd) }

    var wantsWrite: Bool { !pendingOutput.isEmpty }

    /// Written by the protocol's own encoder (`ClientRequest.lineBytes`).
    func send(_ message: ClientMessage) {
        pendingOutput += ClientRequest(message: message).lineBytes()
        flush()
    }

    func reportVisibility(bridge: String, visible: Bool) {
        send(.oskVisibility(bridge: bridge, visible: visible))
    }

    func reportFrame(bridge: String, frame: Rect?) {
        send(.oskFrame(bridge: bridge, frame: frame))
    }

    func reportProblem(bridge: String, problem: String?) {
        send(.oskProblem(bridge: bridge, problem: problem))
    }

    /// Writes what the socket takes now; the rest waits for `POLLOUT`.
    func flush() {
        while !pendingOutput.isEmpty {
            let n = pendingOutput.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard n > 0 else { return }
            pendingOutput.removeFirst(n)
        }
    }

    /// Reads what is there; throws when insetd closed the connection.
    func read() throws(OSKError) -> [DaemonMessage] {
        var messages: [DaemonMessage] = []
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n == 0 { throw OSKError("insetd closed the connection") }
            if n < 0 {
                if errno == EAGAIN || errno == EINTR { return messages }
                throw OSKError("read from insetd: \(String(cString: strerror(errno)))")
            }
            for output in framer.feed(buffer[0..<n]) {
                guard case .line(let line) = output else { continue }
                if let message = try? DaemonMessageDecoder.decode(line, client: ClientID("")) { messages.append(message) }
            }
        }
    }
}
