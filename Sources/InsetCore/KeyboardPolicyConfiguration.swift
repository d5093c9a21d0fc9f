/// Whether the on-screen keyboard follows the hardware, or is pinned by the user.
public enum KeyboardMode: String, Hashable, Sendable, Codable, CaseIterable {
    /// Show for a focused field unless a usable hardware keyboard is present.
    case auto
    /// Show for every focused field, hardware keyboard or not.
    case always
    /// Never show on focus. Explicit show/toggle commands still work.
    case never
}

/// Where a physical keyboard is attached, which decides how tablet mode treats it.
public enum KeyboardPlacement: String, Hashable, Sendable, Codable {
    /// Built in (i8042, platform bus): folded away and disabled in tablet mode.
    case `internal`
    /// USB or Bluetooth: usable whatever the hinge says.
    case external
}

/// A user's request to the on-screen keyboard, from a hotkey or `insetctl`.
public enum KeyboardCommand: String, Hashable, Sendable, Codable, CaseIterable {
    case show
    case hide
    case toggle
}

/// The screen's orientation, which selects the keyboard height.
public enum Orientation: String, Hashable, Sendable, Codable {
    case portrait
    case landscape

    /// Landscape when wider than tall; a square screen counts as portrait.
    public init(screen: Size) {
        self = screen.width > screen.height ? .landscape : .portrait
    }
}

/// The settings `KeyboardPolicy` decides with. Every value has the default a user
/// gets with no configuration file.
public struct KeyboardPolicyConfiguration: Hashable, Sendable {
    public var mode: KeyboardMode
    /// Height of the full on-screen keyboard in portrait, in points.
    public var portraitHeight: Double
    /// Height of the full on-screen keyboard in landscape, in points.
    public var landscapeHeight: Double
    /// Height of the bar left on screen when a hardware keyboard is usable and a
    /// field is focused, as an iPad keeps its shortcut bar. 0 hides it entirely.
    public var accessoryBarHeight: Double
    /// How long the hardware-keyboard state must hold before the policy acts on it,
    /// so a flapping USB or Bluetooth link does not make the keyboard flicker.
    public var hardwareHoldOff: Duration
    /// How the keyboard slides in and out.
    public var animation: Animation
    /// Treat external keyboards as absent (ChromeOS offers the same choice).
    public var ignoreExternalKeyboards: Bool

    public init(
        mode: KeyboardMode = .auto,
        portraitHeight: Double = 336,
        landscapeHeight: Double = 209,
        accessoryBarHeight: Double = 44,
        hardwareHoldOff: Duration = .milliseconds(200),
        animation: Animation = .keyboardDefault,
        ignoreExternalKeyboards: Bool = false
    ) {
        self.mode = mode
        self.portraitHeight = portraitHeight
        self.landscapeHeight = landscapeHeight
        self.accessoryBarHeight = accessoryBarHeight
        self.hardwareHoldOff = hardwareHoldOff
        self.animation = animation
        self.ignoreExternalKeyboards = ignoreExternalKeyboards
    }

    public static let `default` = KeyboardPolicyConfiguration()

    /// The full keyboard's height for an orientation.
    public func keyboardHeight(for orientation: Orientation) -> Double {
        switch orientation {
        case .portrait: portraitHeight
        case .landscape: landscapeHeight
        }
    }
}
