import CWayland
import Glibc
import InsetCore

/// The compositor's usable area where no IPC says it (Mir, phoc): an unmapped
/// layer-shell surface anchored to every edge of the output, exclusive zone 0,
/// is configured to the output less every exclusive zone, and again when one
/// changes, so squeekboard's or wvkbd's zone shows in its size in the
/// compositor's own arrangement. The surface is never drawn and takes no
/// input; the Wayland connection is this gauge's alone (CWayland).
///
/// Only the height tells (`UsableArea.edgesKnown` false): a panel's zone is
/// part of the gap with the OSK hidden, which `ExclusiveZoneGauge` takes as
/// its baseline, and the keyboard is docked at the output's bottom
/// (`Compositor.configuresLayerSurfacesToUsableArea` says where the gauge is used).
package final class LayerShellGauge {
    private let gauge: OpaquePointer

    /// Connects to `display` (`$WAYLAND_DISPLAY`), measuring on its first output.
    package init(display: String?) throws(OSKError) {
        var error: Int32 = 0
        guard let gauge = cwayland_gauge_open(display, &error) else { throw Self.error(error) }
        self.gauge = gauge
    }

    deinit { cwayland_gauge_close(gauge) }

    /// The usable area as the compositor last configured it, after taking in
    /// what it sent since (without blocking).
    package func usableArea() throws(OSKError) -> UsableArea {
        let status = cwayland_gauge_update(gauge)
        guard status == 0 else { throw Self.error(status) }
        var output = (width: 0.0, height: 0.0)
        var usable = (width: 0.0, height: 0.0)
        cwayland_gauge_sizes(gauge, &output.width, &output.height, &usable.width, &usable.height)
        return UsableArea(
            output: Size(width: output.width, height: output.height), bottomGap: max(0, output.height - usable.height),
            source: .layerSurface)
    }

    private static func error(_ code: Int32) -> OSKError {
        switch code {
        case Int32(CWAYLAND_NO_LIBRARY): OSKError("Wayland: libwayland-client.so.0 is not installed")
        case Int32(CWAYLAND_NO_LAYER_SHELL): OSKError("Wayland: the compositor offers no layer shell (zwlr_layer_shell_v1)")
        case Int32(CWAYLAND_NO_OUTPUT): OSKError("Wayland: no output that says its size")
        case Int32(CWAYLAND_NO_CONFIGURE): OSKError("Wayland: the compositor never configured the gauge's layer surface")
        case Int32(CWAYLAND_CLOSED): OSKError("Wayland: the compositor closed the gauge's layer surface (its output went)")
        default: OSKError("Wayland: \(String(cString: strerror(code))) (errno \(code))")
        }
    }
}
