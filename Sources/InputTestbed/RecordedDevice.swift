import InsetInput

/// Turns a `umockdev-record` recording of a real input device into a
/// `FixtureDevice`, so a recorded keyboard is emulated the way the built-in
/// fixtures are: its name, ids, bus, capabilities and udev properties come from
/// the recording, and the ioctl record is generated from those capabilities with
/// libevdev's exact request sizes. (An `.ioctl` file recorded with evtest or
/// evemu uses other buffer sizes, which libevdev's lookups do not match.)
public enum RecordedDevice {
    /// Udev properties of the event node that describe the recording machine's
    /// node rather than the device; the emulation sets its own.
    static let nodeProperties: Set<String> = ["DEVNAME", "DEVPATH", "DEVLINKS", "MAJOR", "MINOR", "SUBSYSTEM", "USEC_INITIALIZED"]

    /// Parses a recording (`umockdev-record /dev/input/eventN > FILE`). `kind`
    /// labels the device in the testbed's listing.
    public static func parse(_ text: String, kind: String) throws(RecordingError) -> FixtureDevice {
        let records = text.split(separator: "\n", omittingEmptySubsequences: false)
            .split(whereSeparator: { $0.isBlank })
            .map(Record.init)
        guard let event = records.first(where: { $0.node?.hasPrefix("input/event") == true }),
            let eventPath = event.path, let node = event.node, let number = Int(node.dropFirst("input/event".count))
        else {
            throw RecordingError(message: "no input event node (N: input/eventN) in the recording; record one with umockdev-record /dev/input/eventN")
        }
        let parentPath = String(eventPath[..<(eventPath.lastIndex(of: "/") ?? eventPath.endIndex)])
        guard let parent = records.first(where: { $0.path == parentPath }) else {
            throw RecordingError(message: "the recording lacks the input device \(parentPath) above \(node)")
        }
        guard let product = parent.properties["PRODUCT"]?.split(separator: "/").compactMap({ UInt16($0, radix: 16) }),
            product.count >= 3
        else {
            throw RecordingError(message: "\(parentPath) has no PRODUCT=bus/vendor/product/version property")
        }
        func bits(_ key: String) throws(RecordingError) -> [Int] {
            guard let text = parent.properties[key] else { return [] }
            guard let bits = CapabilityBits(sysfs: text) else {
                throw RecordingError(message: "\(key)=\(text) of \(parentPath) is not a capability bitmask")
            }
            return bits.codes
        }
        let name = (parent.properties["NAME"] ?? parent.attributes["name"] ?? "recorded device")
            .strippingQuotes()
        var device = FixtureDevice(
            kind: kind, inputPath: parentPath, eventNumber: number, name: name, bus: BusType(rawValue: product[0]),
            vendor: product[1], product: product[2], keys: try bits("KEY"), switches: try bits("SW"),
            relativeAxes: try bits("REL"), absoluteAxes: try bits("ABS"))
        device.properties = event.properties.filter { !nodeProperties.contains($0.key) }
        guard !device.keys.isEmpty || !device.switches.isEmpty || !device.relativeAxes.isEmpty
            || !device.absoluteAxes.isEmpty
        else {
            throw RecordingError(message: "\(parentPath) declares no keys, switches or axes (no KEY=, SW=, REL=, ABS=)")
        }
        return device
    }

    /// One `P:` block of a recording.
    private struct Record {
        var path: String?
        var node: String?
        var properties: [String: String] = [:]
        var attributes: [String: String] = [:]

        init(_ lines: ArraySlice<Substring>) {
            for line in lines {
                guard line.count >= 3, line.dropFirst().hasPrefix(": ") else { continue }
                let value = String(line.dropFirst(3))
                switch line.first {
                case "P": path = value
                case "N": node = String(value.prefix { $0 != "=" })
                case "E", "A":
                    guard let equals = value.firstIndex(of: "=") else { continue }
                    let key = String(value[..<equals])
                    let content = String(value[value.index(after: equals)...])
                    if line.first == "E" { properties[key] = content } else { attributes[key] = content }
                default: continue
                }
            }
        }
    }
}

/// A recording the testbed cannot emulate, and why.
public struct RecordingError: Error, Hashable, Sendable, CustomStringConvertible {
    public var message: String
    public var description: String { message }

    public init(message: String) { self.message = message }
}

extension StringProtocol {
    fileprivate var isBlank: Bool { allSatisfy { $0 == " " || $0 == "\t" || $0 == "\r" } }

    /// udev writes `NAME="..."` with the quotes.
    fileprivate func strippingQuotes() -> String {
        var text = Substring(self)
        if text.count >= 2, text.first == "\"", text.last == "\"" { text = text.dropFirst().dropLast() }
        return String(text)
    }
}
