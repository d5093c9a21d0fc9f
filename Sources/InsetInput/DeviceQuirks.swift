import CLibevdev
import Glibc
import InsetCore

/// libinput's device quirks database (`/usr/share/libinput/*.quirks` and the
/// local override file), reduced to what decides insetd's classification:
/// `AttrKeyboardIntegration` (a USB keyboard that is part of the machine, such
/// as a Surface type cover) and `ModelTabletModeSwitchUnreliable` (a tablet-mode
/// switch that reports nonsense). It exists so insetd and the compositor's
/// libinput agree about the same hardware, from the same files.
///
/// Matching follows libinput: a section applies when every one of its `Match`
/// lines matches the device (a property the device does not have never
/// matches), sections are tried in file order, and for each attribute the last
/// section that sets it wins.
public struct DeviceQuirks: Hashable, Sendable {
    public var sections: [QuirkSection]
    /// The machine's DMI modalias (`dmi:bvn...:svn...:pn...:`), matched by
    /// `MatchDMIModalias`; nil where the machine has none (then no DMI section matches).
    public var dmiModalias: String?
    /// The first device-tree `compatible` string, matched by `MatchDeviceTree`.
    public var deviceTree: String?

    public init(sections: [QuirkSection] = [], dmiModalias: String? = nil, deviceTree: String? = nil) {
        self.sections = sections
        self.dmiModalias = dmiModalias
        self.deviceTree = deviceTree
    }

    /// No quirks at all: classification from bus and capabilities alone.
    public static let none = DeviceQuirks()

    /// What the database says about one device.
    public func lookup(_ device: InputDeviceDescription) -> MatchedQuirks {
        let facts = QuirkMatch.Facts(device: device, dmiModalias: dmiModalias, deviceTree: deviceTree)
        var result = MatchedQuirks()
        for section in sections where section.match.matches(facts) {
            if let integration = section.keyboardIntegration {
                result.keyboardIntegration = .init(value: integration, section: section.label)
            }
            if let unreliable = section.tabletModeSwitchUnreliable {
                result.tabletModeSwitchUnreliable = .init(value: unreliable, section: section.label)
            }
        }
        return result
    }
}

/// The attributes insetd uses from the sections that matched one device, each
/// with the section that set it (for the classification's reason).
public struct MatchedQuirks: Hashable, Sendable {
    /// One attribute's value and where it came from, so a reason can cite it.
    public struct Value<T: Hashable & Sendable>: Hashable, Sendable {
        public var value: T
        /// `[Section Name] in file.quirks`.
        public var section: String
    }

    public var keyboardIntegration: Value<KeyboardPlacement>?
    public var tabletModeSwitchUnreliable: Value<Bool>?
}

/// One `[Section]` of a quirks file: its `Match` lines and its attributes.
public struct QuirkSection: Hashable, Sendable {
    /// The name between the brackets.
    public var name: String
    /// The file's name (not its directory), as libinput names sections in its logs.
    public var file: String
    public var match: QuirkMatch
    /// Every `Attr*` and `Model*` line, as written, in order.
    public var attributes: [Attribute]

    /// One `Key=value` line: kept whole so a section reads back as written.
    public struct Attribute: Hashable, Sendable {
        public var key: String
        public var value: String
    }

    public init(name: String, file: String, match: QuirkMatch, attributes: [Attribute]) {
        self.name = name
        self.file = file
        self.match = match
        self.attributes = attributes
    }

    /// `[Microsoft Surface Cover] in 30-vendor-microsoft.quirks`.
    public var label: String { "[\(name)] in \(file)" }

    var keyboardIntegration: KeyboardPlacement? {
        switch attributes.last(where: { $0.key == "AttrKeyboardIntegration" })?.value {
        case "internal": .internal
        case "external": .external
        default: nil
        }
    }

    var tabletModeSwitchUnreliable: Bool? {
        attributes.last(where: { $0.key == "ModelTabletModeSwitchUnreliable" }).map { $0.value == "1" }
    }
}

/// The `Match*` lines of one section; nil means the section does not match on it.
public struct QuirkMatch: Hashable, Sendable {
    /// libinput's bus names (`MatchBus=`).
    public enum Bus: String, Hashable, Sendable, CaseIterable {
        case usb, bluetooth, ps2, rmi, i2c, spi

        init?(_ bus: BusType) {
            switch bus {
            case .usb: self = .usb
            case .bluetooth: self = .bluetooth
            case .i8042: self = .ps2
            case BusType(rawValue: 0x1D): self = .rmi
            case .i2c: self = .i2c
            case .spi: self = .spi
            default: return nil
            }
        }
    }

    /// udev's device types (`MatchUdevType=`), from its `ID_INPUT_*` properties.
    public enum UdevType: String, Hashable, Sendable, CaseIterable {
        case mouse, pointingstick, touchpad, tablet, keyboard, joystick
        case tabletPad = "tablet-pad"
    }

    /// A shell glob (case-sensitive, as libinput's `fnmatch`).
    public var name: String?
    public var bus: Bus?
    public var vendor: UInt16?
    public var product: UInt16?
    /// `MatchVersion`: insetd does not read input ids' version, so a section
    /// that asks for one never matches.
    public var version: UInt16?
    public var dmiModalias: String?
    public var udevType: UdevType?
    public var deviceTree: String?

    public init(
        name: String? = nil, bus: Bus? = nil, vendor: UInt16? = nil, product: UInt16? = nil, version: UInt16? = nil,
        dmiModalias: String? = nil, udevType: UdevType? = nil, deviceTree: String? = nil
    ) {
        self.name = name
        self.bus = bus
        self.vendor = vendor
        self.product = product
        self.version = version
        self.dmiModalias = dmiModalias
        self.udevType = udevType
        self.deviceTree = deviceTree
    }

    /// What a device offers to match against.
    struct Facts {
        var name: String
        var bus: Bus?
        var vendor: UInt16
        var product: UInt16
        var dmiModalias: String?
        var deviceTree: String?
        var udevTypes: Set<UdevType>

        init(device: InputDeviceDescription, dmiModalias: String?, deviceTree: String?) {
            name = device.name
            bus = Bus(device.bus)
            vendor = device.vendor
            product = device.product
            self.dmiModalias = dmiModalias
            self.deviceTree = deviceTree
            udevTypes = Self.udevTypes(of: device)
        }

        /// libinput reads `ID_INPUT_*` (any value counts; `ID_INPUT_KEY` also
        /// makes a keyboard). Where no udevd runs there are none, so the types
        /// come from the capability bits the way udev's input_id derives them.
        static func udevTypes(of device: InputDeviceDescription) -> Set<UdevType> {
            let properties: [(String, UdevType)] = [
                ("ID_INPUT_MOUSE", .mouse), ("ID_INPUT_POINTINGSTICK", .pointingstick),
                ("ID_INPUT_TOUCHPAD", .touchpad), ("ID_INPUT_TABLET", .tablet), ("ID_INPUT_TABLET_PAD", .tabletPad),
                ("ID_INPUT_JOYSTICK", .joystick), ("ID_INPUT_KEYBOARD", .keyboard), ("ID_INPUT_KEY", .keyboard),
            ]
            if device.properties["ID_INPUT"] != nil || properties.contains(where: { device.properties[$0.0] != nil }) {
                return Set(properties.filter { device.properties[$0.0] != nil }.map(\.1))
            }
            var types: Set<UdevType> = []
            if device.keys.codes.contains(where: { $0 < Int(BTN_MISC) }) { types.insert(.keyboard) }
            if device.relativeAxes.contains(Int(REL_X)) && device.relativeAxes.contains(Int(REL_Y))
                && device.keys.contains(Int(BTN_LEFT))
            {
                types.insert(.mouse)
            }
            return types
        }
    }

    func matches(_ facts: Facts) -> Bool {
        if let name, fnmatch(name, facts.name, 0) != 0 { return false }
        if let bus, bus != facts.bus { return false }
        if let vendor, vendor != facts.vendor { return false }
        if let product, product != facts.product { return false }
        if version != nil { return false }
        if let dmiModalias {
            guard let machine = facts.dmiModalias, fnmatch(dmiModalias, machine, 0) == 0 else { return false }
        }
        if let deviceTree {
            guard let machine = facts.deviceTree, fnmatch(deviceTree, machine, 0) == 0 else { return false }
        }
        if let udevType, !facts.udevTypes.contains(udevType) { return false }
        return true
    }
}
