/// Which web pages may open a session: browsers send the page's origin with the
/// WebSocket upgrade, and any page on any site can try to reach a loopback
/// port, so the upgrade is refused unless the origin is on the configured
/// allow-list or is insetd's own (the pages it serves itself).
///
/// insetd's own origins are its listen address and, on loopback, the loopback
/// names (`127.0.0.1`, `localhost`, `[::1]`) with its port; a `Host` header
/// counts only when it is an address literal, so a name that a hostile site
/// re-points at this machine (DNS rebinding) is never taken for insetd's own.
/// A request without an `Origin` header is not from a browser page (browsers
/// always send it on a WebSocket upgrade) and is let through: a local program
/// could as well open the Unix socket.
package struct WebSocketOriginPolicy: Sendable, Hashable {
    package var allowed: Set<String>
    package var host: String
    package var port: Int

    package init(allowed: [String], host: String, port: Int) {
        self.allowed = Set(allowed.map(Self.normalized))
        self.host = host
        self.port = port
    }

    package func allows(origin: String?, hostHeader: String?) -> Bool {
        guard let origin else { return true }
        let normalized = Self.normalized(origin)
        if allowed.contains(normalized) { return true }
        var own = ["http://\(Self.urlHost(host)):\(port)"]
        if Self.isLoopback(host) {
            own += ["http://127.0.0.1:\(port)", "http://localhost:\(port)", "http://[::1]:\(port)"]
        }
        if let hostHeader, Self.isAddressLiteral(hostHeader) { own.append("http://\(hostHeader.lowercased())") }
        return own.contains(normalized)
    }

    /// Origins compare as browsers send them: lower case, no trailing slash, no
    /// default port.
    static func normalized(_ origin: String) -> String {
        var text = origin.lowercased()
        while text.hasSuffix("/") { text.removeLast() }
        if text.hasPrefix("http://"), text.hasSuffix(":80") { text.removeLast(3) }
        if text.hasPrefix("https://"), text.hasSuffix(":443") { text.removeLast(4) }
        return text
    }

    package static func isLoopback(_ host: String) -> Bool {
        host == "localhost" || host == "::1" || host == "[::1]" || host.hasPrefix("127.")
    }

    static func urlHost(_ host: String) -> String { host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host }

    /// `127.0.0.1:8080`, `[::1]:8080`, `192.168.1.5:8080`: an address, not a name.
    static func isAddressLiteral(_ hostAndPort: String) -> Bool {
        if hostAndPort.hasPrefix("[") { return true }
        let host = hostAndPort.split(separator: ":", maxSplits: 1).first ?? ""
        return !host.isEmpty && host.allSatisfy { $0.isNumber || $0 == "." }
    }
}
