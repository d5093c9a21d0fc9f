import Foundation
import Glibc
import InsetCore
import Testing

@testable import InsetOSK

/// The layer-shell gauge in a real compositor (headless sway, `OSKSession`):
/// its reading of squeekboard's exclusive zone must be what sway's own IPC says
/// of the same zone, an independent account of the same arrangement.
@Suite(.serialized, .enabled(if: OSKSession.canRun, "needs root, sway, squeekboard, dbus"))
struct LayerShellGaugeInSwayTests {
    static let sm = ["sm.puri.OSK0", "/sm/puri/OSK0", "sm.puri.OSK0"]

    @Test func readsSqueekboardsZoneAsSwaysIPCDoes() async throws {
        try await withSession("gauge") { session in
            let env = session.log("env").split(separator: "\n")
            let name = try #require(env.first { $0.hasPrefix("WAYLAND_DISPLAY=") }?.dropFirst("WAYLAND_DISPLAY=".count))
            let gauge = try LayerShellGauge(display: "\(session.dir)/xdg/\(name)")
            // Nothing claims a zone yet: the whole 390x844 output is usable.
            #expect(
                try gauge.usableArea()
                    == UsableArea(output: Size(width: 390, height: 844), bottomGap: 0, source: .layerSurface))

            _ = try session.spawn(["squeekboard"], log: "squeekboard.log")
            #expect(await waitUntil(seconds: 10) { await session.busBool(Self.sm[0], Self.sm[1], Self.sm[2], "Visible") == false })
            try await session.run(["busctl", "--user", "call"] + Self.sm + ["SetVisible", "b", "true"])
            #expect(await waitUntil(seconds: 5) { (await session.swayBottomGap() ?? 0) > 0 })
            let zone = try #require(await session.swayBottomGap())
            #expect(await waitUntil(seconds: 2) { (try? gauge.usableArea().bottomGap) == zone })
            #expect(try gauge.usableArea().output == Size(width: 390, height: 844))

            try await session.run(["busctl", "--user", "call"] + Self.sm + ["SetVisible", "b", "false"])
            #expect(await waitUntil(seconds: 5) { (try? gauge.usableArea().bottomGap) == 0 })
            #expect(await session.swayBottomGap() == 0)
        }
    }
}

/// Failures to measure say why, in one line.
struct LayerShellGaugeErrorTests {
    @Test func aDisplayThatIsNotThereSaysSo() {
        do {
            _ = try LayerShellGauge(display: "/nonexistent/wayland-insetd-test")
            Issue.record("a gauge on a display that does not exist")
        } catch {
            #expect(error.description == "Wayland: No such file or directory (errno 2)")
        }
    }
}
