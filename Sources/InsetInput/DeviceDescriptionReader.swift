/// Builds an `InputDeviceDescription` from what udev and sysfs say about an
/// event node. The `inputN` parent carries name, ids and capabilities both as
/// kernel uevent properties and as sysfs attributes; either is enough, so this
/// works with the kernel uevent source too, where udev's own properties are absent.
enum DeviceDescriptionReader {
    static func describe(_ device: UdevDevice) -> InputDeviceDescription? {
        device.inputParent { parent in
            func capability(_ property: String, _ attribute: String) -> CapabilityBits {
                let text = parent.property(property) ?? parent.sysattr("capabilities/\(attribute)")
                return text.flatMap { CapabilityBits(sysfs: $0) } ?? .empty
            }
            var name = parent.property("NAME") ?? parent.sysattr("name") ?? ""
            if name.count >= 2, name.hasPrefix("\""), name.hasSuffix("\"") { name = String(name.dropFirst().dropLast()) }
            // PRODUCT is bus/vendor/product/version in hex.
            let product = (parent.property("PRODUCT") ?? "").split(separator: "/").map { UInt16($0, radix: 16) }
            func id(_ index: Int, _ attribute: String) -> UInt16 {
                if index < product.count, let value = product[index] { return value }
                return parent.sysattr("id/\(attribute)").flatMap { UInt16($0, radix: 16) } ?? 0
            }
            return InputDeviceDescription(
                syspath: device.syspath, devnode: device.devnode, name: name,
                bus: BusType(rawValue: id(0, "bustype")), vendor: id(1, "vendor"), product: id(2, "product"),
                eventTypes: capability("EV", "ev"), keys: capability("KEY", "key"), switches: capability("SW", "sw"),
                relativeAxes: capability("REL", "rel"), properties: device.properties, tags: device.tags)
        }
    }
}
