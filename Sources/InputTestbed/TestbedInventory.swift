import CLibevdev

/// The device kinds a tester names (`insetd-testbed plug usb-keyboard`), each one
/// of the project's own fixtures: the emulated devices `insetd-testbed` offers
/// are the ones insetd's hardware-in-the-loop suite is tested against.
public enum TestbedKinds {
    /// The kinds documented for testers, in the order `--help` lists them.
    public static let documented = [
        "usb-keyboard", "bluetooth-keyboard", "internal-keyboard", "tablet-switch", "power-button", "yubikey",
        "remapper-keyboard",
    ]

    /// Tester-facing names for fixtures whose catalogue name says how they are built.
    static let aliases = ["internal-keyboard": "at-keyboard"]

    /// Every kind accepted: the documented ones, then any other fixture of the catalogue.
    public static var all: [String] {
        documented + FixtureCatalogue.all.map(\.kind).filter { !documented.contains($0) && !aliases.values.contains($0) }
    }

    /// The fixture for a kind, as the testbed plugs it: a tablet switch starts
    /// unfolded (laptop mode), so `tablet on` is the tester's explicit step.
    public static func fixture(for kind: String) throws(TestbedError) -> FixtureDevice {
        let catalogueKind = aliases[kind] ?? kind
        guard var fixture = FixtureCatalogue.all.first(where: { $0.kind == catalogueKind }) else {
            throw TestbedError(message: "unknown device kind '\(kind)' (kinds: \(all.joined(separator: ", ")))")
        }
        fixture.kind = kind
        fixture.switchesOn = []
        return fixture
    }
}

/// One device the testbed has plugged, under the name the tester gave it.
public struct PluggedDevice: Hashable, Sendable {
    public var name: String
    public var device: FixtureDevice
    /// A tablet switch's position (only meaningful for devices with `SW_TABLET_MODE`).
    public var tabletMode: Bool = false

    public var isTabletSwitch: Bool { device.switches.contains(Int(SW_TABLET_MODE)) }
}

/// The bookkeeping of an emulated machine, apart from umockdev: which names are
/// plugged, which node numbers were ever used (umockdev cannot reuse one), and
/// which device a key press or a tablet flip goes to.
public struct TestbedInventory: Sendable {
    /// Plugged devices in the order they were plugged.
    public private(set) var plugged: [PluggedDevice] = []
    private var usedNumbers: Set<Int> = []
    /// Numbers handed out when a fixture's own number is taken, above every fixture's.
    private var nextSpareNumber = 100

    public init() {}

    /// Names the device, gives it a node number never used in this testbed, and
    /// records it as plugged. `name` nil: the kind, then `kind-2`, `kind-3`, ...
    public mutating func plug(_ fixture: FixtureDevice, name: String?) throws(TestbedError) -> PluggedDevice {
        let name = try name.map { (given) throws(TestbedError) in try Self.validated(given) } ?? freeName(for: fixture.kind)
        guard !plugged.contains(where: { $0.name == name }) else {
            throw TestbedError(message: "a device named '\(name)' is already plugged (pick another --name)")
        }
        var device = fixture
        if usedNumbers.contains(device.eventNumber) {
            while usedNumbers.contains(nextSpareNumber) { nextSpareNumber += 1 }
            device = device.renumbered(nextSpareNumber)
        }
        usedNumbers.insert(device.eventNumber)
        let entry = PluggedDevice(name: name, device: device)
        plugged.append(entry)
        return entry
    }

    /// Forgets a plugged device (its number stays used).
    public mutating func unplug(_ name: String) throws(TestbedError) -> PluggedDevice {
        guard let index = plugged.firstIndex(where: { $0.name == name }) else {
            throw TestbedError(message: "no device named '\(name)' is plugged (\(pluggedNames))")
        }
        return plugged.remove(at: index)
    }

    /// The device a chord is typed on: the named one, else the first plugged
    /// device that has every key of it.
    public func keyboard(for chord: KeyChord, on name: String?) throws(TestbedError) -> PluggedDevice {
        if let name {
            guard let device = plugged.first(where: { $0.name == name }) else {
                throw TestbedError(message: "no device named '\(name)' is plugged (\(pluggedNames))")
            }
            if let missing = zip(chord.codes, chord.names).first(where: { !device.device.keys.contains($0.0) }) {
                throw TestbedError(message: "'\(name)' has no key \(missing.1)")
            }
            return device
        }
        guard let device = plugged.first(where: { device in chord.codes.allSatisfy(device.device.keys.contains) }) else {
            throw TestbedError(message: "no plugged device has the keys \(chord) (plug a keyboard first: insetd-testbed plug usb-keyboard)")
        }
        return device
    }

    /// The tablet switch to flip: the named one, else the first plugged.
    public mutating func flipTablet(on: Bool, name: String?) throws(TestbedError) -> PluggedDevice {
        let index: Int?
        if let name {
            index = plugged.firstIndex { $0.name == name }
            guard let index, plugged[index].isTabletSwitch else {
                throw TestbedError(message: "no tablet switch named '\(name)' is plugged (\(pluggedNames))")
            }
        } else {
            index = plugged.firstIndex(where: \.isTabletSwitch)
        }
        guard let index else {
            throw TestbedError(message: "no tablet switch is plugged (insetd-testbed plug tablet-switch)")
        }
        plugged[index].tabletMode = on
        return plugged[index]
    }

    /// One line per plugged device: name, kind, node, and a switch's position.
    public var listing: String {
        plugged.map { entry in
            let state = entry.isTabletSwitch ? "\ttablet \(entry.tabletMode ? "on" : "off")" : ""
            return "\(entry.name)\t\(entry.device.kind)\t\(entry.device.devnode)\(state)"
        }.joined(separator: "\n")
    }

    private var pluggedNames: String {
        plugged.isEmpty ? "nothing is plugged" : "plugged: " + plugged.map(\.name).joined(separator: ", ")
    }

    private func freeName(for kind: String) -> String {
        if !plugged.contains(where: { $0.name == kind }) { return kind }
        var suffix = 2
        while plugged.contains(where: { $0.name == "\(kind)-\(suffix)" }) { suffix += 1 }
        return "\(kind)-\(suffix)"
    }

    /// Names appear in listings, timelines and shell scripts: letters, digits, `.`, `_`, `-`.
    static func validated(_ name: String) throws(TestbedError) -> String {
        let allowed = name.unicodeScalars.allSatisfy { scalar in
            scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || ".-_".unicodeScalars.contains(scalar))
        }
        guard !name.isEmpty, name.count <= 64, allowed else {
            throw TestbedError(message: "invalid device name '\(name)' (use up to 64 letters, digits, '.', '_' or '-')")
        }
        return name
    }
}
