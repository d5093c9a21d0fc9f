/// The kernel's bus type of an input device (`input_id.bustype`).
public struct BusType: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible {
    public var rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    public static let usb = BusType(rawValue: 0x03)
    public static let bluetooth = BusType(rawValue: 0x05)
    public static let virtual = BusType(rawValue: 0x06)
    public static let i8042 = BusType(rawValue: 0x11)
    public static let i2c = BusType(rawValue: 0x18)
    public static let host = BusType(rawValue: 0x19)
    public static let spi = BusType(rawValue: 0x1C)

    /// The names config files use for buses.
    public static let named: [String: BusType] = [
        "usb": .usb, "bluetooth": .bluetooth, "virtual": .virtual, "i8042": .i8042, "i2c": .i2c,
        "host": .host, "spi": .spi,
    ]

    public var description: String {
        Self.named.first { $0.value == self }?.key ?? "0x" + String(rawValue, radix: 16)
    }
}

/// Everything insetd knows about one input device before deciding what it is:
/// identity, bus, capability bits and udev's properties and tags. Classification
/// is a pure function of this and the configuration.
public struct InputDeviceDescription: Hashable, Sendable, Codable {
    /// The event node's sysfs path: the device's identity while it exists.
    public var syspath: String
    /// `/dev/input/eventN`, when the device has a node.
    public var devnode: String?
    public var name: String
    public var bus: BusType
    public var vendor: UInt16
    public var product: UInt16
    public var eventTypes: CapabilityBits
    public var keys: CapabilityBits
    public var switches: CapabilityBits
    public var relativeAxes: CapabilityBits
    /// udev properties of the event node (empty where no udevd runs).
    public var properties: [String: String]
    /// udev tags of the event node.
    public var tags: Set<String>

    public init(
        syspath: String, devnode: String? = nil, name: String, bus: BusType, vendor: UInt16 = 0,
        product: UInt16 = 0, eventTypes: CapabilityBits = .empty, keys: CapabilityBits = .empty,
        switches: CapabilityBits = .empty, relativeAxes: CapabilityBits = .empty,
        properties: [String: String] = [:], tags: Set<String> = []
    ) {
        self.syspath = syspath
        self.devnode = devnode
        self.name = name
        self.bus = bus
        self.vendor = vendor
        self.product = product
        self.eventTypes = eventTypes
        self.keys = keys
        self.switches = switches
        self.relativeAxes = relativeAxes
        self.properties = properties
        self.tags = tags
    }

    /// Created by software through uinput (a remapper such as keyd, kmonad,
    /// interception). Bluetooth keyboards connected through BlueZ's uhid live
    /// under `/devices/virtual/misc/uhid/` and are real hardware: not virtual.
    public var isVirtual: Bool { syspath.contains("/devices/virtual/input/") }

    /// `vvvv:pppp`, the form of Chromium's and insetd's vendor:product lists.
    public var vendorProduct: String { hex4(vendor) + ":" + hex4(product) }
}

/// Four lowercase hex digits, as vendor and product ids are written.
package func hex4(_ value: UInt16) -> String {
    let digits = String(value, radix: 16)
    return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
}
