import DBus
import InsetCore

/// Which on-screen keyboard the bridge drives.
package enum BackendKind: String, CaseIterable, Sendable {
    case squeekboard, wvkbd, kwin, gnome, auto
}

/// One on-screen keyboard as the bridge drives it. A backend exists per OSK
/// family because each has its own way to show, hide and observe it (D-Bus
/// method, property, signals to a process, a desktop setting).
package protocol OSKBackend: AnyObject {
    /// Short name used in logs and as the `bridge` of feedback messages.
    var name: String { get }
    /// Whether it speaks D-Bus (then `attach` gets the session bus).
    var usesBus: Bool { get }
    /// Finds the OSK and installs watches; `changed` runs (inside the bus's
    /// `process()`) whenever the OSK may have changed by itself.
    func attach(bus: DBusConnection?, changed: @escaping () -> Void) throws(OSKError)
    /// Shows or hides the OSK.
    func setVisible(_ visible: Bool) throws(OSKError)
    /// Whether the OSK is shown as it reports it; nil when it cannot say.
    func visible() throws(OSKError) -> Bool?
    /// The keyboard's height known from its configuration (wvkbd's `-H`/`-L`).
    func configuredHeight(landscape: Bool) -> Double?
    /// The keyboard's frame on the screen as the OSK or its shell reports it
    /// (GNOME's, through insetd's extension), read once it is shown; nil when
    /// it cannot say (sway's usable area is read by the bridge instead).
    func frame() -> Rect?
    /// Whether `frame()` says where the keyboard is (not only nil): the bridge
    /// can then measure the keyboard and confirm its shows without sway.
    var reportsFrame: Bool { get }
    /// How the keyboard moves on the screen when it shows or hides: `.none`
    /// where it appears at once; nil where the bridge cannot say (insetd's
    /// configured animation stands). `compositor`: the session's, when known.
    func animation(on compositor: Compositor?) -> Animation?
    /// Whether the OSK is a layer surface that claims an exclusive zone
    /// (squeekboard, wvkbd): the compositor's usable area then shows it.
    var claimsExclusiveZone: Bool { get }
    /// Whether the OSK lays itself out anew when its output turns or changes
    /// size (squeekboard, 100-200 ms after): its zone from before is then
    /// its old panel for a while, not its keyboard there. wvkbd keeps its
    /// zone, which is then its keyboard on the new output at once.
    var laysOutOnOutputChange: Bool { get }
    /// Whether `focusedWindow()` reads where the compositor draws its focused
    /// window (GNOME Shell, through insetd's extension): the bridge relays it
    /// to insetd, which places a client that cannot know its window's place.
    var readsFocusedWindow: Bool { get }
    /// The compositor's focused window on the screen (its frame, without
    /// shadows); nil: none is focused, or it cannot say.
    func focusedWindow() -> Rect?
    /// A usable hardware keyboard appeared or went (desktop settings follow it).
    func hardwareKeyboard(_ usable: Bool)
    /// Puts back what the bridge changed (settings) before it exits.
    func restore()
}

extension OSKBackend {
    package func configuredHeight(landscape: Bool) -> Double? { nil }
    package func frame() -> Rect? { nil }
    package var reportsFrame: Bool { false }
    package var readsFocusedWindow: Bool { false }
    package func focusedWindow() -> Rect? { nil }
    package func animation(on compositor: Compositor?) -> Animation? { nil }
    package var claimsExclusiveZone: Bool { false }
    package var laysOutOnOutputChange: Bool { false }
    package func hardwareKeyboard(_ usable: Bool) {}
    package func restore() {}
}

/// Options the backends need from the command line.
package struct BackendOptions: Sendable {
    package var wvkbdPid: Int32?
    package var wvkbdPidFile: String?
    package var wvkbdUnit: String?
    package var wvkbdHeights: (portrait: Double, landscape: Double)?
    /// Whether squeekboard's backend also turns GNOME's setting off with a hardware keyboard.
    package var squeekboardFollowsSetting = true

    package init() {}
}

/// Builds backends, and resolves `auto` to the first OSK that is present.
package enum Backends {
    package static func make(_ kind: BackendKind, options: BackendOptions, log: BridgeLog) -> OSKBackend? {
        switch kind {
        case .squeekboard: Squeekboard(setting: options.squeekboardFollowsSetting ? GnomeSetting(log: log) : nil)
        case .kwin: KWinVirtualKeyboard(log: log)
        case .wvkbd: Wvkbd(options: options)
        case .gnome: GnomeShellKeyboard(log: log)
        case .auto: nil
        }
    }

    /// The first of squeekboard, KWin, wvkbd, GNOME whose service is present now.
    package static func detect(bus: DBusConnection?, options: BackendOptions) -> BackendKind? {
        if let bus {
            if (try? bus.nameHasOwner(Squeekboard.busName)) == true { return .squeekboard }
            if (try? bus.nameHasOwner(KWinVirtualKeyboard.busName)) == true { return .kwin }
            if (try? bus.nameHasOwner(GnomeShellKeyboard.busName)) == true { return .gnome }
        }
        if Wvkbd(options: options).findProcess() != nil { return .wvkbd }
        if GnomeSetting.schemaInstalled { return .gnome }
        return nil
    }
}
