#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc
import InsetCore
import InsetProtocol
import InsetSocket

/// insetctl's connection to insetd: a blocking line channel with timeouts, and
/// errors that name the socket and say what to do. Lines are read through the
/// protocol's one decoder (`DaemonMessageDecoder`).
final class DaemonChannel {
    /// A line as it came, and the message it holds; nil when this insetctl does
    /// not know the message (a newer insetd's), so it can still be shown raw.
    typealias Received = (text: String, message: DaemonMessage?)

    let path: String
    private let fd: Int32
    private var reader: LineReader
    /// This connection's id, from the welcome: adjustments name their view with it.
    private var client = ClientID("")

    /// Connects and says hello; returns once the welcome arrived.
    init(path: String, timeout: Double = 5) throws {
        self.path = path
        do {
            fd = try UnixSocket.connect(path)
            reader = LineReader(descriptor: fd)
        } catch where error.errno == ENAMETOOLONG {
            throw CtlError("socket path is too long: \(path)")
        } catch {
            throw CtlError(
                "cannot connect to \(path): \(error.reason). Is insetd running (systemctl status insetd.socket)? "
                    + "Use --socket PATH or INSETD_SOCKET for another socket; permission errors mean you are not in the socket's group.")
        }
        send(ClientRequest(message: .hello(versions: supportedProtocolVersions, client: "insetctl")))
        guard case .welcome(_, let client, _, _)? = try receive(timeout: timeout) else {
            throw CtlError("\(path) did not answer hello like insetd does")
        }
        self.client = ClientID(client)
    }

    deinit { close(fd) }

    func send(_ request: ClientRequest) {
        write(request.lineBytes())
    }

    private func write(_ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if written < 0, errno == EINTR { continue }
            guard written > 0 else { return }
            offset += written
        }
    }

    /// The next line; nil on timeout. Throws when insetd closes the connection.
    func receiveLine(timeout: Double?) throws -> Received? {
        let line: [UInt8]?
        do {
            line = try reader.line(timeout: timeout)
        } catch .closed {
            throw CtlError("insetd closed the connection (\(path))")
        } catch .tooLong {
            throw CtlError("insetd sent a line longer than \(LineFramer.defaultLimit) bytes (\(path))")
        } catch .failed(let errno) {
            throw CtlError("reading from \(path) failed: \(String(cString: strerror(errno)))")
        }
        return line.map { (String(decoding: $0, as: UTF8.self), try? DaemonMessageDecoder.decode($0, client: client)) }
    }

    /// The next message this insetctl knows (others are skipped); nil on timeout.
    func receive(timeout: Double?) throws -> DaemonMessage? {
        let deadline = timeout.map { Date().addingTimeInterval($0) }
        while true {
            let remaining = deadline.map { max(0, $0.timeIntervalSinceNow) }
            guard let received = try receiveLine(timeout: remaining) else { return nil }
            if let message = received.message { return message }
        }
    }

    /// Sends a request with an id and returns its reply (`ok` or a reply; an
    /// error is thrown as a `CtlError`). Other messages are skipped.
    func request(_ message: ClientMessage, timeout: Double = 5) throws -> DaemonMessage {
        let id = RequestID.string("ctl")
        send(ClientRequest(id: id, message: message))
        let deadline = Date().addingTimeInterval(timeout)
        while let reply = try receive(timeout: max(0, deadline.timeIntervalSinceNow)) {
            guard reply.requestID == id else { continue }
            if case .error(let error) = reply {
                let hint = error.code == .notAuthorized ? " (control commands need root or the insetd group)" : ""
                throw CtlError("insetd refused: \(error.message)\(hint)")
            }
            return reply
        }
        throw CtlError("insetd did not answer within \(Int(timeout)) s (\(path))")
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
