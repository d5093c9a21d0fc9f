import Foundation
import Testing

@testable import InsetDaemon

/// The `websocket:` section: off by default, loopback unless told otherwise,
/// every bad value named.
@Suite struct WebSocketConfigurationTests {
    @Test func offByDefault() {
        #expect(DaemonConfiguration.defaults.webSocket.listen == nil)
        #expect(DaemonConfiguration.defaults.webSocket.control == false)
    }

    @Test(arguments: [
        ("127.0.0.1:8099", "127.0.0.1", 8099, true),
        ("localhost:1", "localhost", 1, true),
        ("[::1]:65535", "::1", 65535, true),
        ("0.0.0.0:8099", "0.0.0.0", 8099, false),
        ("192.168.1.20:80", "192.168.1.20", 80, false),
    ])
    func listenAddresses(text: String, host: String, port: Int, loopback: Bool) throws {
        let address = try WebSocketSettings.ListenAddress(parsing: text)
        #expect(address == .init(host: host, port: port))
        #expect(address.isLoopback == loopback)
    }

    @Test func valuesAreRead() async throws {
        let path = try temporaryConfig("""
            websocket:
              listen: "127.0.0.1:8099"
              origins: ["http://kiosk.local:8080", "null", "chrome-extension://iejogogonnnlaelcojjdfnomdbkcbofg"]
              control: true
            """)
        let config = try await DaemonConfigurationLoader.load(path: path)
        #expect(config.webSocket.listen == .init(host: "127.0.0.1", port: 8099))
        #expect(config.webSocket.origins == ["http://kiosk.local:8080", "null", "chrome-extension://iejogogonnnlaelcojjdfnomdbkcbofg"])
        #expect(config.webSocket.control)
        #expect(!config.webSocket.allowRemote)
    }

    @Test func beyondLoopbackOnlyWhenAllowed() async throws {
        let allowed = try await DaemonConfigurationLoader.load(
            path: try temporaryConfig("websocket: {listen: \"0.0.0.0:8099\", allow-remote: true}\n"))
        #expect(allowed.webSocket.listen == .init(host: "0.0.0.0", port: 8099))
    }

    @Test func everyBadValueIsReported() async throws {
        let path = try temporaryConfig("""
            websocket:
              listen: "0.0.0.0:8099"
              origins: ["kiosk.local", "http://kiosk.local/path", "ftp://x"]
              control: maybe
            """)
        do {
            _ = try await DaemonConfigurationLoader.load(path: path)
            Issue.record("a bad websocket section was accepted")
        } catch {
            let origin = "is not an origin (scheme://host[:port], like \"http://kiosk.local:8080\", chrome-extension://ID, or null)"
            #expect(
                error.description.split(separator: "\n").map { $0.replacingOccurrences(of: path, with: "FILE") } == [
                    "FILE:2:11: websocket.listen: '0.0.0.0:8099' is not a loopback address; set websocket.allow-remote: true to listen on it",
                    "FILE:3:13: websocket.origins: 'kiosk.local' \(origin)",
                    "FILE:3:28: websocket.origins: 'http://kiosk.local/path' \(origin)",
                    "FILE:3:55: websocket.origins: 'ftp://x' \(origin)",
                    "FILE:4:12: websocket.control: 'maybe' is not true or false",
                ])
        }
    }

    @Test(arguments: [
        ("8099", "is not HOST:PORT (like \"127.0.0.1:8099\" or \"[::1]:8099\")"),
        ("127.0.0.1:0", "has no port from 1 to 65535"),
        ("127.0.0.1:http", "has no port from 1 to 65535"),
        (":8099", "has no usable host before the port"),
        ("[::1]8099", "is not HOST:PORT (like \"127.0.0.1:8099\" or \"[::1]:8099\")"),
    ])
    func badListenAddresses(text: String, why: String) {
        #expect(throws: (any Error).self) { try WebSocketSettings.ListenAddress(parsing: text) }
        do { _ = try WebSocketSettings.ListenAddress(parsing: text) } catch { #expect(error.why == why) }
    }
}
