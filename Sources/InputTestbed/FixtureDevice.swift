import CLibevdev
import InsetInput

/// A small description of an emulated input device, from which the umockdev
/// device record and the ioctl record libevdev needs are generated, so no test
/// keeps hand-edited hex.
public struct FixtureDevice: Hashable, Sendable {
    /// Short name used in test output (`usb-keyboard`).
    public var kind: String
    /// sysfs path of the `inputN` device; the event node is `<inputPath>/eventN`.
    public var inputPath: String
    public var eventNumber: Int
    public var name: String
    public var bus: BusType
    public var vendor: UInt16
    public var product: UInt16
    public var keys: [Int] = []
    public var switches: [Int] = []
    public var relativeAxes: [Int] = []
    public var absoluteAxes: [Int] = []
    /// Switches that are on when the device is opened (`EVIOCGSW`).
    public var switchesOn: [Int] = []
    /// Keys the kernel holds down (`EVIOCGKEY`), as after a release that was lost.
    public var keysDown: [Int] = []
    /// Extra udev properties of the event node.
    public var properties: [String: String] = [:]

    /// The same device enumerated again under another number, as after a USB
    /// re-enumeration (and as umockdev needs: it cannot reuse a removed node's name).
    public func renumbered(_ number: Int) -> FixtureDevice {
        var copy = self
        let parent = inputPath.split(separator: "/").dropLast().joined(separator: "/")
        copy.inputPath = "/\(parent)/input\(number)"
        copy.eventNumber = number
        return copy
    }

    /// The event node's path inside sysfs (without the `/sys` mount point).
    public var syspath: String { "\(inputPath)/event\(eventNumber)" }
    public var devnode: String { "/dev/input/event\(eventNumber)" }

    var eventTypes: [Int] {
        var types = [Int(EV_SYN)]
        if !keys.isEmpty { types += [Int(EV_KEY), Int(EV_MSC)] }
        if !relativeAxes.isEmpty { types.append(Int(EV_REL)) }
        if !absoluteAxes.isEmpty { types.append(Int(EV_ABS)) }
        if !switches.isEmpty { types.append(Int(EV_SW)) }
        return types
    }

    /// What insetd's discovery reads from this device (for pure tests).
    public var description: InputDeviceDescription {
        InputDeviceDescription(
            syspath: "/sys" + syspath, devnode: devnode, name: name, bus: bus, vendor: vendor, product: product,
            eventTypes: CapabilityBits(codes: eventTypes), keys: CapabilityBits(codes: keys),
            switches: CapabilityBits(codes: switches), relativeAxes: CapabilityBits(codes: relativeAxes),
            properties: udevProperties(includeClassification: false))
    }

    // MARK: - umockdev device record

    /// The `.umockdev` text for the `inputN` device and its event node. With
    /// `udev: false` the udev-only properties (`ID_INPUT_*`) are left out, as on a
    /// machine without udevd.
    public func umockdevRecord(udev: Bool = true) -> String {
        let product = "\(hex(bus.rawValue))/\(hex(vendor))/\(hex(self.product))/1"
        var event = [
            "P: \(syspath)", "N: input/event\(eventNumber)", "E: DEVNAME=\(devnode)", "E: MAJOR=13",
            "E: MINOR=\(64 + eventNumber)", "E: SUBSYSTEM=input", "A: dev=13:\(64 + eventNumber)",
        ]
        for (key, value) in udevProperties(includeClassification: udev).sorted(by: { $0.key < $1.key }) {
            event.append("E: \(key)=\(value)")
        }
        var parent = [
            "P: \(inputPath)", "E: SUBSYSTEM=input", "E: PRODUCT=\(product)", "E: NAME=\"\(name)\"",
            "E: EV=\(CapabilityBits(codes: eventTypes))", "A: name=\(name)",
            "A: id/bustype=\(hex4(bus.rawValue))", "A: id/vendor=\(hex4(vendor))", "A: id/product=\(hex4(self.product))",
            "A: capabilities/ev=\(CapabilityBits(codes: eventTypes))",
        ]
        for (label, codes) in [("KEY", keys), ("SW", switches), ("REL", relativeAxes), ("ABS", absoluteAxes)]
        where !codes.isEmpty {
            parent.append("E: \(label)=\(CapabilityBits(codes: codes))")
            parent.append("A: capabilities/\(label.lowercased())=\(CapabilityBits(codes: codes))")
        }
        // Parent first, as the kernel creates them: umockdev announces each record
        // as it adds it, and the node's `add` must find its parent in sysfs.
        return (parent + [""] + event).joined(separator: "\n") + "\n"
    }

    private func udevProperties(includeClassification: Bool) -> [String: String] {
        var result = properties
        guard includeClassification else { return result }
        result["ID_INPUT"] = "1"
        let keyboard = Set(keys).isSuperset(of: Set(1...32))
        if keyboard { result["ID_INPUT_KEYBOARD"] = "1" }
        if !keys.isEmpty { result["ID_INPUT_KEY"] = "1" }
        if !switches.isEmpty { result["ID_INPUT_SWITCH"] = "1" }
        if !relativeAxes.isEmpty { result["ID_INPUT_MOUSE"] = "1" }
        return result
    }

    // MARK: - ioctl record

    /// The ioctl answers libevdev 1.13 asks for when it opens the device, with the
    /// exact buffer sizes it requests on x86_64 (a mismatch makes
    /// `libevdev_new_from_fd` fail with `-ENOENT`).
    public var ioctlRecord: String {
        func line(_ request: String, _ result: Int, _ bytes: [UInt8]) -> String {
            "\(request) \(result) \(bytes.map { hexByte($0) }.joined())"
        }
        func bitmask(_ codes: [Int], bytes: Int) -> [UInt8] {
            var buffer = [UInt8](repeating: 0, count: bytes)
            for code in codes where code / 8 < bytes { buffer[code / 8] |= 1 << UInt8(code % 8) }
            return buffer
        }
        func string(_ text: String) -> (Int, [UInt8]) {
            var buffer = [UInt8](repeating: 0, count: 255)
            let utf8 = Array(text.utf8.prefix(254))
            buffer.replaceSubrange(0..<utf8.count, with: utf8)
            return (utf8.count + 1, buffer)
        }
        let name = string(self.name)
        let phys = string("\(kind)/input0")
        let uniq = string("")
        var id: [UInt8] = []
        for value in [bus.rawValue, vendor, product, 1] { id += [UInt8(value & 0xff), UInt8(value >> 8)] }
        var lines = [
            line("EVIOCGVERSION", 0, [0x01, 0x00, 0x01, 0x00]),
            line("EVIOCGID", 0, id),
            line("EVIOCGNAME(0)", name.0, name.1),
            line("EVIOCGPHYS(0)", phys.0, phys.1),
            line("EVIOCGUNIQ(0)", uniq.0, uniq.1),
            line("EVIOCGPROP(0)", 8, bitmask([], bytes: 8)),
            line("EVIOCGBIT(0)", 8, bitmask(eventTypes, bytes: 8)),
            line("EVIOCGBIT(1)", 96, bitmask(keys, bytes: 96)),
            line("EVIOCGBIT(2)", 8, bitmask(relativeAxes, bytes: 8)),
            line("EVIOCGBIT(3)", 8, bitmask(absoluteAxes, bytes: 8)),
            line("EVIOCGBIT(4)", 8, bitmask(keys.isEmpty ? [] : [Int(MSC_SCAN)], bytes: 8)),
            line("EVIOCGBIT(5)", 8, bitmask(switches, bytes: 8)),
            line("EVIOCGBIT(17)", 8, bitmask([], bytes: 8)),
            line("EVIOCGBIT(18)", 8, bitmask([], bytes: 8)),
            line("EVIOCGBIT(20)", 8, bitmask([], bytes: 8)),
            line("EVIOCGBIT(21)", 16, bitmask([], bytes: 16)),
            line("EVIOCGKEY(0)", 96, bitmask(keysDown, bytes: 96)),
            line("EVIOCGLED(0)", 8, bitmask([], bytes: 8)),
            line("EVIOCGSW(0)", 8, bitmask(switchesOn, bytes: 8)),
            line("EVIOCGREP", 0, [0xfa, 0, 0, 0, 0x21, 0, 0, 0]),
        ]
        lines.append("")
        return lines.joined(separator: "\n")
    }
}

private func hex(_ value: UInt16) -> String { String(value, radix: 16) }

private func hexByte(_ byte: UInt8) -> String {
    let digits = String(byte, radix: 16, uppercase: true)
    return digits.count == 1 ? "0" + digits : digits
}
