#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc
import InsetCore
import InsetProtocol
import InsetSocket

/// insetctl's use of the connection to insetd (`InsetdConnection`): blocking
/// reads with timeouts, and errors that name the socket and say what to do.
final class DaemonChannel {
    /// A line as it came, and the message it holds; nil when this insetctl does
    /// not know the message (a newer insetd's), so it can still be shown raw.
    typealias Received = (text: String, message: DaemonMessage?)

    let path: String
    private let connection: InsetdConnection

    /// Connects and says hello; returns once the welcome arrived.
    init(path: String, timeout: Double = 5) throws {
        self.path = path
        do {
            connection = try InsetdConnection(path: path)
        } catch where error.errno == ENAMETOOLONG {
            throw CtlError("socket path is too long: \(path)")
        } catch {
            throw CtlError(
                "cannot connect to \(path): \(error.reason). Is insetd running (systemctl status insetd.socket)? "
                    + "Use --socket PATH or INSETD_SOCKET for another socket; permission errors mean you are not in the socket's group.")
        }
        connection.sendHello(client: "insetctl")
        guard case .welcome? = try receive(timeout: timeout) else {
            throw CtlError("\(path) did not answer hello like insetd does")
        }
    }

    func send(_ request: ClientRequest) {
        connection.send(request)
    }

    /// The next line; nil on timeout. Throws when insetd closes the connection.
    func receiveLine(timeout: Double?) throws -> Received? {
        do {
            return try connection.message(timeout: timeout).map { (String(decoding: $0.line, as: UTF8.self), $0.message) }
        } catch {
            throw failure(error)
        }
    }

    /// The next message this insetctl knows (others are skipped); nil on timeout.
    func receive(timeout: Double?) throws -> DaemonMessage? {
        do {
            return try connection.nextMessage(timeout: timeout)
        } catch {
            throw failure(error)
        }
    }

    private func failure(_ error: InsetdConnection.Failure) -> CtlError {
        switch error {
        case .closed: CtlError("insetd closed the connection (\(path))")
        case .tooLong: CtlError("insetd sent a line longer than \(LineFramer.defaultLimit) bytes (\(path))")
        case .failed(let errno): CtlError("reading from \(path) failed: \(String(cString: strerror(errno)))")
        }
    }

    /// Sends a request with an id and returns its reply (`ok` or a reply; an
    /// error is thrown as a `CtlError`). Other messages are skipped.
    func request(_ message: ClientMessage, timeout: Double = 5) throws -> DaemonMessage {
        let id = RequestID.string("ctl")
        send(ClientRequest(id: id, message: message))
        let reply: DaemonMessage?
        do {
            reply = try connection.reply(to: id, timeout: timeout)
        } catch {
            throw failure(error)
        }
        guard let reply else { throw CtlError("insetd did not answer within \(Int(timeout)) s (\(path))") }
        if case .error(let error) = reply {
            let hint = error.code == .notAuthorized ? " (control commands need root or the insetd group)" : ""
            throw CtlError("insetd refused: \(error.message)\(hint)")
        }
        return reply
    }

    /// `request(.status)`'s reply.
    func status() throws -> (state: StateSnapshot, clients: Int, views: Int) {
        guard case .status(_, let state, let clients, let views) = try request(.status) else {
            throw CtlError("insetd answered status with another message (\(path))")
        }
        return (state, clients, views)
    }
}

struct CtlError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
