import DBus

/// KWin's built-in virtual keyboard (Plasma, Plasma Mobile): `org.kde.KWin`,
/// `/VirtualKeyboard`, interface `org.kde.kwin.VirtualKeyboard`, whose `active`
/// property shows and hides it and whose `visible` says whether it is shown.
final class KWinVirtualKeyboard: OSKBackend {
    static let busName = "org.kde.KWin"
    static let path = "/VirtualKeyboard"
    static let interface = "org.kde.kwin.VirtualKeyboard"
    let name = "kwin"
    let usesBus = true
    private var bus: DBusConnection?

    func attach(bus: DBusConnection?, changed: @escaping () -> Void) throws(OSKError) {
        guard let bus else { throw OSKError("kwin: no session bus") }
        if self.bus !== bus {
            try watch(bus, changed)
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

    func setVisible(_ visible: Bool) throws(OSKError) {
        guard let bus else { throw OSKError("kwin: no session bus") }
        do { try bus.setBoolProperty(Self.busName, Self.path, Self.interface, "active", visible) } catch {
            throw OSKError("kwin: set active=\(visible) on \(Self.busName)", error)
        }
    }

    func visible() throws(OSKError) -> Bool? {
        guard let bus else { throw OSKError("kwin: no session bus") }
        do { return try bus.boolProperty(Self.busName, Self.path, Self.interface, "visible") } catch {
            throw OSKError("kwin: read visible of \(Self.busName)", error)
        }
    }
}
