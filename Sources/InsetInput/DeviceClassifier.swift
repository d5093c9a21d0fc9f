import CLibevdev
import InsetCore

/// Decides what an input device is, from its description and the configuration
/// alone (no I/O), in this order; the first rule that decides wins:
///
/// 1. udev property `INSETD_IGNORE=1` or tag `insetd-ignore` → ignored.
/// 2. a configured deny entry → ignored.
/// 3. neither keys nor a tablet-mode switch → ignored.
/// 4. a configured allow entry → keyboard.
/// 5. built-in vendor denials (Yubico 1050:*, the Logitech M720 mouse) → ignored.
/// 6. not a keyboard when: named like a non-keyboard (Power Button, Video Bus,
///    Lid Switch, Intel HID events, PC Speaker, headset jacks, ...); virtual
///    (unless configured to count); a pointer (REL_X/REL_Y and BTN_LEFT); or
///    missing any key of udev's ESC..D alphanumeric block.
/// 7. otherwise a keyboard, internal (i8042, host, I²C, SPI, platform) or
///    external (USB, Bluetooth, anything else).
///
/// A device that is not a keyboard is a tablet-mode switch if it reports
/// `SW_TABLET_MODE`, a hotkey source if it has every key of a configured
/// hotkey, and ignored otherwise.
public enum DeviceClassifier {
    /// KEY_ESC through KEY_D: ESC, 1-0, -, =, BACKSPACE, TAB, Q-P, [, ], ENTER,
    /// LEFTCTRL, A, S, D.
    public static let alphanumericBlock = Int(KEY_ESC)...Int(KEY_D)

    static let nonKeyboardNames = [
        "*Power Button*", "*Sleep Button*", "*Video Bus*", "*Lid Switch*", "*Intel HID events*",
        "*PC Speaker*", "*Headset*", "*Headphone*", "* Jack", "* Mic", "*HDMI/DP*",
    ]

    static let deniedVendors: [(vendor: UInt16, product: UInt16?, why: String)] = [
        (0x1050, nil, "a Yubico security key (1050:*) types one-time passwords, it is not a keyboard"),
        (0x046d, 0x405e, "the Logitech M720 mouse (046d:405e) exposes letter keys but is not a keyboard"),
        (0x046d, 0xb015, "the Logitech M720 mouse (046d:b015) exposes letter keys but is not a keyboard"),
    ]

    public static func classify(_ device: InputDeviceDescription, _ config: ClassifierConfiguration)
        -> DeviceClassification
    {
        if device.properties["INSETD_IGNORE"] == "1" {
            return DeviceClassification(kind: .ignored, reason: "udev property INSETD_IGNORE=1")
        }
        if device.tags.contains("insetd-ignore") {
            return DeviceClassification(kind: .ignored, reason: "udev tag insetd-ignore")
        }
        if let rule = config.deny.first(where: { $0.matches(device) }) {
            return DeviceClassification(kind: .ignored, reason: "denied by configuration entry '\(rule)'")
        }
        let hasKeys = device.eventTypes.contains(Int(EV_KEY)) && !device.keys.isEmpty
        let hasSwitch = device.eventTypes.contains(Int(EV_SW)) && device.switches.contains(Int(SW_TABLET_MODE))
        guard hasKeys || hasSwitch else {
            return DeviceClassification(kind: .ignored, reason: "has no keys and no tablet-mode switch")
        }
        if hasKeys, let rule = config.allow.first(where: { $0.matches(device) }) {
            return DeviceClassification(
                kind: .keyboard(placement(of: device)), reason: "allowed by configuration entry '\(rule)'",
                hasTabletModeSwitch: hasSwitch)
        }
        if let denial = deniedVendors.first(where: {
            $0.vendor == device.vendor && ($0.product == nil || $0.product == device.product)
        }) {
            return DeviceClassification(kind: .ignored, reason: denial.why)
        }
        guard let notKeyboard = whyNotKeyboard(device, config, hasKeys: hasKeys) else {
            let where_ = placement(of: device) == .internal ? "built in" : "external"
            return DeviceClassification(
                kind: .keyboard(placement(of: device)),
                reason: "has the full ESC..D key block; \(where_) (bus \(device.bus))", hasTabletModeSwitch: hasSwitch)
        }
        if hasSwitch {
            return DeviceClassification(
                kind: .tabletModeSwitch, reason: "\(notKeyboard); reports SW_TABLET_MODE", hasTabletModeSwitch: true)
        }
        if config.hotkeys.contains(where: { $0.canBeTyped(on: device.keys) }) {
            return DeviceClassification(kind: .hotkeySource, reason: "\(notKeyboard); read for hotkeys only")
        }
        return DeviceClassification(kind: .ignored, reason: "\(notKeyboard); has no configured hotkey's keys")
    }

    /// Internal keyboards fold away in tablet mode; external ones stay usable.
    public static func placement(of device: InputDeviceDescription) -> KeyboardPlacement {
        switch device.bus {
        case .usb, .bluetooth: .external
        case .i8042, .host, .i2c, .spi: .internal
        default: device.syspath.contains("/platform/") ? .internal : .external
        }
    }

    private static func whyNotKeyboard(
        _ device: InputDeviceDescription, _ config: ClassifierConfiguration, hasKeys: Bool
    ) -> String? {
        guard hasKeys else { return "has no keys" }
        if let pattern = nonKeyboardNames.first(where: { globMatches($0, device.name) }) {
            return "named '\(device.name)' (matches \(pattern)), never a typing keyboard"
        }
        if device.isVirtual && !config.countVirtualKeyboards {
            return "virtual device (a remapper's or on-screen keyboard), not counted as physical"
        }
        if device.relativeAxes.contains(Int(REL_X)) && device.relativeAxes.contains(Int(REL_Y))
            && device.keys.contains(Int(BTN_LEFT))
        {
            return "a pointer (REL_X, REL_Y, BTN_LEFT) that also has keys"
        }
        if !device.keys.containsAll(alphanumericBlock) {
            return "lacks keys of the ESC..D block udev requires of a keyboard"
        }
        return nil
    }
}
