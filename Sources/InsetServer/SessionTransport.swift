import InsetProtocol
import Logging
import NIOCore

/// Who is on the other end of a session, as its transport knows it.
package enum SessionPeer: Hashable, Sendable, CustomStringConvertible {
    /// A Unix-socket peer and the kernel's record of it; nil when the record
    /// could not be read (then the peer is nobody in particular: it may not
    /// send control commands).
    case local(PeerCredentials?)
    /// A WebSocket peer: a page, known only by its TCP address (a browser
    /// passes no credentials, and a loopback address is every local program's).
    case webPage(address: String)

    package var description: String {
        switch self {
        case .local(let credentials?): "\(credentials)"
        case .local(nil): "local peer without credentials"
        case .webPage(let address): "web page at \(address)"
        }
    }
}

/// A way into the server's sessions: the Unix socket or the WebSocket.
///
/// Why one type: everything that differs between the two lives here and
/// nowhere else, so a session, a connection and the server never ask which
/// transport they serve. It says how a message is framed, which handler reads
/// the peer's messages, who may send control commands and what a refused one
/// is told, under which key the connection caps count a peer, and how a
/// connection ends: with a last message, and for a WebSocket a close frame
/// with its code, without letting a peer that does not read hold it open.
enum SessionTransport: Sendable, Hashable {
    case unixSocket
    /// `control`: whether pages may send control commands (`websocket.control`).
    case webSocket(control: Bool)

    var framing: SessionFraming {
        switch self {
        case .unixSocket: .lines
        case .webSocket: .messages
        }
    }

    /// What one client message is called in errors: a line or a message.
    var messageNoun: String {
        switch self {
        case .unixSocket: "line"
        case .webSocket: "message"
        }
    }

    /// Whether `peer` may send control commands. A socket peer by its
    /// credentials; a page only when the operator trusts every page that may
    /// connect (`websocket.control`).
    func allowsControl(_ peer: SessionPeer, authorization: Authorization) -> Bool {
        switch (self, peer) {
        case (.unixSocket, .local(let credentials?)): authorization.allowsControl(credentials)
        case (.webSocket(let control), .webPage): control
        default: false
        }
    }

    /// What a peer that may not send control commands is told.
    func notAuthorized(_ peer: SessionPeer) -> String {
        switch self {
        case .unixSocket: "control commands need root or a configured user or group (\(peer))"
        case .webSocket: "control commands are refused over the WebSocket unless websocket.control is true"
        }
    }

    /// The key the connection caps count `peer` under: a socket peer's uid, or
    /// one key for every page (the WebSocket's own cap is the one that matters).
    func admissionKey(_ peer: SessionPeer) -> ConnectionAdmission.Key {
        switch peer {
        case .local(let credentials): .user(credentials?.uid ?? .max)
        case .webPage: .webPages
        }
    }

    /// The handler that reads the session's messages: lines from the socket's
    /// byte stream, or text frames after NIO's frame decoder.
    func sessionHandler(session: ClientSession, messageLimit: Int, handshakeTimeout: Duration, logger: Logger)
        -> any ChannelHandler
    {
        switch self {
        case .unixSocket:
            SessionHandler(session: session, lineLimit: messageLimit, handshakeTimeout: handshakeTimeout)
        case .webSocket:
            WebSocketSessionHandler(
                session: session, messageLimit: messageLimit, handshakeTimeout: handshakeTimeout, logger: logger)
        }
    }

    /// Sends `last` (framed already), then ends the connection.
    ///
    /// The socket closes once `last` is written, or after 250 ms when the peer
    /// does not read. A WebSocket also sends a close frame with `code`, then
    /// closes only its own direction: closing a socket with unread input makes
    /// the kernel send a reset, and a browser that gets one drops the frames it
    /// has not read yet, `last` among them. What the peer still sends is read
    /// and discarded until it closes too, or 500 ms have passed.
    func finish(_ channel: any Channel, last: ByteBuffer?, code: UInt16 = 1000) {
        switch self {
        case .unixSocket:
            guard let last else { return channel.close(promise: nil) }
            let forced = channel.eventLoop.scheduleTask(in: .milliseconds(250)) { channel.close(promise: nil) }
            channel.writeAndFlush(last).whenComplete { _ in
                forced.cancel()
                channel.close(promise: nil)
            }
        case .webSocket:
            var bytes = last ?? channel.allocator.buffer(capacity: 4)
            WebSocketFrameWriter.appendClose(&bytes, code: code)
            channel.writeAndFlush(bytes, promise: nil)
            channel.close(mode: .output, promise: nil)
            channel.eventLoop.scheduleTask(in: .milliseconds(500)) { channel.close(promise: nil) }
        }
    }
}
