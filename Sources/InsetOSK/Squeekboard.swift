import DBus
import InsetCore

/// squeekboard (Phosh): `sm.puri.OSK0` on the session bus, `SetVisible(b)` and
/// the read-only `Visible` property, whose changes arrive as `PropertiesChanged`.
/// With a usable hardware keyboard GNOME's screen-keyboard setting goes off too
/// (what Phosh's docked mode does) and comes back after.
final class Squeekboard: OSKBackend {
    static let busName = "sm.puri.OSK0"
    static let path = "/sm/puri/OSK0"
    let name = "squeekboard"
    /// It draws its layer surface whole, with no slide of its own; whether it
    /// appears at once is the compositor's to say.
    func animation(on compositor: Compositor?) -> Animation? {
        compositor?.drawsLayerSurfacesWhole == true ? Animation.none : nil
    }
    let claimsExclusiveZone = true
    let laysOutOnOutputChange = true
    let usesBus = true
    private var bus: DBusConnection?
    private let setting: GnomeSetting?

    init(setting: GnomeSetting?) {
        self.setting = setting
    }

    func attach(bus: DBusConnection?, changed: @escaping () -> Void) throws(OSKError) {
        guard let bus else { throw OSKError("squeekboard: no session bus") }
        // Watches are per connection: a retry on the same bus keeps the ones it has.
        if self.bus !== bus {
            try watch(bus, changed)
            self.bus = bus
        }
        _ = try visible()
    }

    private func watch(_ bus: DBusConnection, _ changed: @escaping () -> Void) throws(OSKError) {
        do {
            try bus.addMatch(
                "type='signal',sender='\(Self.busName)',path='\(Self.path)',"
                    + "interface='org.freedesktop.DBus.Properties',member='PropertiesChanged'", changed)
            // It crashing or coming back shows as a change of the name's owner.
            try bus.addMatch(
                "type='signal',sender='org.freedesktop.DBus',member='NameOwnerChanged',arg0='\(Self.busName)'", changed)
        } catch {
            throw OSKError("squeekboard: watch \(Self.busName)", error)
        }
    }

    func setVisible(_ visible: Bool) throws(OSKError) {
        guard let bus else { throw OSKError("squeekboard: no session bus") }
        do { try bus.call(Self.busName, Self.path, Self.busName, "SetVisible", [.bool(visible)]) } catch {
            throw OSKError("squeekboard: SetVisible(\(visible)) on \(Self.busName)", error)
        }
    }

    func visible() throws(OSKError) -> Bool? {
        guard let bus else { throw OSKError("squeekboard: no session bus") }
        do { return try bus.boolProperty(Self.busName, Self.path, Self.busName, "Visible") } catch {
            throw OSKError("squeekboard: read Visible of \(Self.busName)", error)
        }
    }

    func hardwareKeyboard(_ usable: Bool) {
        setting?.override(usable ? false : nil)
    }

    func restore() { setting?.override(nil) }
}
