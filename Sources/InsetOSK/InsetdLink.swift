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
/// bridge's feedback, on the shared `InsetdConnection`. Non-blocking, driven by
/// the bridge's poll loop.
final class InsetdLink {
    private let connection: InsetdConnection
    var fd: Int32 { connection.descriptor }

    /// Connects (a Unix stream socket connects at once or fails) and sends the hello.
    init(path: String, client: String) throws(OSKError) {
        connection = InsetdConnection(descriptor: try connectUnixSocket(path))
        connection.sendHello(client: client, waiting: false)
        send(.subscribe(topics: [.policy]))
    }

    var wantsWrite: Bool { connection.wantsWrite }

    /// The id of every frame report: insetd answers each with `ok`, or with an
    /// `error` carrying it when it refuses the frame.
    static let frameReportID = RequestID.string("osk-frame")

    /// Written by the protocol's own encoder (`ClientRequest.lineBytes`).
    func send(_ message: ClientMessage, id: RequestID? = nil) {
        connection.send(ClientRequest(id: id, message: message), waiting: false)
    }

    func reportVisibility(bridge: String, visible: Bool) {
        send(.oskVisibility(bridge: bridge, visible: visible))
    }

    func reportFrame(bridge: String, frame: Rect?) {
        send(.oskFrame(bridge: bridge, frame: frame), id: Self.frameReportID)
    }

    func reportAnimation(bridge: String, animation: Animation?) {
        send(.oskAnimation(bridge: bridge, animation: animation))
    }

    func reportRunning(bridge: String, running: Bool) {
        send(.oskRunning(bridge: bridge, running: running))
    }

    func reportProblem(bridge: String, problem: String?) {
        send(.oskProblem(bridge: bridge, problem: problem))
    }

    func reportFocusedWindow(bridge: String, frame: Rect?) {
        send(.focusedWindow(bridge: bridge, frame: frame))
    }

    /// Writes what the socket takes now; the rest waits for `POLLOUT`.
    func flush() {
        connection.flush()
    }

    /// Reads what is there; throws when insetd closed the connection.
    func read() throws(OSKError) -> [DaemonMessage] {
        do {
            return try connection.availableMessages()
        } catch {
            switch error {
            case .closed: throw OSKError("insetd closed the connection")
            case .tooLong: throw OSKError("insetd sent a line longer than \(LineFramer.defaultLimit) bytes")
            case .failed(let errno): throw OSKError("read from insetd: \(String(cString: strerror(errno)))")
            }
        }
    }
}
