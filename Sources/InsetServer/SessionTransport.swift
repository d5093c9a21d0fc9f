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

/// A way into the server's sessions: `UnixSocketTransport` or `WebSocketTransport`.
///
/// Why a protocol: everything that differs between transports lives in the
/// type of each, so a session, a connection, the registry and the server never
/// ask which transport they serve. A transport says how a message is framed,
/// which handler reads the peer's messages, who may send control commands and
/// what a refused one is told, under which key (and cap) the connection caps
/// count a peer, and how a connection ends.
protocol SessionTransport: Sendable {
    /// How every message to a peer of this transport is framed.
    var framing: SessionFraming { get }

    /// What one client message is called in errors: a line or a message.
    var messageNoun: String { get }

    /// Whether `peer` may send control commands.
    func allowsControl(_ peer: SessionPeer, authorization: Authorization) -> Bool

    /// What a peer that may not send control commands is told.
    func notAuthorized(_ peer: SessionPeer) -> String

    /// The key the connection caps count `peer` under, with the transport's
    /// own cap on it, if any.
    func admissionKey(_ peer: SessionPeer, limits: ConnectionLimits) -> ConnectionAdmission.Key

    /// The handler that reads the session's messages.
    func sessionHandler(session: ClientSession, messageLimit: Int, handshakeTimeout: Duration, logger: Logger)
        -> any ChannelHandler

    /// Sends `last` (framed already), then ends the connection, never waiting
    /// long on a peer that does not read. `code`: the close code, where the
    /// transport has them.
    func finish(_ channel: any Channel, last: ByteBuffer?, code: UInt16)
}
