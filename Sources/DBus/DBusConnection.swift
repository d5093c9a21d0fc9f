import CSdBus
import Glibc

/// A failed sd-bus call: what was being done, the errno sd-bus returned, and
/// the D-Bus error name and message when the peer sent an error reply.
package struct DBusError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What was being done, e.g. `call sm.puri.OSK0.SetVisible`.
    package var operation: String
    package var errno: Int32
    /// `org.freedesktop.DBus.Error.ServiceUnknown` and the like; nil for local failures.
    package var name: String?
    package var message: String?

    package init(_ operation: String, errno: Int32, name: String? = nil, message: String? = nil) {
        self.operation = operation
        self.errno = errno
        self.name = name
        self.message = message
    }

    /// Nobody owns the bus name the call was addressed to.
    package var serviceUnknown: Bool {
        name == "org.freedesktop.DBus.Error.ServiceUnknown" || name == "org.freedesktop.DBus.Error.NameHasNoOwner"
    }

    /// The peer has no such method (an older version of it).
    package var unknownMethod: Bool {
        name == "org.freedesktop.DBus.Error.UnknownMethod" || name == "org.freedesktop.DBus.Error.UnknownInterface"
    }

    /// The connection to the bus itself is gone (the bus daemon exited or the socket broke).
    package var connectionLost: Bool { [ECONNRESET, ENOTCONN, EPIPE, ESHUTDOWN, ECONNREFUSED].contains(errno) }

    package var description: String {
        if let name { return "\(operation): \(name): \(message ?? "")" }
        return "\(operation): \(String(cString: strerror(errno))) (errno \(errno))"
    }
}

/// A value passed as a method argument.
package enum DBusArgument: Hashable, Sendable {
    case bool(Bool)
    case string(String)
    case int32(Int32)
}

/// One connection to a D-Bus bus through libsystemd's sd-bus. It exists so the
/// OSK bridge speaks D-Bus through typed calls (errors carry errno and the
/// D-Bus error name) without any sd-bus pointer leaving this module.
///
/// Not thread-safe, like sd-bus itself: use it from one thread, and drive it from
/// a poll loop with `fileDescriptor`, `pollEvents`, `timeout` and `process()`.
package final class DBusConnection {
    private var bus: OpaquePointer?
    private var slots: [OpaquePointer] = []
    private var handlers: [MatchHandler] = []
    private var objects: [ObjectHandler] = []
    /// How long a method call may wait for its reply.
    package var callTimeoutMicroseconds: UInt64 = 2_000_000

    /// The user's session bus (`DBUS_SESSION_BUS_ADDRESS`, else `$XDG_RUNTIME_DIR/bus`).
    package static func session() throws(DBusError) -> DBusConnection {
        var bus: OpaquePointer?
        let r = sd_bus_open_user(&bus)
        guard r >= 0, let bus else { throw DBusError("connect to the session bus", errno: -r) }
        return DBusConnection(bus: bus)
    }

    private init(bus: OpaquePointer) {
        self.bus = bus
    }

    deinit {
        for slot in slots { sd_bus_slot_unref(slot) }
        if let bus { sd_bus_flush_close_unref(bus) }
    }

    /// The descriptor to poll, and for which events.
    package var fileDescriptor: Int32 { bus.map { sd_bus_get_fd($0) } ?? -1 }

    package var pollEvents: Int16 {
        guard let bus else { return 0 }
        let events = sd_bus_get_events(bus)
        return events < 0 ? 0 : Int16(truncatingIfNeeded: events)
    }

    /// Microseconds until sd-bus needs `process()` without I/O (a call timing out); nil = none.
    package var timeoutMicroseconds: UInt64? {
        guard let bus else { return nil }
        var usec: UInt64 = 0
        guard sd_bus_get_timeout(bus, &usec) >= 0, usec != UInt64.max else { return nil }
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let nowUsec = UInt64(now.tv_sec) * 1_000_000 + UInt64(now.tv_nsec) / 1000
        return usec > nowUsec ? usec - nowUsec : 0
    }

    /// Dispatches everything pending; match handlers run from inside this call.
    package func process() throws(DBusError) {
        guard let bus else { throw DBusError("process", errno: ENOTCONN) }
        while true {
            let r = sd_bus_process(bus, nil)
            if r < 0 { throw DBusError("process", errno: -r) }
            if r == 0 { return }
        }
    }

    /// Calls a method and waits for its reply, which is ignored beyond success.
    package func call(
        _ destination: String, _ path: String, _ interface: String, _ member: String, _ arguments: [DBusArgument] = []
    ) throws(DBusError) {
        let reply = try callForReply(destination, path, interface, member, arguments)
        sd_bus_message_unref(reply)
    }

    /// Calls a method whose reply is one boolean.
    package func callReturningBool(
        _ destination: String, _ path: String, _ interface: String, _ member: String, _ arguments: [DBusArgument] = []
    ) throws(DBusError) -> Bool {
        try callReadingInt32(destination, path, interface, member, arguments, csdbus_read_bool) != 0
    }

    /// Calls a method and reads its reply's one 32-bit value with `read`.
    private func callReadingInt32(
        _ destination: String, _ path: String, _ interface: String, _ member: String, _ arguments: [DBusArgument],
        _ read: (OpaquePointer?, UnsafeMutablePointer<Int32>?) -> Int32
    ) throws(DBusError) -> Int32 {
        let reply = try callForReply(destination, path, interface, member, arguments)
        defer { sd_bus_message_unref(reply) }
        var value: Int32 = 0
        let r = read(reply, &value)
        guard r > 0 else { throw DBusError("read the reply of \(interface).\(member)", errno: r < 0 ? -r : EBADMSG) }
        return value
    }

    /// Whether anyone owns `name` on this bus.
    package func nameHasOwner(_ name: String) throws(DBusError) -> Bool {
        try callReturningBool(
            "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "NameHasOwner", [.string(name)])
    }

    /// Reads a boolean property.
    package func boolProperty(_ destination: String, _ path: String, _ interface: String, _ name: String) throws(DBusError)
        -> Bool
    {
        guard let bus else { throw DBusError("get \(interface).\(name)", errno: ENOTCONN) }
        var error = sd_bus_error()
        defer { sd_bus_error_free(&error) }
        var value: Int32 = 0
        let r = sd_bus_get_property_trivial(bus, destination, path, interface, name, &error, CChar(UInt8(ascii: "b")), &value)
        guard r >= 0 else { throw Self.error("get \(interface).\(name)", r, error) }
        return value != 0
    }

    /// Reads a property of type `(iiii)`, a rectangle: x, y, width, height.
    package func rectProperty(_ destination: String, _ path: String, _ interface: String, _ name: String)
        throws(DBusError) -> (x: Int32, y: Int32, width: Int32, height: Int32)
    {
        guard let bus else { throw DBusError("get \(interface).\(name)", errno: ENOTCONN) }
        var error = sd_bus_error()
        defer { sd_bus_error_free(&error) }
        var value: [Int32] = [0, 0, 0, 0]
        let r = csdbus_get_property_int4(bus, destination, path, interface, name, &error, &value)
        guard r >= 0 else { throw Self.error("get \(interface).\(name)", r, error) }
        return (value[0], value[1], value[2], value[3])
    }

    /// Writes a boolean property (`org.freedesktop.DBus.Properties.Set`).
    package func setBoolProperty(
        _ destination: String, _ path: String, _ interface: String, _ name: String, _ value: Bool
    ) throws(DBusError) {
        let operation = "set \(interface).\(name)"
        let message = try newCall(destination, path, "org.freedesktop.DBus.Properties", "Set")
        defer { sd_bus_message_unref(message) }
        var r = csdbus_append_string(message, interface)
        if r >= 0 { r = csdbus_append_string(message, name) }
        if r >= 0 { r = csdbus_append_variant_bool(message, value ? 1 : 0) }
        guard r >= 0 else { throw DBusError(operation, errno: -r) }
        sd_bus_message_unref(try send(message, operation))
    }

    /// Runs `handler` (from `process()`) for every message matching `rule`, a
    /// D-Bus match rule such as `type='signal',sender='org.kde.KWin'`.
    package func addMatch(_ rule: String, _ handler: @escaping () -> Void) throws(DBusError) {
        guard let bus else { throw DBusError("add match", errno: ENOTCONN) }
        let box = MatchHandler(handler)
        var slot: OpaquePointer?
        let r = sd_bus_add_match(
            bus, &slot, rule,
            { _, userdata, _ in
                guard let userdata else { return 0 }
                Unmanaged<MatchHandler>.fromOpaque(userdata).takeUnretainedValue().run()
                return 0
            }, Unmanaged.passUnretained(box).toOpaque())
        guard r >= 0, let slot else { throw DBusError("add match \(rule)", errno: -r) }
        handlers.append(box)
        slots.append(slot)
    }

    /// Calls a method whose reply is one 32-bit integer.
    package func callReturningInt32(
        _ destination: String, _ path: String, _ interface: String, _ member: String, _ arguments: [DBusArgument] = []
    ) throws(DBusError) -> Int32 {
        try callReadingInt32(destination, path, interface, member, arguments, csdbus_read_int32)
    }

    /// Calls a method whose reply is one string.
    package func callReturningString(
        _ destination: String, _ path: String, _ interface: String, _ member: String, _ arguments: [DBusArgument] = []
    ) throws(DBusError) -> String {
        let reply = try callForReply(destination, path, interface, member, arguments)
        defer { sd_bus_message_unref(reply) }
        var value: UnsafePointer<CChar>?
        let r = csdbus_read_string(reply, &value)
        guard r > 0, let value else {
            throw DBusError("read the reply of \(interface).\(member)", errno: r < 0 ? -r : EBADMSG)
        }
        return String(cString: value)
    }

    /// The unique name (`:1.42`) that owns `name` now.
    package func nameOwner(_ name: String) throws(DBusError) -> String {
        try callReturningString(
            "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "GetNameOwner", [.string(name)])
    }

    /// This connection's own unique name, which a peer calls back at.
    package var uniqueName: String? {
        guard let bus else { return nil }
        var name: UnsafePointer<CChar>?
        guard sd_bus_get_unique_name(bus, &name) >= 0, let name else { return nil }
        return String(cString: name)
    }

    /// Answers method calls to `path` (from `process()`) with `handler`; a
    /// call sd-bus cannot read whole is refused without reaching it.
    package func export(_ path: String, _ handler: @escaping (DBusMethodCall) -> DBusReply) throws(DBusError) {
        guard let bus else { throw DBusError("export \(path)", errno: ENOTCONN) }
        let box = ObjectHandler(handler)
        var slot: OpaquePointer?
        let r = sd_bus_add_object(
            bus, &slot, path,
            { message, userdata, _ in
                guard let message, let userdata else { return 0 }
                let reply: DBusReply
                if let call = DBusMethodCall.read(message) {
                    reply = Unmanaged<ObjectHandler>.fromOpaque(userdata).takeUnretainedValue().run(call)
                } else {
                    reply = .invalidArguments("the arguments could not be read")
                }
                switch reply {
                case .done: _ = csdbus_reply(message, nil, nil)
                case .error(let name, let text): _ = csdbus_reply(message, name, text)
                }
                return 1
            }, Unmanaged.passUnretained(box).toOpaque())
        guard r >= 0, let slot else { throw DBusError("export \(path)", errno: -r) }
        objects.append(box)
        slots.append(slot)
    }

    // MARK: - Private

    private func newCall(_ destination: String, _ path: String, _ interface: String, _ member: String) throws(DBusError)
        -> OpaquePointer
    {
        guard let bus else { throw DBusError("call \(interface).\(member)", errno: ENOTCONN) }
        var message: OpaquePointer?
        let r = sd_bus_message_new_method_call(bus, &message, destination, path, interface, member)
        guard r >= 0, let message else { throw DBusError("call \(interface).\(member)", errno: -r) }
        return message
    }

    private func callForReply(
        _ destination: String, _ path: String, _ interface: String, _ member: String, _ arguments: [DBusArgument]
    ) throws(DBusError) -> OpaquePointer {
        let operation = "call \(interface).\(member)"
        let message = try newCall(destination, path, interface, member)
        defer { sd_bus_message_unref(message) }
        for argument in arguments {
            let r: Int32
            switch argument {
            case .bool(let value): r = csdbus_append_bool(message, value ? 1 : 0)
            case .string(let value): r = csdbus_append_string(message, value)
            case .int32(let value): r = csdbus_append_int32(message, value)
            }
            guard r >= 0 else { throw DBusError(operation, errno: -r) }
        }
        return try send(message, operation)
    }

    private func send(_ message: OpaquePointer, _ operation: String) throws(DBusError) -> OpaquePointer {
        var error = sd_bus_error()
        defer { sd_bus_error_free(&error) }
        var reply: OpaquePointer?
        let r = sd_bus_call(bus, message, callTimeoutMicroseconds, &error, &reply)
        guard r >= 0, let reply else { throw Self.error(operation, r, error) }
        return reply
    }

    private static func error(_ operation: String, _ r: Int32, _ error: sd_bus_error) -> DBusError {
        DBusError(
            operation, errno: r < 0 ? -r : EIO, name: error.name.map { String(cString: $0) },
            message: error.message.map { String(cString: $0) })
    }
}

/// The Swift closure behind one match slot; the connection keeps it alive.
private final class MatchHandler {
    let run: () -> Void
    init(_ run: @escaping () -> Void) { self.run = run }
}

/// The Swift closure behind one exported object; the connection keeps it alive.
private final class ObjectHandler {
    let run: (DBusMethodCall) -> DBusReply
    init(_ run: @escaping (DBusMethodCall) -> DBusReply) { self.run = run }
}
