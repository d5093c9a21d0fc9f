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
/// 7. otherwise a keyboard.
///
/// A keyboard's placement (internal or external), first answer wins: the allow
/// entry's `internal:` / `external:` prefix; the udev property
/// `ID_INPUT_KEYBOARD_INTEGRATION` (systemd names its touchpad and joystick
/// properties this way; systemd 252 sets none for keyboards, a local hwdb entry
/// or rule can); libinput's quirk `AttrKeyboardIntegration`; else the bus:
/// internal for i8042, host, I²C, SPI and platform devices, external for USB,
/// Bluetooth and anything else.
///
/// A device that is not a keyboard is a tablet-mode switch if it reports
/// `SW_TABLET_MODE` (unless libinput's quirk `ModelTabletModeSwitchUnreliable`
/// says that switch lies, then its switch is not followed at all), a hotkey
/// source if it has every key of a configured hotkey, and ignored otherwise.
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
        let quirks = config.quirks.lookup(device)
        let hasKeys = device.eventTypes.contains(Int(EV_KEY)) && !device.keys.isEmpty
        let reportsSwitch = device.eventTypes.contains(Int(EV_SW)) && device.switches.contains(Int(SW_TABLET_MODE))
        let unreliable = reportsSwitch ? quirks.tabletModeSwitchUnreliable.flatMap { $0.value ? $0 : nil } : nil
        let hasSwitch = reportsSwitch && unreliable == nil
        let switchNote = unreliable.map {
            "; its SW_TABLET_MODE is not followed (libinput quirk ModelTabletModeSwitchUnreliable, \($0.section))"
        } ?? ""
        guard hasKeys || hasSwitch else {
            let reason = reportsSwitch ? "has no keys\(switchNote)" : "has no keys and no tablet-mode switch"
            return DeviceClassification(kind: .ignored, reason: reason)
        }
        if hasKeys, let rule = config.allow.first(where: { $0.matches(device) }) {
            return DeviceClassification(
                kind: .keyboard(rule.placement ?? placement(of: device, quirks).placement),
                reason: "allowed by configuration entry '\(rule)'\(switchNote)", hasTabletModeSwitch: hasSwitch)
        }
        if let denial = deniedVendors.first(where: {
            $0.vendor == device.vendor && ($0.product == nil || $0.product == device.product)
        }) {
            return DeviceClassification(kind: .ignored, reason: denial.why)
        }
        guard let notKeyboard = whyNotKeyboard(device, config, hasKeys: hasKeys) else {
            let (placed, why) = placement(of: device, quirks)
            let where_ = placed == .internal ? "built in" : "external"
            return DeviceClassification(
                kind: .keyboard(placed),
                reason: "has the full ESC..D key block; \(where_) (\(why))\(switchNote)", hasTabletModeSwitch: hasSwitch)
        }
        if hasSwitch {
            return DeviceClassification(
                kind: .tabletModeSwitch, reason: "\(notKeyboard); reports SW_TABLET_MODE", hasTabletModeSwitch: true)
        }
        if config.hotkeys.contains(where: { $0.canBeTyped(on: device.keys) }) {
            return DeviceClassification(kind: .hotkeySource, reason: "\(notKeyboard)\(switchNote); read for hotkeys only")
        }
        return DeviceClassification(kind: .ignored, reason: "\(notKeyboard)\(switchNote); has no configured hotkey's keys")
    }

    /// Where a keyboard sits and what said so: udev's integration property,
    /// then libinput's quirk, then the bus.
    static func placement(of device: InputDeviceDescription, _ quirks: MatchedQuirks)
        -> (placement: KeyboardPlacement, why: String)
    {
        if let value = device.properties["ID_INPUT_KEYBOARD_INTEGRATION"], let placed = KeyboardPlacement(rawValue: value) {
            return (placed, "udev property ID_INPUT_KEYBOARD_INTEGRATION=\(value)")
        }
        if let quirk = quirks.keyboardIntegration {
            return (quirk.value, "libinput quirk AttrKeyboardIntegration=\(quirk.value.rawValue), \(quirk.section)")
        }
        return (placement(of: device), "bus \(device.bus)")
    }

    /// The bus's answer alone. Internal keyboards fold away in tablet mode;
    /// external ones stay usable.
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
