import CLibevdev

extension Hotkey {
    /// The names a hotkey combination may use, as `Hotkey.init` reads them: the
    /// generic modifiers (either side), then every key the kernel defines,
    /// without the `KEY_` prefix (`BTN_` names keep theirs), from libevdev's
    /// own table so the list is exactly what the parser accepts.
    public static var keyNames: (modifiers: [String], keys: [String]) {
        var keys: [String] = []
        var seen: Set<String> = []
        // Code 0 is KEY_RESERVED, which no keyboard sends.
        for code in 1...UInt32(KEY_MAX) {
            guard let pointer = libevdev_event_code_get_name(UInt32(EV_KEY), code) else { continue }
            let full = String(cString: pointer)
            let name = full.hasPrefix("KEY_") ? String(full.dropFirst(4)) : full
            // Codes with several names (KEY_MIN_INTERESTING = KEY_MUTE) list one.
            if seen.insert(name).inserted { keys.append(name) }
        }
        return (["CTRL", "SHIFT", "ALT", "META"], keys)
    }
}
