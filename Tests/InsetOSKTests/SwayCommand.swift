import Foundation
import Glibc
import InsetSocket

/// Runs a sway command (IPC `RUN_COMMAND`) in an OSK test session straight on
/// sway's socket, from the test process: `swaymsg` through `as-session` costs
/// a handful of process starts, which on a loaded machine take longer than
/// the bridge's 0.5 s settle window, so a test that must move the text input
/// right after an event could not.
struct SwayCommand {
    let socketPath: String

    /// The session's `SWAYSOCK`, from the environment file `session.sh` writes.
    init?(session: OSKSession) {
        let lines = session.log("env").split(separator: "\n")
        guard let line = lines.first(where: { $0.hasPrefix("SWAYSOCK=") }) else { return nil }
        socketPath = String(line.dropFirst("SWAYSOCK=".count))
    }

    /// Sends `command` and waits for sway's reply; whether sway reported success.
    @discardableResult
    func run(_ command: String) throws -> Bool {
        let fd = try UnixSocket.connect(socketPath)
        defer { close(fd) }
        let payload = Array(command.utf8)
        var message = Array("i3-ipc".utf8)
        withUnsafeBytes(of: UInt32(payload.count)) { message += $0 }
        withUnsafeBytes(of: UInt32(0)) { message += $0 }  // RUN_COMMAND
        message += payload
        guard message.withUnsafeBytes({ send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }) == message.count else {
            throw SessionError("sway: send: \(String(cString: strerror(errno)))")
        }
        let header = try read(fd, 14)
        let length = header[6..<10].withUnsafeBytes { $0.loadUnaligned(as: UInt32.self) }
        let reply = String(decoding: try read(fd, Int(length)), as: UTF8.self)
        return reply.contains(#""success": true"#) || reply.contains(#""success":true"#)
    }

    private func read(_ fd: Int32, _ count: Int) throws -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: count)
        var done = 0
        while done < count {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress! + done, count - done, 0) }
            guard n > 0 else { throw SessionError("sway: reply cut short") }
            done += n
        }
        return buffer
    }
}
