import Glibc
import InsetCore

/// One entry of a configured allow or deny list: `vvvv:pppp` or `vvvv:*`
/// (hex vendor:product, as Chromium's keyboard lists), `name:GLOB` (shell glob,
/// case-insensitive), or `bus:NAME` (`usb`, `bluetooth`, `i8042`, ...). An
/// allow entry may start with `internal:` or `external:` to say where the
/// keyboard sits (`internal:045e:09c0`), for hardware neither udev nor
/// libinput's quirks place right.
public struct DeviceMatch: Hashable, Sendable, Codable, CustomStringConvertible {
    private enum Rule: Hashable, Sendable, Codable {
        case vendorProduct(vendor: UInt16, product: UInt16?)
        case name(glob: String)
        case bus(BusType)
    }

    private let rule: Rule
    public let description: String
    /// From an `internal:` or `external:` prefix; nil without one.
    public let placement: KeyboardPlacement?

    public init(_ whole: String) throws(DeviceMatchError) {
        description = whole
        var text = whole
        if let prefix = ["internal:", "external:"].first(where: { whole.hasPrefix($0) }) {
            placement = KeyboardPlacement(rawValue: String(prefix.dropLast()))
            text = String(whole.dropFirst(prefix.count))
        } else {
            placement = nil
        }
        if text.hasPrefix("name:") {
            let glob = String(text.dropFirst(5))
            guard !glob.isEmpty else { throw DeviceMatchError(text: whole, reason: "the name glob is empty") }
            rule = .name(glob: glob)
        } else if text.hasPrefix("bus:") {
            let name = String(text.dropFirst(4)).lowercased()
            guard let bus = BusType.named[name] else {
                let known = BusType.named.keys.sorted().joined(separator: ", ")
                throw DeviceMatchError(text: whole, reason: "unknown bus '\(name)' (known: \(known))")
            }
            rule = .bus(bus)
        } else {
            let parts = text.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count == 2, parts[0].count == 4, let vendor = UInt16(parts[0], radix: 16) else {
                throw DeviceMatchError(
                    text: whole, reason: "expected vvvv:pppp or vvvv:* (hex), name:GLOB or bus:NAME")
            }
            if parts[1] == "*" {
                rule = .vendorProduct(vendor: vendor, product: nil)
            } else if parts[1].count == 4, let product = UInt16(parts[1], radix: 16) {
                rule = .vendorProduct(vendor: vendor, product: product)
            } else {
                throw DeviceMatchError(text: whole, reason: "the product must be four hex digits or *")
            }
        }
    }

    public func matches(_ device: InputDeviceDescription) -> Bool {
        switch rule {
        case .vendorProduct(let vendor, let product):
            return device.vendor == vendor && (product == nil || device.product == product)
        case .name(let glob):
            return globMatches(glob, device.name)
        case .bus(let bus):
            return device.bus == bus
        }
    }
}

/// A list entry that is not one of the accepted forms.
public struct DeviceMatchError: Error, Hashable, Sendable, CustomStringConvertible {
    public var text: String
    public var reason: String
    public var description: String { "invalid device match '\(text)': \(reason)" }
}

/// Shell-glob match ignoring case (both sides lowercased: `FNM_CASEFOLD` is a GNU
/// extension that Glibc's Swift overlay does not export).
func globMatches(_ pattern: String, _ text: String) -> Bool {
    fnmatch(pattern.lowercased(), text.lowercased(), 0) == 0
}
