import Logging
import NIOCore

/// The Unix socket's sessions: one message per line on a byte stream, and a
/// peer the kernel vouches for (its credentials decide control commands and
/// the per-user cap).
struct UnixSocketTransport: SessionTransport {
    var framing: SessionFraming { .lines }

    var messageNoun: String { "line" }

    /// By the peer's credentials; a peer whose record could not be read is
    /// nobody in particular, and may not.
    func allowsControl(_ peer: SessionPeer, authorization: Authorization) -> Bool {
        guard case .local(let credentials?) = peer else { return false }
        return authorization.allowsControl(credentials)
    }

    func notAuthorized(_ peer: SessionPeer) -> String {
        "control commands need root or a configured user or group (\(peer))"
    }

    /// The peer's uid (a peer without credentials counts as one unknown user).
    func admissionKey(_ peer: SessionPeer, limits: ConnectionLimits) -> ConnectionAdmission.Key {
        guard case .local(let credentials) = peer else { return ConnectionAdmission.Key(.user(.max)) }
        return ConnectionAdmission.Key(.user(credentials?.uid ?? .max))
    }

    /// Lines from the socket's byte stream.
    func sessionHandler(session: ClientSession, messageLimit: Int, handshakeTimeout: Duration, logger: Logger)
        -> any ChannelHandler
    {
        SessionHandler(session: session, lineLimit: messageLimit, handshakeTimeout: handshakeTimeout)
    }

    /// The socket closes once `last` is written, or after 250 ms when the
    /// peer does not read. `code` is not the socket's: a line says why.
    func finish(_ channel: any Channel, last: ByteBuffer?, code: UInt16) {
        guard let last else { return channel.close(promise: nil) }
        let forced = channel.eventLoop.scheduleTask(in: .milliseconds(250)) { channel.close(promise: nil) }
        channel.writeAndFlush(last).whenComplete { _ in
            forced.cancel()
            channel.close(promise: nil)
        }
    }
}

extension SessionFraming {
    /// The Unix socket's: a line goes out as it is, newline and all.
    static let lines = SessionFraming(name: "lines", overhead: 0, sendsLinesAsTheyAre: true) { line, buffer in
        buffer.writeBytes(line)
    }
}
