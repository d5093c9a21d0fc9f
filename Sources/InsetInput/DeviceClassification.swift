import InsetCore

/// What insetd makes of one input device, always with the reason, so
/// `insetctl devices` can say why a device does or does not count.
public struct DeviceClassification: Hashable, Sendable, Codable {
    public enum Kind: Hashable, Sendable, Codable {
        /// Counts as a physical keyboard for the policy (and is read for hotkeys).
        case keyboard(KeyboardPlacement)
        /// Not a keyboard, but reports `SW_TABLET_MODE`.
        case tabletModeSwitch
        /// Not a keyboard, read only because it can produce a configured hotkey.
        case hotkeySource
        /// Not opened at all.
        case ignored
    }

    public var kind: Kind
    /// One sentence a person can act on.
    public var reason: String
    /// The device reports `SW_TABLET_MODE`; its state is read at open and followed.
    public var hasTabletModeSwitch: Bool

    public init(kind: Kind, reason: String, hasTabletModeSwitch: Bool = false) {
        self.kind = kind
        self.reason = reason
        self.hasTabletModeSwitch = hasTabletModeSwitch
    }

    /// Whether the device must be opened and read.
    public var isRead: Bool { kind != .ignored }

    /// Stable short label for listings and JSON: `keyboard-internal`,
    /// `keyboard-external`, `tablet-switch`, `hotkeys`, `ignored`.
    public var label: String {
        switch kind {
        case .keyboard(.internal): "keyboard-internal"
        case .keyboard(.external): "keyboard-external"
        case .tabletModeSwitch: "tablet-switch"
        case .hotkeySource: "hotkeys"
        case .ignored: "ignored"
        }
    }
}

/// The configurable part of classification.
public struct ClassifierConfiguration: Hashable, Sendable {
    /// Devices that always count as keyboards (when they have keys at all).
    public var allow: [DeviceMatch]
    /// Devices that are always ignored.
    public var deny: [DeviceMatch]
    /// Count virtual devices (a remapper's keyboard) as physical keyboards.
    public var countVirtualKeyboards: Bool
    /// The configured hotkeys: a device that is not a keyboard is still read when
    /// it can produce one of them.
    public var hotkeys: [Hotkey]
    /// libinput's device quirks. `InputMonitor` loads them from its
    /// `QuirksSources` when this is empty.
    public var quirks: DeviceQuirks

    public init(
        allow: [DeviceMatch] = [], deny: [DeviceMatch] = [], countVirtualKeyboards: Bool = false,
        hotkeys: [Hotkey] = [], quirks: DeviceQuirks = .none
    ) {
        self.allow = allow
        self.deny = deny
        self.countVirtualKeyboards = countVirtualKeyboards
        self.hotkeys = hotkeys
        self.quirks = quirks
    }
}
