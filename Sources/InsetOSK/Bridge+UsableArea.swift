#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import InsetCore

/// The bridge reading the compositor's usable area: sway's IPC, else the
/// layer-shell gauge it opens where the compositor configures a layer
/// surface to that area (Mir, phoc). Apart from `Bridge.swift` because it
/// changes with the compositors' ways of saying it, not with the peers.
extension Bridge {
    /// Reads the usable area when the machine asks for it (the OSK's
    /// exclusive zone: its frame, and whether wvkbd is shown).
    func readUsableArea(now: Instant) {
        guard areaSource, let due = areaReadDue, now >= due else { return }
        feed(.usableArea(usableArea()), now: now)
    }

    /// Whether the bridge reads a usable area: sway's IPC, or the layer-shell gauge.
    var areaSource: Bool { sway != nil || layerGauge != nil }

    /// sway's usable area, else the layer-shell gauge's; nil when neither says.
    func usableArea() -> UsableArea? {
        if let sway { return try? sway.usableArea() }
        guard let layerGauge else { return nil }
        do { return try layerGauge.usableArea() } catch {
            // The compositor went or closed the surface: the OSK's next attach opens another.
            self.layerGauge = nil
            gaugeFailed(error)
            return nil
        }
    }

    /// Opens the layer-shell gauge for an OSK that claims an exclusive zone,
    /// under a compositor that says no usable area by IPC and is known to
    /// configure an unmapped layer surface to it (a compositor that does not
    /// would leave every show unconfirmed).
    func openLayerGauge(for backend: OSKBackend, on compositor: Compositor?) {
        // An OSK of another kind (`auto` found a new one) shows in no zone:
        // its shows are confirmed by its own word, not by the area.
        guard backend.claimsExclusiveZone else {
            layerGauge = nil
            return
        }
        guard sway == nil, layerGauge == nil, compositor?.configuresLayerSurfacesToUsableArea == true else { return }
        do {
            layerGauge = try LayerShellGauge(display: ProcessInfo.processInfo.environment["WAYLAND_DISPLAY"])
            recovered("wayland", "measuring the usable area with a layer surface")
        } catch {
            gaugeFailed(error)
        }
    }

    /// Says once per distinct failure that the area goes unmeasured until the OSK's next attach.
    func gaugeFailed(_ error: OSKError) {
        failedOnce("wayland", error.description, then: "the usable area is not measured until \(backend?.name ?? "the OSK") attaches again")
    }
}
