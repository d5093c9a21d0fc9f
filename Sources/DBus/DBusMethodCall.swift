import CSdBus

/// One argument of a method call the bus delivered to an object this
/// process exports, as its type says: numbers of any D-Bus width as a
/// Double, strings, booleans; anything else only by its type code (a caller
/// that sent an array where a number belongs is told so, not trusted).
package enum DBusValue: Hashable, Sendable {
    case number(Double)
    case string(String)
    case bool(Bool)
    /// A value of another type (a container, an object path...), skipped.
    case other(Character)
}

/// A method call addressed to an object this process exports (`DBusConnection.export`),
/// copied out of sd-bus's message so no message pointer outlives the callback.
package struct DBusMethodCall: Hashable, Sendable {
    /// The caller's unique bus name (`:1.42`); nil if the bus did not say.
    package var sender: String?
    package var interface: String?
    package var member: String
    package var arguments: [DBusValue]

    package init(sender: String?, interface: String?, member: String, arguments: [DBusValue]) {
        self.sender = sender
        self.interface = interface
        self.member = member
        self.arguments = arguments
    }

    /// Reads `message` (a method call); nil when it cannot be read whole.
    static func read(_ message: OpaquePointer) -> DBusMethodCall? {
        guard let member = sd_bus_message_get_member(message) else { return nil }
        var arguments: [DBusValue] = []
        while true {
            var type: CChar = 0
            var number = 0.0
            var string: UnsafePointer<CChar>?
            let r = csdbus_read_any(message, &type, &number, &string)
            if r == 0 { break }
            guard r > 0, arguments.count < 64 else { return nil }
            switch UInt8(bitPattern: type) {
            case UInt8(ascii: "s"): arguments.append(.string(string.map { String(cString: $0) } ?? ""))
            case UInt8(ascii: "b"): arguments.append(.bool(number != 0))
            case UInt8(ascii: "a"), UInt8(ascii: "v"), UInt8(ascii: "r"), UInt8(ascii: "e"), UInt8(ascii: "o"),
                UInt8(ascii: "g"), UInt8(ascii: "h"):
                arguments.append(.other(Character(Unicode.Scalar(UInt8(bitPattern: type)))))
            default: arguments.append(.number(number))
            }
        }
        return DBusMethodCall(
            sender: sd_bus_message_get_sender(message).map { String(cString: $0) },
            interface: sd_bus_message_get_interface(message).map { String(cString: $0) },
            member: String(cString: member), arguments: arguments)
    }
}

/// What an exported object answers a call: an empty return, or a D-Bus error
/// (the caller's mistake, named and explained).
package enum DBusReply: Hashable, Sendable {
    case done
    case error(name: String, message: String)

    /// The arguments do not fit the method (`org.freedesktop.DBus.Error.InvalidArgs`).
    package static func invalidArguments(_ message: String) -> DBusReply {
        .error(name: "org.freedesktop.DBus.Error.InvalidArgs", message: message)
    }
}
