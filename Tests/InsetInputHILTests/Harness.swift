import InputTestbed
import Testing
import InsetInput
import Logging
import NIOCore

/// Every hardware-in-the-loop suite nests here: umockdev keeps one testbed per
/// process (in `UMOCKDEV_DIR`), so no two of these tests may run at once.
@Suite(.serialized, .enabled(if: Testbed.isAvailable, "needs umockdev-wrapper (scripts/test runs it)"))
enum HardwareInTheLoop {}

/// One emulated machine: a testbed with devices, a running monitor reading it
/// through real libudev and libevdev, its events and its log lines.
final class EmulatedMachine {
    let testbed = Testbed()
    let logs = LogCapture()
    private(set) var monitor: InputMonitor!
    private(set) var collector: EventCollector!

    static let hotkeys = [
        try! Hotkey("LEFTMETA+K", action: .toggle), try! Hotkey("LEFTMETA+R", action: .rotateRight),
        try! Hotkey("ROTATE_DISPLAY", action: .rotate),
    ]

    init(_ devices: [FixtureDevice] = [], udev: Bool = true) throws {
        for device in devices { try testbed.add(device, udev: udev) }
    }

    /// Starts reading (the devices present now are enumerated before it returns).
    @discardableResult
    func start(source: UeventSource = .udev, countVirtual: Bool = false, eventLoop: (any EventLoop)? = nil) throws -> UeventSource {
        let classifier = ClassifierConfiguration(countVirtualKeyboards: countVirtual, hotkeys: Self.hotkeys)
        monitor = InputMonitor(
            configuration: .init(source: source, classifier: classifier, eventLoop: eventLoop), logger: logs.logger())
        collector = EventCollector(monitor.events)
        return try monitor.start()
    }

    func stop() { monitor?.stop() }

    deinit { stop() }

    /// The classification label of every device the monitor knows, by kind.
    func labels() -> [String: String] {
        var result: [String: String] = [:]
        for device in monitor.devices {
            let kind = FixtureCatalogue.all.first { "/sys" + $0.syspath == device.description.syspath }?.kind ?? "?"
            result[kind] = device.classification.label
        }
        return result
    }
}

extension InputEvent {
    var isAttach: Bool { if case .keyboardAttached = self { true } else { false } }
    var isDetach: Bool { if case .keyboardDetached = self { true } else { false } }

    /// The syspath of the device an event is about, if any.
    var syspath: String? {
        switch self {
        case .keyboardAttached(let d), .keyboardDetached(let d), .deviceWatched(let d), .deviceIgnored(let d),
            .deviceRemoved(let d):
            d.description.syspath
        case .tabletMode, .hotkey: nil
        }
    }
}
