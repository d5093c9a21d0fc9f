import CLibevdev
import InsetInput

/// The emulated devices the tests use: one of each kind a real machine shows,
/// including the ones that look like keyboards and are not.
public enum FixtureCatalogue {
    /// The main block of a PC keyboard (ESC through F12 and the keypad), the
    /// right-hand modifiers, and both META keys.
    public static let fullKeyboardKeys: [Int] =
        Array(1...88) + Array(96...111) + Array(113...119) + [Int(KEY_LEFTMETA), Int(KEY_RIGHTMETA), Int(KEY_COMPOSE)]

    public static let usbKeyboard = FixtureDevice(
        kind: "usb-keyboard", inputPath: "/devices/pci0000:00/0000:00:14.0/usb1/1-2/1-2:1.0/0003:413C:2113.0001/input/input10",
        eventNumber: 10, name: "Dell KB216 Wired Keyboard", bus: .usb, vendor: 0x413c, product: 0x2113,
        keys: fullKeyboardKeys)

    /// BlueZ creates Bluetooth keyboards through uhid, under /devices/virtual/misc.
    public static let bluetoothKeyboard = FixtureDevice(
        kind: "bluetooth-keyboard", inputPath: "/devices/virtual/misc/uhid/0005:05AC:024F.0002/input/input11",
        eventNumber: 11, name: "Keychron K2", bus: .bluetooth, vendor: 0x05ac, product: 0x024f,
        keys: fullKeyboardKeys)

    public static let atKeyboard = FixtureDevice(
        kind: "at-keyboard", inputPath: "/devices/platform/i8042/serio0/input/input3", eventNumber: 3,
        name: "AT Translated Set 2 keyboard", bus: .i8042, vendor: 0x0001, product: 0x0001,
        keys: fullKeyboardKeys)

    /// A security key is a USB keyboard that types one-time passwords.
    public static let yubiKey = FixtureDevice(
        kind: "yubikey", inputPath: "/devices/pci0000:00/0000:00:14.0/usb1/1-3/1-3:1.0/0003:1050:0407.0003/input/input12",
        eventNumber: 12, name: "Yubico YubiKey OTP+FIDO+CCID", bus: .usb, vendor: 0x1050, product: 0x0407,
        keys: fullKeyboardKeys)

    public static let powerButton = FixtureDevice(
        kind: "power-button", inputPath: "/devices/LNXSYSTM:00/LNXPWRBN:00/input/input1", eventNumber: 1,
        name: "Power Button", bus: .host, vendor: 0, product: 0x0001, keys: [Int(KEY_POWER)])

    public static let videoBus = FixtureDevice(
        kind: "video-bus", inputPath: "/devices/LNXSYSTM:00/LNXSYBUS:00/PNP0A08:00/LNXVIDEO:00/input/input6",
        eventNumber: 6, name: "Video Bus", bus: .host, vendor: 0, product: 0x0006,
        keys: [
            Int(KEY_SWITCHVIDEOMODE), Int(KEY_BRIGHTNESS_CYCLE), Int(KEY_BRIGHTNESSDOWN), Int(KEY_BRIGHTNESSUP),
            Int(KEY_BRIGHTNESS_ZERO), Int(KEY_DISPLAY_OFF),
        ])

    /// A convertible's hinge switch, folded into tablet mode when opened.
    public static let tabletSwitch = FixtureDevice(
        kind: "tablet-switch", inputPath: "/devices/platform/INT33D6:00/input/input13", eventNumber: 13,
        name: "Intel HID switches", bus: .host, vendor: 0, product: 0, switches: [Int(SW_TABLET_MODE)],
        switchesOn: [Int(SW_TABLET_MODE)])

    /// keyd's uinput keyboard: where hotkeys arrive when keyd grabs the real one.
    /// Remappers declare nearly every key code, the rotate key among them.
    public static let remapperKeyboard = FixtureDevice(
        kind: "remapper-keyboard", inputPath: "/devices/virtual/input/input20", eventNumber: 20,
        name: "keyd virtual keyboard", bus: .usb, vendor: 0x0fac, product: 0x0ade,
        keys: fullKeyboardKeys + [Int(KEY_ROTATE_DISPLAY)])

    public static let touchpad = FixtureDevice(
        kind: "touchpad", inputPath: "/devices/platform/i8042/serio1/input/input8", eventNumber: 8,
        name: "SynPS/2 Synaptics TouchPad", bus: .i8042, vendor: 0x0002, product: 0x0007,
        keys: [
            Int(BTN_LEFT), Int(BTN_RIGHT), Int(BTN_TOOL_FINGER), Int(BTN_TOUCH), Int(BTN_TOOL_DOUBLETAP),
            Int(BTN_TOOL_TRIPLETAP),
        ],
        absoluteAxes: [Int(ABS_X), Int(ABS_Y), Int(ABS_PRESSURE)])

    /// A mouse whose receiver also exposes a full set of letter keys.
    public static let letterMouse = FixtureDevice(
        kind: "letter-mouse", inputPath: "/devices/pci0000:00/0000:00:14.0/usb1/1-4/1-4:1.2/0003:046D:405E.0004/input/input14",
        eventNumber: 14, name: "Logitech M720 Triathlon", bus: .usb, vendor: 0x046d, product: 0x405e,
        keys: fullKeyboardKeys + [Int(BTN_LEFT), Int(BTN_RIGHT), Int(BTN_MIDDLE)],
        relativeAxes: [Int(REL_X), Int(REL_Y), Int(REL_WHEEL)])

    public static let all: [FixtureDevice] = [
        usbKeyboard, bluetoothKeyboard, atKeyboard, yubiKey, powerButton, videoBus, tabletSwitch,
        remapperKeyboard, touchpad, letterMouse,
    ]
}
