import InsetCore

/// The usable area of the output the OSK is on, as the compositor says it:
/// sway's IPC (`get_outputs`, `get_workspaces`), or a layer-shell surface's
/// configured size where no IPC says it (`LayerShellGauge`: Mir, phoc). An
/// on-screen keyboard on the layer shell claims an exclusive zone, so the
/// usable area shrinks by the keyboard's real height: that is how the bridge
/// learns the real frame, and when the keyboard is on the screen.
package struct UsableArea: Hashable, Sendable {
    /// The output's logical size.
    package var output: Size
    /// How far the usable area's bottom edge is above the output's; where
    /// `edgesKnown` is false, how much of the output's height the zones take
    /// at either edge.
    package var bottomGap: Double
    /// Where the reading comes from, which decides what one reading says.
    package var source: Source

    /// The two ways the bridge reads a usable area.
    package enum Source: Hashable, Sendable {
        /// sway's IPC, polled: the workspace's rectangle says where the area
        /// sits, and a poll may catch a zone the compositor applies in steps.
        case swayIPC
        /// A layer surface's configure: the compositor's arrangement whole,
        /// but only its size.
        case layerSurface
    }

    package init(output: Size, bottomGap: Double, source: Source = .swayIPC) {
        self.output = output
        self.bottomGap = bottomGap
        self.source = source
    }

    /// The reading is the compositor's whole arrangement (a layer surface's
    /// configure), not a poll that may catch a zone applied in steps: one
    /// such reading settles the keyboard's frame.
    package var settled: Bool { source == .layerSurface }
    /// The reading says where the area sits (sway's workspace rectangle), not
    /// only its size (a layer surface's): without it, a panel's zone at the top
    /// cannot be told from one at the bottom.
    package var edgesKnown: Bool { source == .swayIPC }
}
