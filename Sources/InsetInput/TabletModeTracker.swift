/// Combines the `SW_TABLET_MODE` state of every switch device into one answer:
/// tablet mode is on while any present switch says so. A switch that goes away
/// (a detachable keyboard's dock) stops counting.
public struct TabletModeTracker: Hashable, Sendable {
    private var states: [String: Bool] = [:]

    public init() {}

    public var isOn: Bool { states.values.contains(true) }

    /// Records a device's switch state; returns the combined state if it changed.
    public mutating func set(_ on: Bool, for device: String) -> Bool? {
        let before = isOn
        states[device] = on
        return isOn != before ? isOn : nil
    }

    /// Forgets a device; returns the combined state if it changed.
    public mutating func remove(_ device: String) -> Bool? {
        let before = isOn
        states[device] = nil
        return isOn != before ? isOn : nil
    }
}
