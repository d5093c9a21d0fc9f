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
///
/// It runs for every key event of every device read, on the reader thread,
/// ahead of a hotkey's notification: the held modifiers and each hotkey's are
/// bit masks (eight modifier keys), so an event costs a few integer operations
/// and no allocation.
public struct HotkeyMatcher: Sendable {
    public let hotkeys: [Hotkey]
    /// `hotkeys` as masks, in the same order (the first match wins).
    private let masks: [Masks]
    private var held: UInt8 = 0

    /// One hotkey's modifiers as bits of `HotkeyMatcher.bit(of:)`.
    private struct Masks: Sendable {
        var key: Int
        /// One mask per required modifier: any of its bits satisfies it.
        var required: [UInt8]
        /// Every bit a required modifier allows; a held modifier outside it is
        /// a different combination.
        var allowed: UInt8
        var action: HotkeyAction
    }

    public init(hotkeys: [Hotkey]) {
        self.hotkeys = hotkeys
        masks = hotkeys.map { hotkey in
            let required = hotkey.modifiers.map { $0.reduce(UInt8(0)) { $0 | Self.bit(of: $1) } }
            return Masks(
                key: hotkey.key, required: required, allowed: required.reduce(0, |), action: hotkey.action)
        }
    }

    /// A modifier key's bit in the masks; 0 for any other key.
    private static func bit(of code: Int) -> UInt8 {
        switch code {
        case Int(KEY_LEFTCTRL): 1 << 0
        case Int(KEY_RIGHTCTRL): 1 << 1
        case Int(KEY_LEFTSHIFT): 1 << 2
        case Int(KEY_RIGHTSHIFT): 1 << 3
        case Int(KEY_LEFTALT): 1 << 4
        case Int(KEY_RIGHTALT): 1 << 5
        case Int(KEY_LEFTMETA): 1 << 6
        case Int(KEY_RIGHTMETA): 1 << 7
        default: 0
        }
    }

    /// A key event as read (`value` 1 press, 0 release, 2 autorepeat). Returns the
    /// action of the hotkey it completes, if any. Repeats never fire.
    public mutating func keyEvent(code: Int, value: Int32) -> HotkeyAction? {
        // A modifier can also be the whole hotkey (no modifiers of its own):
        // it never counts as held for its own press.
        let bit = Self.bit(of: code)
        if value == 1 { held |= bit } else if value == 0 { held &= ~bit }
        guard value == 1 else { return nil }
        let others = held & ~bit
        for hotkey in masks where hotkey.key == code && others & ~hotkey.allowed == 0 {
            if hotkey.required.allSatisfy({ $0 & others != 0 }) { return hotkey.action }
        }
        return nil
    }

    /// A state update replayed after `SYN_DROPPED`: it changes which modifiers are
    /// held but is not a key press, so it never fires a hotkey.
    public mutating func resync(code: Int, value: Int32) {
        let bit = Self.bit(of: code)
        if value == 0 { held &= ~bit } else { held |= bit }
    }

    /// The held modifiers set from the kernel's key state after `SYN_DROPPED`
    /// (`keyIsDown` is asked about the eight modifier keys only); like
    /// `resync(code:value:)`, it never fires a hotkey.
    public mutating func resync(keyIsDown: (Int) -> Bool) {
        for code in [KEY_LEFTCTRL, KEY_RIGHTCTRL, KEY_LEFTSHIFT, KEY_RIGHTSHIFT, KEY_LEFTALT, KEY_RIGHTALT, KEY_LEFTMETA, KEY_RIGHTMETA] {
            resync(code: Int(code), value: keyIsDown(Int(code)) ? 1 : 0)
        }
    }

    /// Number of modifiers currently held (for tests; never which other keys).
    public var heldModifierCount: Int { held.nonzeroBitCount }
}
