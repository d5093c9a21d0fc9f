import Foundation
import Glibc
import InsetSocket
import Testing

@testable import InsetOSK

/// Which compositor the bridge is under decides whether an OSK that draws
/// itself whole appears at once: the names it goes by, and the real lookup
/// through a listening socket's peer credentials.
@Suite struct CompositorTests {
    @Test(arguments: [
        ("sway", [], Compositor.sway),
        ("phoc", [], .phoc),
        ("kwin_wayland", [], .kwin),
        ("kwin_wayland_wr", [], .kwin),
        ("gnome-shell", [], .gnomeShell),
        ("miral-shell", [], .mir),
        ("miral-kiosk", [], .mir),
        ("ubuntu-frame", [], .mir),
        // A shell built on Mir under a name of its own: by the library it runs on.
        ("lomiri", ["7f00-7f10 r-xp 00000000 08:01 42 /usr/lib/x86_64-linux-gnu/libmiral.so.6"], .mir),
        ("labwc", ["7f00-7f10 r-xp 00000000 08:01 42 /usr/lib/x86_64-linux-gnu/libwlroots.so.10"], .other("labwc")),
    ] as [(String, [String], Compositor)])
    func knownByItsProcess(name: String, maps: [String], expected: Compositor) {
        #expect(Compositor(processName: name, mappedFiles: maps) == expected)
    }

    @Test(arguments: [
        (Compositor.sway, true), (.mir, true), (.phoc, true), (.kwin, false), (.gnomeShell, false),
        (.other("weston"), false),
    ])
    func drawsLayerSurfacesWhole(compositor: Compositor, whole: Bool) {
        #expect(compositor.drawsLayerSurfacesWhole == whole)
    }

    /// Where insetd-osk measures the usable area with a layer surface: Mir and
    /// phoc, seen to configure an unmapped one to it (540x960 → 540x788 with
    /// squeekboard shown on phoc 0.24; sway is asked by IPC, KWin 5.27 keeps
    /// it 540x960 with maliit shown).
    @Test(arguments: [
        (Compositor.sway, false), (.mir, true), (.phoc, true), (.kwin, false), (.gnomeShell, false),
        (.other("labwc"), false),
    ])
    func configuresLayerSurfacesToUsableArea(compositor: Compositor, configures: Bool) {
        #expect(compositor.configuresLayerSurfacesToUsableArea == configures)
    }

    /// A socket this test listens on stands in for `$WAYLAND_DISPLAY`: the
    /// process behind it is this one, named as /proc/self/comm says.
    @Test func foundThroughTheDisplaySocket() throws {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("compositor-\(getpid())-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let listener = try UnixSocket.bind(directory + "/wayland-9")
        defer { close(listener) }
        let ownName = try String(contentsOfFile: "/proc/self/comm", encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)

        #expect(try UnixSocket.listeningProcess(at: directory + "/wayland-9") == getpid())
        let environment = ["WAYLAND_DISPLAY": "wayland-9", "XDG_RUNTIME_DIR": directory]
        #expect(Compositor.running(environment: environment) == .other(ownName))
        #expect(Compositor.running(environment: ["WAYLAND_DISPLAY": directory + "/wayland-9"]) == .other(ownName))
        // No display, a relative one without a runtime directory, nobody listening.
        #expect(Compositor.running(environment: [:]) == nil)
        #expect(Compositor.running(environment: ["WAYLAND_DISPLAY": "wayland-9"]) == nil)
        #expect(Compositor.running(environment: ["WAYLAND_DISPLAY": "wayland-1", "XDG_RUNTIME_DIR": directory]) == nil)
    }
}
