import InsetCore

/// A device and what insetd made of it.
public struct InputDevice: Hashable, Sendable, Codable {
    public var description: InputDeviceDescription
    public var classification: DeviceClassification

    public init(description: InputDeviceDescription, classification: DeviceClassification) {
        self.description = description
        self.classification = classification
    }

    /// A keyboard's placement as classified (allow entry, udev, quirk or bus);
    /// for any other device, its bus's.
    public var placement: KeyboardPlacement {
        if case .keyboard(let placement) = classification.kind { return placement }
        return DeviceClassifier.placement(of: description)
    }
}

/// What the input module tells the rest of the daemon. It carries no key data:
/// ordinary keystrokes end where they are read, and a hotkey arrives only as its
/// action.
public enum InputEvent: Hashable, Sendable {
    /// A device classified as a physical keyboard is present and readable.
    case keyboardAttached(InputDevice)
    case keyboardDetached(InputDevice)
    /// A device that is not a keyboard is read for its tablet-mode switch or for
    /// hotkeys.
    case deviceWatched(InputDevice)
    /// A device insetd does not read; the classification (or the open failure)
    /// says why.
    case deviceIgnored(InputDevice)
    /// A watched or ignored device went away.
    case deviceRemoved(InputDevice)
    /// The combined `SW_TABLET_MODE` state changed (also reported at start-up
    /// when a switch is on).
    case tabletMode(Bool)
    case hotkey(HotkeyAction)
}
