import DBus
import Glibc
import InsetCore

/// KWin's built-in virtual keyboard (Plasma, Plasma Mobile): `org.kde.KWin`,
/// `/VirtualKeyboard`, interface `org.kde.kwin.VirtualKeyboard`, whose
/// `forceActivate` shows it (`active` where a KWin lacks the method), whose
/// `active` false hides it, and whose `visible` says whether it is shown.
/// Where the focused window is comes from insetd's KWin script (`KWinScript`),
/// loaded into KWin at each attach and unloaded at exit: KWin moves a
/// floating window up out of the keyboard's way, which no client can see.
final class KWinVirtualKeyboard: OSKBackend {
    static let busName = "org.kde.KWin"
    static let path = "/VirtualKeyboard"
    static let interface = "org.kde.kwin.VirtualKeyboard"
    let name = "kwin"
    let usesBus = true
    private let log: BridgeLog
    private var bus: DBusConnection?
    private var changed: (() -> Void)?
    /// The unique name of the KWin that loaded the script: only its calls count.
    private var kwinOwner: String?
    /// The script's file, while KWin has it loaded.
    private var scriptFile: String?
    /// The script's last word on the focused window (nil: none, or not said yet).
    private var window: Rect?
    /// The last refusal logged, so a script repeating a bad call logs one line.
    private var lastRefusal: String?
    /// The script said KWin placed the panel since KWin last said it is hidden.
    private var panelPlaced = false
    /// The script has said so once with this KWin: only then are shows
    /// waited for (maliit's first panel is laid out up to 0.6 s after
    /// KWin's `visible`, and the first show is slow enough already).
    private var panelReports = false
    /// Since when KWin says `visible` (for `panelWait`).
    private var shownSince: Instant?
    /// Whether this KWin has `forceActivate` (until a call says it has not).
    private var forceActivates = true
    /// Whether this KWin can slide the input panel in and out (nil: it cannot
    /// say). KWin starts maliit with `MALIIT_ENABLE_ANIMATIONS=0`, so maliit
    /// draws no slide of its own, and slides the panel in its sliding-popups
    /// effect, which it supports only where it can animate (not on software
    /// rendering); without it the panel appears and goes in one frame.
    private var slidesPanel: Bool?

    init(log: BridgeLog) {
        self.log = log
    }

    func attach(bus: DBusConnection?, changed: @escaping () -> Void) throws(OSKError) {
        guard let bus else { throw OSKError("kwin: no session bus") }
        self.changed = changed
        forceActivates = true
        if self.bus !== bus {
            try watch(bus, changed)
            do { try bus.export(KWinScript.path) { [weak self] call in self?.received(call) ?? .done } } catch {
                throw OSKError("kwin: export \(KWinScript.path)", error)
            }
            self.bus = bus
        }
        do {
            // A disabled virtual keyboard ignores `active`: enable it once.
            if try !bus.boolProperty(Self.busName, Self.path, Self.interface, "enabled") {
                try bus.setBoolProperty(Self.busName, Self.path, Self.interface, "enabled", true)
            }
        } catch {
            throw OSKError("kwin: enable the virtual keyboard on \(Self.busName)", error)
        }
        loadScript(bus)
        // Supported, not loaded: whether KWin can animate does not change
        // while it runs, where the effects it has loaded do (at its start, or
        // the user's choice).
        do {
            slidesPanel = try bus.callReturningBool(
                Self.busName, "/Effects", "org.kde.kwin.Effects", "isEffectSupported", [.string("slidingpopups")])
        } catch {
            slidesPanel = nil
            log.info("kwin: cannot tell whether \(Self.busName) slides its keyboard in (\(error)); insetd's animation stands")
        }
    }

    /// At once where KWin cannot slide the panel; where it can, how long is
    /// KWin's setting (not read here), and insetd's configured animation stands.
    func animation(on compositor: Compositor?) -> Animation? {
        slidesPanel == false ? Animation.none : nil
    }

    private func watch(_ bus: DBusConnection, _ changed: @escaping () -> Void) throws(OSKError) {
        do {
            for member in ["visibleChanged", "activeChanged", "enabledChanged"] {
                try bus.addMatch(
                    "type='signal',sender='\(Self.busName)',path='\(Self.path)',interface='\(Self.interface)',member='\(member)'",
                    changed)
            }
            try bus.addMatch(
                "type='signal',sender='org.freedesktop.DBus',member='NameOwnerChanged',arg0='\(Self.busName)'", changed)
        } catch {
            throw OSKError("kwin: watch \(Self.busName)", error)
        }
    }

    /// A show is `forceActivate` (KWin 5.24 and later): `active` alone starts
    /// the input method but shows its panel only for a window whose text input
    /// asks for it, and an app whose toolkit talks to insetd instead (the Qt and
    /// GTK input-method modules) never does. A KWin without the method gets
    /// `active`, as a hide always does.
    func setVisible(_ visible: Bool) throws(OSKError) {
        guard let bus else { throw OSKError("kwin: no session bus") }
        if visible, forceActivates {
            do {
                try bus.call(Self.busName, Self.path, Self.interface, "forceActivate", [])
                return
            } catch where error.unknownMethod {
                log.info("kwin: \(Self.busName) has no forceActivate (\(error)); setting active instead")
                forceActivates = false
            } catch {
                throw OSKError("kwin: forceActivate on \(Self.busName)", error)
            }
        }
        do { try bus.setBoolProperty(Self.busName, Self.path, Self.interface, "active", visible) } catch {
            throw OSKError("kwin: set active=\(visible) on \(Self.busName)", error)
        }
    }

    /// KWin's `visible`, once KWin has laid the keyboard out: with the
    /// panel kept from an earlier show, KWin says `visible` about 120 ms
    /// before maliit's input region is set and the focused window moved out
    /// of its way, and a show confirmed then is measured against the window
    /// not moved yet. Once the script has said `PanelPlaced`, a show counts
    /// at its next one (or after `panelWait`, should it not come).
    func visible() throws(OSKError) -> Bool? {
        guard let bus else { throw OSKError("kwin: no session bus") }
        let shown: Bool
        do { shown = try bus.boolProperty(Self.busName, Self.path, Self.interface, "visible") } catch {
            throw OSKError("kwin: read visible of \(Self.busName)", error)
        }
        guard shown else {
            panelPlaced = false
            shownSince = nil
            return false
        }
        let now = monotonicInstant()
        let since = shownSince ?? now
        shownSince = since
        return panelPlaced || !panelReports || now >= since + Self.panelWait
    }

    /// How long a `visible` KWin waits for the script's `PanelPlaced`.
    static let panelWait: Duration = .milliseconds(300)

    var readsFocusedWindow: Bool { true }

    func focusedWindow() -> Rect? { window }

    /// Takes the script out of KWin before insetd-osk exits.
    func restore() {
        guard let bus, scriptFile != nil else { return }
        _ = try? bus.callReturningBool(
            Self.busName, "/Scripting", "org.kde.kwin.Scripting", "unloadScript", [.string(KWinScript.pluginName)])
        removeScriptFile()
    }

    // MARK: - The script

    /// Loads the script into the KWin now on the bus (a restarted KWin has
    /// none). Without it the keyboard is still driven; only the window's
    /// place is not relayed, which one line says.
    private func loadScript(_ bus: DBusConnection) {
        window = nil
        panelPlaced = false
        panelReports = false
        do {
            guard let unique = bus.uniqueName, unique.utf8.allSatisfy({ $0 == 0x3A || $0 == 0x2E || ($0 >= 0x30 && $0 <= 0x39) })
            else { throw OSKError("no unique name of our own to be called back at") }
            kwinOwner = try bus.nameOwner(Self.busName)
            // A script of an insetd-osk that ended without unloading it calls a
            // name no longer there; KWin refuses a second under the same name.
            _ = try? bus.callReturningBool(
                Self.busName, "/Scripting", "org.kde.kwin.Scripting", "unloadScript", [.string(KWinScript.pluginName)])
            let file = try writeScript(KWinScript.source(callingBack: unique))
            let id = try bus.callReturningInt32(
                Self.busName, "/Scripting", "org.kde.kwin.Scripting", "loadScript",
                [.string(file), .string(KWinScript.pluginName)])
            guard id >= 0 else { throw OSKError("KWin refused it (loadScript returned \(id))") }
            try bus.call(Self.busName, "/\(id)", "org.kde.kwin.Script", "run")
            log.info("kwin: insetd's KWin script loaded (\(file)): the focused window's place is relayed")
        } catch {
            log.info("kwin: cannot load insetd's KWin script: \(error); the focused window's place is not relayed")
        }
    }

    /// Writes the script where only this user reads it ($XDG_RUNTIME_DIR).
    private func writeScript(_ text: String) throws(OSKError) -> String {
        guard let runtime = getenv("XDG_RUNTIME_DIR").map({ String(cString: $0) }), runtime.hasPrefix("/") else {
            throw OSKError("XDG_RUNTIME_DIR is not set")
        }
        let file = "\(runtime)/insetd-osk-kwin-\(getpid()).js"
        let fd = open(file, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0 else { throw OSKError("write \(file): \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var bytes = Array(text.utf8)
        let written = bytes.withUnsafeMutableBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
        guard written == bytes.count else { throw OSKError("write \(file): \(String(cString: strerror(errno)))") }
        scriptFile = file
        return file
    }

    private func removeScriptFile() {
        if let scriptFile { unlink(scriptFile) }
        scriptFile = nil
    }

    /// A call to our object: only KWin's (the script runs inside it) is
    /// read, and only what `KWinScript.read` takes as a window.
    private func received(_ call: DBusMethodCall) -> DBusReply {
        guard let kwinOwner, call.sender == kwinOwner else {
            refused("a call from \(call.sender ?? "an unknown sender"), not KWin (\(kwinOwner ?? "not known"))")
            return .error(name: "org.freedesktop.DBus.Error.AccessDenied", message: "only insetd's KWin script reports here")
        }
        switch KWinScript.read(call) {
        case .focusedWindow(let frame):
            lastRefusal = nil
            if frame != window {
                window = frame
                changed?()
            }
            return .done
        case .panelPlaced:
            if !panelReports {
                panelReports = true
                log.info("kwin: KWin says when it has placed the keyboard's panel: a show counts from then")
            }
            if !panelPlaced {
                panelPlaced = true
                changed?()
            }
            return .done
        case .refused(let reason):
            refused(reason)
            return .invalidArguments(reason)
        }
    }

    private func refused(_ reason: String) {
        guard reason != lastRefusal else { return }
        lastRefusal = reason
        log.info("kwin: ignored a report on \(KWinScript.path): \(reason)")
    }
}
