import InsetServer
import Logging
import NIOCore

/// The `websocket:` section: whether insetd also serves browser pages (insetd.js)
/// over a WebSocket, where, to which page origins, and whether they may send
/// control commands. Off unless `listen` is set.
package struct WebSocketSettings: Sendable, Equatable {
    /// Where to listen; nil: no WebSocket endpoint.
    package var listen: ListenAddress?
    /// Required to listen on an address other than loopback.
    package var allowRemote: Bool
    /// Page origins allowed to connect besides insetd's own pages.
    package var origins: [String]
    /// Accept control commands (show, hide, policy) over the WebSocket.
    package var control: Bool

    package static let defaults = WebSocketSettings(listen: nil, allowRemote: false, origins: [], control: false)

    /// `HOST:PORT`: an IPv4 address, `localhost`, or `[IPv6]`, and a port.
    package struct ListenAddress: Sendable, Hashable, CustomStringConvertible {
        package var host: String
        package var port: Int

        package init(host: String, port: Int) {
            self.host = host
            self.port = port
        }

        init(parsing text: String) throws(ConfigurationValueError) {
            let host: Substring
            let port: Substring
            if text.hasPrefix("[") {
                guard let close = text.firstIndex(of: "]"), text[text.index(after: close)...].hasPrefix(":") else {
                    throw ConfigurationValueError("is not HOST:PORT (like \"127.0.0.1:8099\" or \"[::1]:8099\")")
                }
                host = text[text.index(after: text.startIndex)..<close]
                port = text[text.index(close, offsetBy: 2)...]
            } else {
                let parts = text.split(separator: ":", omittingEmptySubsequences: false)
                guard parts.count == 2 else {
                    throw ConfigurationValueError("is not HOST:PORT (like \"127.0.0.1:8099\" or \"[::1]:8099\")")
                }
                (host, port) = (parts[0], parts[1])
            }
            guard !host.isEmpty, host.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "." || $0 == ":" || $0 == "-" })
            else { throw ConfigurationValueError("has no usable host before the port") }
            guard let number = Int(port), (1...65535).contains(number) else {
                throw ConfigurationValueError("has no port from 1 to 65535")
            }
            self.init(host: String(host), port: number)
        }

        package var isLoopback: Bool { WebSocketOriginPolicy.isLoopback(host) }

        package var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }
    }

    /// `scheme://host[:port]` as browsers send it in `Origin`, `null` (pages
    /// from `file:` URLs), or `chrome-extension://ID` (a Chromium extension's
    /// service worker, insetd's own included: docs/WEB.md).
    static func parseOrigin(_ text: String) throws(ConfigurationValueError) -> String {
        if text == "null" { return text }
        let lower = text.lowercased()
        let schemes = ["http://", "https://", "chrome-extension://"]
        let rest = schemes.first(where: lower.hasPrefix).map { lower.dropFirst($0.count) }
        guard let rest, !rest.isEmpty, !rest.contains("/") else {
            throw ConfigurationValueError("is not an origin (scheme://host[:port], like \"http://kiosk.local:8080\", chrome-extension://ID, or null)")
        }
        return text
    }

    /// The WebSocket service for `server`, or nil when none is configured. A
    /// listener beyond loopback is logged as a warning: any machine that can
    /// reach it can then watch and drive the keyboard.
    func service(server: InsetServer, group: any EventLoopGroup, logger: Logger) -> InsetWebSocketServer? {
        guard let listen else { return nil }
        if !listen.isLoopback {
            logger.warning(
                "the WebSocket listens beyond loopback: other machines can connect",
                metadata: ["address": "\(listen)"])
        }
        return InsetWebSocketServer(
            server: server,
            configuration: .init(
                host: listen.host, port: listen.port, origins: origins, control: control, eventLoopGroup: group),
            logger: Logger(label: "insetd.websocket"))
    }
}
