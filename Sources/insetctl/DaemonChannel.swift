import Foundation
import Glibc
import InsetProtocol
import InsetSocket

/// insetctl's connection to insetd: a blocking line channel with timeouts, and
/// errors that name the socket and say what to do.
final class DaemonChannel {
    let path: String
    private let fd: Int32
    private var pending: [UInt8] = []

    /// Connects and says hello; returns once the welcome arrived.
    init(path: String, timeout: Double = 5) throws {
        self.path = path
        do {
            fd = try UnixSocket.connect(path)
        } catch where error.errno == ENAMETOOLONG {
            throw CtlError("socket path is too long: \(path)")
        } catch {
            throw CtlError(
                "cannot connect to \(path): \(error.reason). Is insetd running (systemctl status insetd.socket)? "
                    + "Use --socket PATH or INSETD_SOCKET for another socket; permission errors mean you are not in the socket's group.")
        }
        send(ClientRequest(message: .hello(versions: supportedProtocolVersions, client: "insetctl")))
        guard let welcome = try receive(timeout: timeout), welcome["type"] as? String == "welcome" else {
            throw CtlError("\(path) did not answer hello like insetd does")
        }
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

    /// The next message as raw JSON text and object; nil on timeout. Throws when
    /// insetd closes the connection.
    func receiveLine(timeout: Double?) throws -> (text: String, object: [String: Any])? {
        while true {
            if let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let text = String(decoding: pending[..<newline], as: UTF8.self)
                pending.removeSubrange(...newline)
                let object = (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any] ?? [:]
                return (text, object)
            }
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, timeout.map { Int32($0 * 1000) } ?? -1)
            if ready == 0 { return nil }
            if ready < 0 { if errno == EINTR { continue } else { throw CtlError("poll failed on \(path)") } }
            var chunk = [UInt8](repeating: 0, count: 65536)
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { throw CtlError("insetd closed the connection (\(path))") }
            pending += chunk[..<count]
        }
    }

    func receive(timeout: Double?) throws -> [String: Any]? { try receiveLine(timeout: timeout)?.object }

    /// Sends a request with an id and returns its reply (`ok`, a reply, or an
    /// error turned into a thrown `CtlError`). Other messages are skipped.
    func request(_ message: ClientMessage, timeout: Double = 5) throws -> [String: Any] {
        send(ClientRequest(id: .string("ctl"), message: message))
        return try reply(timeout: timeout)
    }

    private func reply(timeout: Double) throws -> [String: Any] {
        let deadline = Date().addingTimeInterval(timeout)
        while let reply = try receive(timeout: max(0, deadline.timeIntervalSinceNow)) {
            guard reply["id"] as? String == "ctl" else { continue }
            if reply["type"] as? String == "error" {
                let code = reply["code"] as? String ?? "error"
                let hint = code == "not-authorized" ? " (control commands need root or the insetd group)" : ""
                throw CtlError("insetd refused: \(reply["message"] as? String ?? code)\(hint)")
            }
            return reply
        }
        throw CtlError("insetd did not answer within \(Int(timeout)) s (\(path))")
    }
}

struct CtlError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
