import CLibevdev

/// What a hotkey asks of the on-screen keyboard or the screen.
public enum HotkeyAction: String, Hashable, Sendable, Codable, CaseIterable {
    case show
    case hide
    case toggle
    case rotate
    case rotateLeft = "rotate-left"
    case rotateRight = "rotate-right"
}

/// A key combination from the configuration, such as `LEFTMETA+K` or
/// `ROTATE_DISPLAY`, bound to an action.
///
/// Key names are the kernel's (`KEY_` prefix optional), resolved through
/// libevdev's own name table, so any key the kernel knows can be bound and a
/// typo is rejected with the name that was not found. `CTRL`, `SHIFT`, `ALT` and
/// `META` match either side; `LEFTMETA` only the left one.
public struct Hotkey: Hashable, Sendable, Codable, CustomStringConvertible {
    /// Each element is one required modifier: any of its codes satisfies it.
    public var modifiers: [Set<Int>]
    public var key: Int
    public var action: HotkeyAction
    public var description: String

    static let genericModifiers: [String: Set<Int>] = [
        "CTRL": [Int(KEY_LEFTCTRL), Int(KEY_RIGHTCTRL)],
        "SHIFT": [Int(KEY_LEFTSHIFT), Int(KEY_RIGHTSHIFT)],
        "ALT": [Int(KEY_LEFTALT), Int(KEY_RIGHTALT)],
        "META": [Int(KEY_LEFTMETA), Int(KEY_RIGHTMETA)],
    ]

    /// Every modifier key code; only these are ever remembered per device.
    public static let modifierCodes: Set<Int> = genericModifiers.values.reduce([], { $0.union($1) })

    public init(_ combination: String, action: HotkeyAction) throws(HotkeyError) {
        let names = combination.split(separator: "+", omittingEmptySubsequences: false)
            .map { $0.trimmingSpaces().uppercased() }
        guard !names.contains(where: \.isEmpty) else {
            throw HotkeyError(combination: combination, reason: "empty key name")
        }
        var modifiers: [Set<Int>] = []
        for name in names.dropLast() {
            if let generic = Self.genericModifiers[name] {
                modifiers.append(generic)
            } else {
                let code = try Self.code(of: name, in: combination)
                guard Self.modifierCodes.contains(code) else {
                    throw HotkeyError(combination: combination, reason: "'\(name)' is not a modifier key")
                }
                modifiers.append([code])
            }
        }
        self.modifiers = modifiers
        let last = names.last!
        if Self.genericModifiers[last] != nil {
            throw HotkeyError(
                combination: combination,
                reason: modifiers.isEmpty
                    ? "'\(last)' names two keys; use LEFT\(last) or RIGHT\(last)"
                    : "the last key must not be a modifier")
        }
        self.key = try Self.code(of: last, in: combination)
        guard !Self.modifierCodes.contains(key) || modifiers.isEmpty else {
            throw HotkeyError(combination: combination, reason: "the last key must not be a modifier")
        }
        self.action = action
        self.description = "\(names.joined(separator: "+"))=\(action.rawValue)"
    }

    /// Whether a device with these keys can type the combination at all.
    public func canBeTyped(on keys: CapabilityBits) -> Bool {
        keys.contains(key) && modifiers.allSatisfy { $0.contains(where: keys.contains) }
    }

    /// Whether pressing `key` with exactly `held` modifiers down fires this hotkey:
    /// every required modifier is held, and no other modifier is.
    func matches(key pressed: Int, held: Set<Int>) -> Bool {
        guard pressed == key else { return false }
        guard modifiers.allSatisfy({ !$0.isDisjoint(with: held) }) else { return false }
        return held.allSatisfy { code in modifiers.contains { $0.contains(code) } }
    }

    private static func code(of name: String, in combination: String) throws(HotkeyError) -> Int {
        let full = name.hasPrefix("KEY_") || name.hasPrefix("BTN_") ? name : "KEY_" + name
        let code = libevdev_event_code_from_name(UInt32(EV_KEY), full)
        guard code >= 0 else { throw HotkeyError(combination: combination, reason: "unknown key name '\(name)'") }
        return Int(code)
    }
}

/// A hotkey in the configuration that cannot be used, and why.
public struct HotkeyError: Error, Hashable, Sendable, CustomStringConvertible {
    public var combination: String
    public var reason: String
    public var description: String { "invalid hotkey '\(combination)': \(reason)" }
}

extension Substring {
    fileprivate func trimmingSpaces() -> String {
        String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }
}

/// Matches one device's key events against the hotkeys.
///
/// Privacy: the only key state it keeps is which *modifier* keys are down. Any
/// other key is compared with the hotkeys and forgotten in the same call; nothing
/// about it is stored, returned or logged.
public struct HotkeyMatcher: Sendable {
    public let hotkeys: [Hotkey]
    private var heldModifiers: Set<Int> = []

    public init(hotkeys: [Hotkey]) {
        self.hotkeys = hotkeys
    }

    /// A key event as read (`value` 1 press, 0 release, 2 autorepeat). Returns the
    /// action of the hotkey it completes, if any. Repeats never fire.
    public mutating func keyEvent(code: Int, value: Int32) -> HotkeyAction? {
        if Hotkey.modifierCodes.contains(code) {
            if value == 1 { heldModifiers.insert(code) } else if value == 0 { heldModifiers.remove(code) }
            // A modifier can also be the whole hotkey (no modifiers of its own).
        }
        guard value == 1 else { return nil }
        let others = heldModifiers.subtracting([code])
        return hotkeys.first { $0.matches(key: code, held: others) }?.action
    }

    /// A state update replayed after `SYN_DROPPED`: it changes which modifiers are
    /// held but is not a key press, so it never fires a hotkey.
    public mutating func resync(code: Int, value: Int32) {
        guard Hotkey.modifierCodes.contains(code) else { return }
        if value == 0 { heldModifiers.remove(code) } else { heldModifiers.insert(code) }
    }

    /// Number of modifiers currently held (for tests; never which other keys).
    public var heldModifierCount: Int { heldModifiers.count }
}
