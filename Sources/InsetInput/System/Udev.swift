import CLibudev
import Glibc

/// A libudev context. All udev objects stay inside this file's types; nothing
/// hands out a raw pointer.
final class UdevContext {
    fileprivate let raw: OpaquePointer

    init() throws(InputSystemError) {
        guard let raw = udev_new() else { throw InputSystemError("udev_new", errno: errno) }
        self.raw = raw
    }

    deinit { udev_unref(raw) }

    /// Every input event node (`/dev/input/eventN`) in sysfs now.
    func inputEventNodes() throws(InputSystemError) -> [UdevDevice] {
        guard let enumerate = udev_enumerate_new(raw) else {
            throw InputSystemError("udev_enumerate_new", errno: errno)
        }
        defer { udev_enumerate_unref(enumerate) }
        udev_enumerate_add_match_subsystem(enumerate, "input")
        let rc = udev_enumerate_scan_devices(enumerate)
        guard rc >= 0 else { throw InputSystemError("udev_enumerate_scan_devices", errno: -rc) }
        var devices: [UdevDevice] = []
        for syspath in listEntries(udev_enumerate_get_list_entry(enumerate)).map(\.name) {
            // A device can vanish between the scan and this lookup: skip it.
            guard let device = udev_device_new_from_syspath(raw, syspath) else { continue }
            let wrapped = UdevDevice(owning: device)
            if wrapped.isEventNode { devices.append(wrapped) }
        }
        return devices
    }

    /// The device at `syspath` as sysfs shows it now, if it still exists.
    func device(syspath: String) -> UdevDevice? {
        udev_device_new_from_syspath(raw, syspath).map(UdevDevice.init(owning:))
    }
}

/// One udev device (owning its reference).
final class UdevDevice {
    private let raw: OpaquePointer

    init(owning raw: OpaquePointer) { self.raw = raw }
    deinit { udev_device_unref(raw) }

    var syspath: String { string(udev_device_get_syspath(raw)) ?? "" }
    var devnode: String? { string(udev_device_get_devnode(raw)) }
    var action: String? { string(udev_device_get_action(raw)) }
    var sysname: String { string(udev_device_get_sysname(raw)) ?? "" }

    var isEventNode: Bool { sysname.hasPrefix("event") }

    func property(_ key: String) -> String? { string(udev_device_get_property_value(raw, key)) }

    func sysattr(_ name: String) -> String? { string(udev_device_get_sysattr_value(raw, name)) }

    var properties: [String: String] {
        Dictionary(
            listEntries(udev_device_get_properties_list_entry(raw)).map { ($0.name, $0.value ?? "") },
            uniquingKeysWith: { _, last in last })
    }

    var tags: Set<String> { Set(listEntries(udev_device_get_tags_list_entry(raw)).map(\.name)) }

    /// The `inputN` device that carries name, ids and capabilities. The parent
    /// pointer belongs to this device, so it is read here and not handed out.
    func inputParent<T>(_ body: (UdevParent) -> T) -> T? {
        guard let parent = udev_device_get_parent_with_subsystem_devtype(raw, "input", nil) else { return nil }
        return body(UdevParent(raw: parent))
    }
}

/// A borrowed parent device, valid only inside `UdevDevice.inputParent`.
struct UdevParent {
    fileprivate let raw: OpaquePointer

    func property(_ key: String) -> String? { string(udev_device_get_property_value(raw, key)) }
    func sysattr(_ name: String) -> String? { string(udev_device_get_sysattr_value(raw, name)) }
}

/// Where uevents come from: udevd's processed events, or the kernel's raw ones.
public enum UeventSource: String, Hashable, Sendable, Codable, CaseIterable {
    /// `udev` when udevd runs (its control socket exists), `kernel` otherwise.
    case auto
    case udev
    case kernel
}

/// A uevent monitor on the `input` subsystem.
final class UdevMonitor {
    private let raw: OpaquePointer
    private let context: UdevContext

    init(context: UdevContext, source: UeventSource) throws(InputSystemError) {
        precondition(source != .auto, "resolve .auto before creating a monitor")
        guard let raw = udev_monitor_new_from_netlink(context.raw, source.rawValue) else {
            throw InputSystemError("udev_monitor_new_from_netlink(\(source.rawValue))", errno: errno)
        }
        self.raw = raw
        self.context = context
        udev_monitor_filter_add_match_subsystem_devtype(raw, "input", nil)
        let rc = udev_monitor_enable_receiving(raw)
        guard rc >= 0 else {
            udev_monitor_unref(raw)
            throw InputSystemError("udev_monitor_enable_receiving", errno: -rc)
        }
    }

    deinit { udev_monitor_unref(raw) }

    var fileDescriptor: Int32 { udev_monitor_get_fd(raw) }

    /// The next queued uevent, or nil when none is waiting (the socket is
    /// non-blocking).
    func receive() -> UdevDevice? {
        udev_monitor_receive_device(raw).map(UdevDevice.init(owning:))
    }
}

private func string(_ pointer: UnsafePointer<CChar>?) -> String? {
    pointer.map { String(cString: $0) }
}

private func listEntries(_ first: OpaquePointer?) -> [(name: String, value: String?)] {
    var entries: [(String, String?)] = []
    var entry = first
    while let current = entry {
        if let name = udev_list_entry_get_name(current) {
            entries.append((String(cString: name), string(udev_list_entry_get_value(current))))
        }
        entry = udev_list_entry_get_next(current)
    }
    return entries
}
