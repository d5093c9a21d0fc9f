import InsetCore
import InsetProtocol

/// What the server reports to the daemon, in order: one stream for all clients,
/// so requests are handled in the order they arrived.
package enum ServerEvent: Sendable {
    /// A client completed `hello` (`id` is the hello's); the daemon answers
    /// with `welcome`.
    case joined(ClientID, version: Int, id: RequestID?)
    /// A request from a client that has said hello (control commands already
    /// authorized).
    case request(ClientID, ClientRequest)
    case left(ClientID)
}
