import CLibevdev

/// A machine's worth of emulated input devices that a tester plugs, unplugs and
/// types on by name: `TestbedInventory`'s bookkeeping applied to a umockdev
/// `Testbed`. `insetd-testbed run` owns one; the hardware-in-the-loop tests use
/// the same type, so what testers drive is what the project tests.
///
/// Like `Testbed`, it needs umockdev's preload in this process, and one exists
/// at a time.
public final class EmulatedHardware {
    public let testbed: Testbed
    public private(set) var inventory = TestbedInventory()

    public init() { testbed = Testbed() }

    /// Plugs a device of a kind (`usb-keyboard`, ...): it appears in sysfs and
    /// `/dev/input` and udev monitors hear `add`. Returns the name it got.
    @discardableResult
    public func plug(kind: String, name: String? = nil) throws(TestbedError) -> PluggedDevice {
        try plug(TestbedKinds.fixture(for: kind), name: name)
    }

    /// Plugs a device recorded from real hardware with `umockdev-record`.
    @discardableResult
    public func plug(recording text: String, kind: String, name: String? = nil) throws(TestbedError) -> PluggedDevice {
        let device: FixtureDevice
        do {
            device = try RecordedDevice.parse(text, kind: kind)
        } catch {
            throw TestbedError(message: "recording \(kind): \(error.message)")
        }
        return try plug(device, name: name)
    }

    @discardableResult
    public func plug(_ fixture: FixtureDevice, name: String?) throws(TestbedError) -> PluggedDevice {
        var next = inventory
        let entry = try next.plug(fixture, name: name)
        try testbed.add(entry.device)
        inventory = next
        return entry
    }

    /// Unplugs a device by name: udev monitors hear `remove`, readers see the node go.
    @discardableResult
    public func unplug(_ name: String) throws(TestbedError) -> PluggedDevice {
        let entry = try inventory.unplug(name)
        testbed.remove(entry.device)
        return entry
    }

    /// Presses the chord's keys in order and releases them in reverse, one
    /// `SYN_REPORT` frame per key, on the named device or the first that has them.
    @discardableResult
    public func press(_ chord: KeyChord, on name: String? = nil) throws(TestbedError) -> PluggedDevice {
        let entry = try inventory.keyboard(for: chord, on: name)
        testbed.tap(entry.device, chord.codes.map(Int32.init))
        return entry
    }

    /// Folds (`on`) or unfolds a tablet switch: an `SW_TABLET_MODE` event.
    @discardableResult
    public func tablet(on: Bool, switch name: String? = nil) throws(TestbedError) -> PluggedDevice {
        let entry = try inventory.flipTablet(on: on, name: name)
        testbed.switchState(entry.device, Int32(SW_TABLET_MODE), on: on)
        return entry
    }
}
