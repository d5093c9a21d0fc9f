import InsetServer
import Testing

/// Which pages may open a WebSocket session (insetd on 127.0.0.1:8099 allowing
/// one kiosk origin and insetd's Chromium extension).
@Suite struct WebSocketOriginPolicyTests {
    static let policy = WebSocketOriginPolicy(
        allowed: ["http://kiosk.local:8080", "chrome-extension://iejogogonnnlaelcojjdfnomdbkcbofg"], host: "127.0.0.1",
        port: 8099)

    @Test(arguments: [
        // insetd's own pages, under every loopback name.
        ("http://127.0.0.1:8099", "127.0.0.1:8099", true),
        ("http://localhost:8099", "localhost:8099", true),
        ("http://[::1]:8099", "[::1]:8099", true),
        // The allow-list, as browsers spell it (case, no default port).
        ("http://kiosk.local:8080", "127.0.0.1:8099", true),
        ("HTTP://Kiosk.Local:8080", "127.0.0.1:8099", true),
        // The extension's service worker (docs/WEB.md); another extension is not it.
        ("chrome-extension://iejogogonnnlaelcojjdfnomdbkcbofg", "127.0.0.1:8099", true),
        ("chrome-extension://aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", "127.0.0.1:8099", false),
        // Anyone else, including insetd's port on another scheme or port.
        ("http://evil.example", "127.0.0.1:8099", false),
        ("https://127.0.0.1:8099", "127.0.0.1:8099", false),
        ("http://127.0.0.1:8098", "127.0.0.1:8099", false),
        ("null", "127.0.0.1:8099", false),
        // A name re-pointed at this machine (DNS rebinding) is not insetd's own,
        // even though its Host header matches its Origin.
        ("http://rebind.example:8099", "rebind.example:8099", false),
    ])
    func origins(origin: String, host: String, allowed: Bool) {
        #expect(Self.policy.allows(origin: origin, hostHeader: host) == allowed)
    }

    @Test func programsWithoutAnOriginAreNotBrowsers() {
        #expect(Self.policy.allows(origin: nil, hostHeader: nil))
    }

    @Test func aListenerBeyondLoopbackOwnsTheAddressPagesWereLoadedFrom() {
        let policy = WebSocketOriginPolicy(allowed: [], host: "0.0.0.0", port: 8099)
        #expect(policy.allows(origin: "http://192.168.1.20:8099", hostHeader: "192.168.1.20:8099"))
        #expect(!policy.allows(origin: "http://192.168.1.20:8099", hostHeader: "192.168.1.21:8099"))
        #expect(!policy.allows(origin: "http://localhost:8099", hostHeader: "localhost:8099"))
    }
}
