#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import InsetSocket

/// The Wayland compositor of the bridge's session, known by the process behind
/// `$WAYLAND_DISPLAY`. How an OSK's layer surface reaches the screen depends on
/// it, not on the OSK: squeekboard and wvkbd draw themselves whole, and a
/// compositor either maps the surface in one frame or slides it in.
package enum Compositor: Equatable, Sendable {
    case sway
    case mir
    case phoc
    case kwin
    case gnomeShell
    case other(String)

    /// Whether a layer surface is on the screen whole in the frame it is mapped:
    /// sway (wlroots' scene, no effects), Mir 2.12 (miral-shell; stop 52 read
    /// Xvfb's framebuffer every 2 ms: squeekboard's 150 rows appear and go in
    /// one frame), phoc 0.24 (grim 32 ms after the show and every 17 ms after:
    /// all 172 rows at their place from the first). KWin is not known to, so
    /// it says nothing.
    package var drawsLayerSurfacesWhole: Bool {
        switch self {
        case .sway, .mir, .phoc: true
        case .kwin, .gnomeShell, .other: false
        }
    }

    /// Whether insetd-osk measures the usable area with a layer surface
    /// (`LayerShellGauge`): one anchored to every edge, exclusive zone 0, is
    /// configured to the output less the exclusive zones, and again at every
    /// change of one, while it is unmapped. Mir 2.12 (miral-shell) and phoc
    /// 0.24 do. The size alone cannot say where the area sits: the keyboard is
    /// docked at the output's bottom (`UsableArea.edgesKnown`), exact with no
    /// other zone, 40 px lower than drawn under Phosh's home bar. sway is read
    /// by its IPC, which says both edges; KWin 5.27 leaves the surface whole
    /// with maliit shown.
    package var configuresLayerSurfacesToUsableArea: Bool {
        switch self {
        case .mir, .phoc: true
        case .sway, .kwin, .gnomeShell, .other: false
        }
    }

    /// The compositor by its process's name (`/proc/PID/comm`), or by the Mir
    /// server library it runs on (a shell built on Mir goes by any name):
    /// `mappedFiles` is read only when the name says nothing.
    package init(processName: String, mappedFiles: @autoclosure () -> [String] = []) {
        switch processName {
        case "sway": self = .sway
        case "phoc": self = .phoc
        // Plasma's kwin_wayland_wrapper makes the socket (comm: 15 bytes).
        case _ where processName.hasPrefix("kwin_wayland"): self = .kwin
        case "gnome-shell": self = .gnomeShell
        case _ where processName.hasPrefix("miral-") || processName == "ubuntu-frame": self = .mir
        case _ where mappedFiles().contains(where: { $0.contains("/libmiral.so") || $0.contains("/libmirserver.so") }):
            self = .mir
        default: self = .other(processName)
        }
    }

    /// The session's compositor: nil without `$WAYLAND_DISPLAY`, or when its
    /// socket does not answer.
    package static func running(environment: [String: String]) -> Compositor? {
        guard let display = environment["WAYLAND_DISPLAY"], !display.isEmpty else { return nil }
        let path: String
        if display.hasPrefix("/") {
            path = display
        } else if let runtime = environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/") {
            path = runtime + "/" + display
        } else {
            return nil
        }
        guard let pid = try? UnixSocket.listeningProcess(at: path),
            let comm = try? String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8)
        else { return nil }
        let name = String(comm.split(separator: "\n").first ?? "")
        return Compositor(
            processName: name,
            mappedFiles: ((try? String(contentsOfFile: "/proc/\(pid)/maps", encoding: .utf8)) ?? "")
                .split(separator: "\n").map(String.init))
    }
}
