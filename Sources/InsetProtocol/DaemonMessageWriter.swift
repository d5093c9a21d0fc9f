#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import InsetCore

// Every daemon message's fields, written once: what `DaemonMessageDecoder`
// reads back. Keys are written in Foundation's `.sortedKeys` order (the
// writer checks it in debug builds), so a message always gives the same bytes.

extension DaemonMessage {
    /// The message as one line of JSON, newline included, keys sorted so the same
    /// message always gives the same bytes.
    public func line() -> Data {
        Data(lineBytes())
    }

    /// `line()` as bytes.
    public func lineBytes() -> [UInt8] {
        switch self {
        case .keyboard(let note, let isLocal): Self.keyboardLine(note, addressee: .recipient(isLocal: isLocal))
        case .adjustment(let view, let adjustment): Self.adjustmentLine(view: view, adjustment, traced: nil)
        case .event(let entry): JSONStreamWriter.line(capacity: 384) { entry.write(to: &$0) }
        default: JSONStreamWriter.line { write(to: &$0) }
        }
    }

    /// Who a keyboard notification's line is written for: a client (with its
    /// `isLocal`), or a trace's output stream (the instant, the focus owner,
    /// and `to`: "bridges" or "apps" where only they hear it).
    enum KeyboardAddressee {
        case recipient(isLocal: Bool)
        case trace(at: Instant, focusOwner: ClientID?, to: String?)
    }

    /// The keyboard notification's line.
    static func keyboardLine(_ note: KeyboardNotification, addressee: KeyboardAddressee) -> [UInt8] {
        JSONStreamWriter.line(capacity: 320) {
            $0.field("begin", note.beginFrame)
            $0.fields(of: note.animation)
            $0.field("end", note.endFrame)
            switch addressee {
            case .recipient(let isLocal):
                $0.field("isLocal", isLocal)
                $0.field("phase", note.phase.rawValue)
            case .trace(let at, let focusOwner, let to):
                if let focusOwner { $0.field("focusOwner", focusOwner.rawValue) }
                $0.field("phase", note.phase.rawValue)
                $0.field("t", Int(at.nanoseconds))
                if let to { $0.field("to", to) }
            }
            $0.field("type", "keyboard")
        }
    }

    /// The adjustment's line; a trace's output stream adds the instant and the client.
    static func adjustmentLine(view: String, _ a: ViewAdjustment, traced at: Instant?) -> [UInt8] {
        JSONStreamWriter.line(capacity: 512) {
            $0.field("additionalBottomInset", a.additionalBottomInset)
            $0.field("adjustedContentInset", a.adjustedContentInset)
            $0.field("alwaysBounceVertical", a.alwaysBounceVertical)
            $0.field("animation", object: { $0.fields(of: a.animation) })
            if at != nil { $0.field("client", a.view.client.rawValue) }
            $0.field("contentInset", a.contentInset)
            $0.field("contentOffset", a.contentOffset)
            $0.field("contentSize", a.contentSize)
            $0.field("indicatorInsets", a.indicatorInsets)
            if let at { $0.field("t", Int(at.nanoseconds)) }
            $0.field("type", "adjustment")
            $0.field("view", view)
        }
    }

    /// A pipeline output as a trace's output stream writes it: the message
    /// clients receive, with `t` (the instant in nanoseconds) and who it
    /// concerns: a keyboard notification's `focusOwner` instead of a recipient's
    /// `isLocal`, an adjustment's `client`.
    public static func traceLine(_ output: PipelineOutput, at: Instant) -> [UInt8] {
        switch output {
        case .keyboard(let note): keyboardLine(note, addressee: .trace(at: at, focusOwner: note.focusOwner, to: nil))
        case .bridgeKeyboard(let note): keyboardLine(note, addressee: .trace(at: at, focusOwner: note.focusOwner, to: "bridges"))
        case .appsKeyboard(let note): keyboardLine(note, addressee: .trace(at: at, focusOwner: note.focusOwner, to: "apps"))
        case .adjustment(let adjustment): adjustmentLine(view: adjustment.view.name, adjustment, traced: at)
        }
    }

    /// The fields of the messages not written above.
    private func write(to w: inout JSONStreamWriter) {
        switch self {
        case .welcome(let version, let client, let state, let id):
            w.field("client", client)
            if let id { w.field("id", id) }
            w.field("state", state)
            w.field("type", "welcome")
            w.field("version", version)
        case .device(let event, let device):
            w.field("device", device)
            w.field("event", event)
            w.field("type", "device")
        case .policy(let mode, let tabletMode, let hardwareKeyboard):
            w.field("hardwareKeyboard", hardwareKeyboard)
            w.field("mode", mode.rawValue)
            w.field("tabletMode", tabletMode)
            w.field("type", "policy")
        case .status(let id, let state, let clients, let views):
            w.field("clients", clients)
            if let id { w.field("id", id) }
            w.field("state", state)
            w.field("type", "status")
            w.field("views", views)
        case .devices(let id, let devices):
            w.field("devices", array: devices) { $0.object($1.write) }
            if let id { w.field("id", id) }
            w.field("type", "devices")
        case .ok(let id):
            if let id { w.field("id", id) }
            w.field("type", "ok")
        case .error(let error):
            w.field("code", error.code.rawValue)
            if let id = error.id { w.field("id", id) }
            w.field("message", error.message)
            w.field("type", "error")
        case .bye(let reason):
            w.field("reason", reason)
            w.field("type", "bye")
        case .reloaded(let id, let config, let changed, let restart):
            w.field("changed", changed)
            if let config { w.field("config", config) }
            if let id { w.field("id", id) }
            w.field("restart", restart)
            w.field("type", "reloaded")
        case .focusLost(let view):
            w.field("type", "focusLost")
            w.field("view", view)
        case .placed(let origin):
            w.field("origin", origin)
            w.field("type", "placed")
        case .rotate(let direction):
            w.field("direction", direction.rawValue)
            w.field("type", "rotate")
        case .keyboard, .adjustment, .event:
            preconditionFailure("written by lineBytes()")
        }
    }
}

extension StateSnapshot {
    func write(to w: inout JSONStreamWriter) {
        if let frameSource { w.field("frameSource", frameSource) }
        w.field("hardwareKeyboard", hardwareKeyboard)
        if let keyboard { w.field("keyboard", keyboard.rect) }
        w.field("mode", mode.rawValue)
        w.field("orientation", orientation.rawValue)
        if let oskProblem { w.field("oskProblem", oskProblem) }
        w.field("screen", screen.size)
        w.field("tabletMode", tabletMode)
    }
}

extension WireDevice {
    /// The device's fields; also the body of `insetctl devices --json`'s array.
    func write(to w: inout JSONStreamWriter) {
        w.field("class", self.class)
        if let devnode { w.field("devnode", devnode) }
        w.field("external", external)
        w.field("name", name)
        w.field("reason", reason)
        w.field("syspath", syspath)
        w.field("vendorProduct", vendorProduct)
    }

    /// Devices as one JSON array (no newline), as a `devices` reply carries them.
    public static func jsonArray(_ devices: [WireDevice]) -> [UInt8] {
        var writer = JSONStreamWriter(capacity: 256 * max(1, devices.count))
        writer.array(devices) { $0.object($1.write) }
        return writer.bytes
    }
}

extension JSONStreamWriter {
    package mutating func value(_ rect: Rect) {
        object { $0.field("height", rect.height); $0.field("width", rect.width); $0.field("x", rect.minX); $0.field("y", rect.minY) }
    }

    package mutating func value(_ insets: EdgeInsets) {
        object {
            $0.field("bottom", insets.bottom); $0.field("left", insets.left); $0.field("right", insets.right)
            $0.field("top", insets.top)
        }
    }

    package mutating func value(_ size: Size) { object { $0.field("height", size.height); $0.field("width", size.width) } }
    package mutating func value(_ point: Point) { object { $0.field("x", point.x); $0.field("y", point.y) } }
    package mutating func value(_ device: WireDevice) { object(device.write) }

    mutating func field(_ key: StaticString, _ rect: Rect) { field(key, value: { $0.value(rect) }) }
    mutating func field(_ key: StaticString, _ insets: EdgeInsets) { field(key, value: { $0.value(insets) }) }
    mutating func field(_ key: StaticString, _ size: Size) { field(key, value: { $0.value(size) }) }
    mutating func field(_ key: StaticString, _ point: Point) { field(key, value: { $0.value(point) }) }
    mutating func field(_ key: StaticString, _ id: RequestID) {
        switch id {
        case .number(let number): field(key, number)
        case .string(let string): field(key, string)
        }
    }

    mutating func field(_ key: StaticString, _ state: StateSnapshot) { field(key, object: state.write) }
    mutating func field(_ key: StaticString, _ device: WireDevice) { field(key, object: device.write) }

    /// The animation's own fields, for an object that carries them inline.
    mutating func fields(of animation: Animation) {
        field("curve", animation.curve.rawValue)
        field("duration", animation.duration.seconds)
    }
}
