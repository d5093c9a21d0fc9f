import InsetCore

/// What insetd-osk's decisions react to: insetd's word, the OSK's, the
/// compositor's, and time. The I/O side (`Bridge`) turns sockets, D-Bus signals
/// and sway's IPC into these, so every rule can be tested with exact times.
package enum BridgeEvent: Hashable, Sendable {
    /// insetd's welcome: a first connection or a restarted insetd, with its
    /// whole state (`keyboard`: the frame of the keyboard it shows, if any).
    case linkConnected(screen: Size, keyboardShown: Bool, hardwareKeyboard: Bool, keyboard: Rect? = nil)
    case linkLost
    /// insetd's keyboard notifications: shown (will/did show, frame changes) or hidden.
    case keyboard(shown: Bool)
    /// insetd moved the keyboard it shows to `frame` (`willChangeFrame`). One
    /// the bridge did not report is insetd's own: at a turn its clients told
    /// it of, its guess for the turned screen, which the bridge is to measure.
    case keyboardMoved(to: Rect)
    case hardwareKeyboard(usable: Bool)
    /// The OSK can be driven. Without `observable` (no property, no sway) a show
    /// cannot be confirmed and is taken as done; `configured` are wvkbd's -H/-L;
    /// `measurable`: the compositor's usable area tells the real frame (sway's
    /// IPC, the layer-shell gauge under Mir and phoc);
    /// without `reportsVisibility` (wvkbd) that area also tells whether it is shown;
    /// `animation`: how it moves on the screen (nil: not known); `reportsFrame`:
    /// the OSK (or its shell) says where the keyboard is (GNOME's, through
    /// insetd's extension), so its frame is measured without sway too;
    /// `laysOutOnOutputChange`: its zone from before a turn is its old panel
    /// for `BridgeTiming.relayoutWait` (squeekboard), not its keyboard there.
    case oskAttached(
        name: String, observable: Bool, configured: ConfiguredHeights?, measurable: Bool = false, reportsVisibility: Bool = true,
        animation: Animation? = nil, reportsFrame: Bool = false, laysOutOnOutputChange: Bool = false)
    /// How the attached OSK moves changed while it runs (GNOME Shell's
    /// animations turned on or off).
    case oskAnimation(Animation?)
    /// The OSK went away (crash, restart, bus name lost).
    case oskDetached
    /// The OSK's visibility as last read; repeated readings are harmless.
    case oskObserved(visible: Bool)
    /// A settled real frame, measured from the compositor's usable area, or the OSK's own report.
    case frameMeasured(Rect, source: String = "the usable area")
    /// A reading of the compositor's usable area, asked for by `BridgeStep.readArea`;
    /// nil when it could not be read.
    case usableArea(UsableArea?)
    /// The answer to `checkFullscreen`: the app id of a full-screen window on the
    /// OSK's output, or nil when there is none.
    case fullscreen(window: String?)
    /// insetd refused a frame the bridge reported (measured on an output
    /// turned before insetd heard of the turn from its clients).
    case frameRefused
    case tick
}

/// wvkbd's `-H` / `-L`: a frame known before the keyboard ever shows.
package struct ConfiguredHeights: Hashable, Sendable {
    package var portrait: Double?
    package var landscape: Double?

    package init(portrait: Double?, landscape: Double?) {
        self.portrait = portrait
        self.landscape = landscape
    }
}

/// What the machine asks the I/O side to do, in order.
package enum BridgeAction: Hashable, Sendable {
    case setOSKVisible(Bool)
    /// A usable hardware keyboard came or went (desktop settings follow it).
    case setHardwareKeyboard(Bool)
    case reportVisibility(Bool)
    /// The real frame; nil: it is measured, but none is known for the screen yet.
    case reportFrame(Rect?)
    /// How the OSK moves on the screen; nil: not known.
    case reportAnimation(Animation?)
    case reportProblem(String?)
    /// The OSK ended (false) or is back (true): insetd shows no keyboard meanwhile.
    case reportRunning(Bool)
    /// Ask the compositor whether a full-screen window covers the OSK (answer: `.fullscreen`).
    case checkFullscreen
    case log(String)
    /// Logged with `--verbose` only.
    case trace(String)
}

/// One step's outcome: actions, when the machine next needs a `.tick`, and
/// when it next needs a `.usableArea` reading (nil: none; due at or before now: read now).
package struct BridgeStep: Hashable, Sendable {
    package var actions: [BridgeAction]
    package var wake: Instant?
    package var readArea: Instant? = nil
}

/// The bridge's timings, named so tests derive expected times from them.
package struct BridgeTiming: Hashable, Sendable {
    /// After the n-th show was sent, how long to wait for the OSK to confirm it
    /// before the next one; one send per entry, then the bridge gives up.
    package var confirmDelays: [Duration] = [.milliseconds(80), .milliseconds(200), .milliseconds(400), .milliseconds(800)]
    /// A hide the bridge did not ask for is the user's only when the OSK had been
    /// visible, and no show had been sent, for this long; sooner it is a drop.
    package var settle: Duration = .milliseconds(500)
    /// After the bridge gave up on a show, a show the OSK makes within this
    /// long is its late answer to the bridge's asks, not the user's (maliit's
    /// first show after it starts, under KWin, can come seconds late).
    package var lateShowAfterGivingUp: Duration = .seconds(5)
    /// A user's hide is reported after this long unless insetd hides meanwhile
    /// (squeekboard hides by itself on blur, and insetd's hide may come second).
    package var userHideHold: Duration = .milliseconds(250)
    /// While shown, how often the compositor is asked about full-screen windows.
    package var fullscreenInterval: Duration = .seconds(1)
    /// How long after a show the compositor's usable area is read for the frame
    /// (until two readings agree; a loaded machine's compositor can be slow to
    /// apply the exclusive zone).
    package var measureWindow: Duration = .seconds(5)
    /// How often the usable area is read while measuring (two readings must agree).
    package var measureInterval: Duration = .milliseconds(50)
    /// How long after insetd moved its keyboard to a frame of its own (a turn)
    /// the area is read every `confirmInterval`, until the OSK's frame there is
    /// measured: the output has turned already, and each reading late is a
    /// frame with the views laid out against no keyboard.
    package var turnReadWindow: Duration = .seconds(1)
    /// How often the usable area is read to see an OSK that cannot say whether it is shown (wvkbd).
    package var watchInterval: Duration = .milliseconds(100)
    /// How often it is read while a show or hide asked of such an OSK is not seen yet: a frame.
    package var confirmInterval: Duration = .milliseconds(16)
    /// How long a show an OSK says is up waits for its zone in the usable area
    /// (read every `confirmInterval`) before it is confirmed on its word alone.
    package var confirmWindow: Duration = .seconds(1)
    /// After the output changed size under a shown OSK, how long its zone from
    /// before is taken for its old panel rather than its keyboard on the new
    /// output, for an OSK that lays itself out anew (squeekboard: 100-200 ms
    /// after, here). One that keeps its zone (wvkbd) is measured at once and
    /// read this long still, so a layout it does change is caught.
    package var relayoutWait: Duration = .milliseconds(500)

    package init() {}
}
