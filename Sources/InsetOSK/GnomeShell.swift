import DBus
import InsetCore

/// GNOME Shell's own keyboard, driven through insetd's Shell extension
/// (gnome-shell/insetd@insetd, `org.insetd.Shell1` on the session bus): the
/// Shell has no API of its own to show, hide or locate its keyboard, and its
/// `Eval` needs unsafe mode. The extension shows and hides it, says whether it
/// is up and where (its frame, for insetd to publish the real keyboard), and
/// where the focused window is drawn (for insetd to place its client). With
/// a hardware keyboard the extension keeps the keyboard from opening by itself
/// (`SetHardwareKeyboard`), until told otherwise or the bridge leaves the bus:
/// `screen-keyboard-enabled` off would have GNOME 43 destroy its keyboard and
/// take the keyboard focus from the app's window. An extension loaded before
/// it had that method (updated code loads at the next login) gets the setting
/// turned off instead, and restored.
final class GnomeShellKeyboard: OSKBackend {
    static let busName = "org.insetd.Shell1"
    static let path = "/org/insetd/Shell1"
    static let interface = "org.insetd.Shell1"
    let name = "gnome"
    /// GNOME Shell 43's keyboard.js slides the keyboard in over 150 ms
    /// (KEYBOARD_ANIMATION_TIME, easing out; its hide eases in), where the
    /// Shell animates at all: with animations off, or rendering without a
    /// GPU, the keyboard is on the screen at once (the extension's `Animates`).
    func animation(on compositor: Compositor?) -> Animation? {
        let animates = try? bus?.boolProperty(Self.busName, Self.path, Self.interface, "Animates")
        return animates == false ? Animation.none : Animation(duration: .milliseconds(150), curve: .easeOut)
    }
    let usesBus = true
    private var bus: DBusConnection?
    private let log: BridgeLog
    private let setting: GnomeSetting

    init(log: BridgeLog) {
        self.log = log
        setting = GnomeSetting(log: log)
    }

    func attach(bus: DBusConnection?, changed: @escaping () -> Void) throws(OSKError) {
        guard let bus else { throw OSKError("gnome: no session bus") }
        if self.bus !== bus {
            do {
                try bus.addMatch(
                    "type='signal',sender='\(Self.busName)',path='\(Self.path)',interface='org.freedesktop.DBus.Properties',member='PropertiesChanged'",
                    changed)
                try bus.addMatch(
                    "type='signal',sender='org.freedesktop.DBus',member='NameOwnerChanged',arg0='\(Self.busName)'", changed)
            } catch {
                throw OSKError("gnome: watch \(Self.busName)", error)
            }
            self.bus = bus
        }
        let running: Bool
        do { running = try bus.nameHasOwner(Self.busName) } catch { throw OSKError("gnome: look for \(Self.busName)", error) }
        guard running else {
            throw OSKError(
                "gnome: insetd's Shell extension is not running (\(Self.busName) is not on the session bus): "
                    + "gnome-extensions enable insetd@insetd", absent: true)
        }
    }

    func setVisible(_ visible: Bool) throws(OSKError) {
        guard let bus else { throw OSKError("gnome: no session bus") }
        do { try bus.call(Self.busName, Self.path, Self.interface, visible ? "Show" : "Hide") } catch {
            throw OSKError("gnome: \(visible ? "Show" : "Hide") on \(Self.busName)", error)
        }
    }

    func visible() throws(OSKError) -> Bool? {
        guard let bus else { throw OSKError("gnome: no session bus") }
        do { return try bus.boolProperty(Self.busName, Self.path, Self.interface, "Visible") } catch {
            throw OSKError("gnome: read Visible of \(Self.busName)", error)
        }
    }

    var reportsFrame: Bool { true }

    func frame() -> Rect? {
        guard let r = try? bus?.rectProperty(Self.busName, Self.path, Self.interface, "KeyboardFrame"), r.height > 0
        else { return nil }
        return Rect(x: Double(r.x), y: Double(r.y), width: Double(r.width), height: Double(r.height))
    }

    var readsFocusedWindow: Bool { true }

    /// The extension's `WindowFrame`: 0s when no window has the focus.
    func focusedWindow() -> Rect? {
        guard let r = try? bus?.rectProperty(Self.busName, Self.path, Self.interface, "WindowFrame"), r.width > 0, r.height > 0
        else { return nil }
        return Rect(x: Double(r.x), y: Double(r.y), width: Double(r.width), height: Double(r.height))
    }

    func hardwareKeyboard(_ usable: Bool) {
        do {
            try bus?.call(Self.busName, Self.path, Self.interface, "SetHardwareKeyboard", [.bool(usable)])
            if !usable { setting.override(nil) }
        } catch {
            log.info("gnome: SetHardwareKeyboard on \(Self.busName): \(error); turning screen-keyboard-enabled off instead")
            setting.override(usable ? false : nil)
        }
    }

    func restore() { hardwareKeyboard(false) }
}
