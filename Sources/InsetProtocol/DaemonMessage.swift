#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import InsetCore

/// The daemon's state as a client sees it on connecting.
public struct StateSnapshot: Codable, Hashable, Sendable {
    /// Where the keyboard is; absent when hidden.
    public var keyboard: WireRect?
    public var screen: WireSize
    public var orientation: Orientation
    public var mode: KeyboardMode
    public var tabletMode: Bool
    public var hardwareKeyboard: Bool
    /// Where the keyboard's frame comes from: `configured`, or `reported by BRIDGE`
    /// when an OSK bridge reported the real keyboard's frame. Absent from older daemons.
    public var frameSource: String?
    /// Why the real keyboard is not on the screen, as an OSK bridge reported it
    /// (it would not show; a full-screen window covers it). Absent: no problem known.
    public var oskProblem: String?

    public init(
        keyboard: Rect?, screen: Size, mode: KeyboardMode, tabletMode: Bool, hardwareKeyboard: Bool
    ) {
        self.keyboard = keyboard.map(WireRect.init)
        self.screen = WireSize(screen)
        self.orientation = Orientation(screen: screen)
        self.mode = mode
        self.tabletMode = tabletMode
        self.hardwareKeyboard = hardwareKeyboard
    }
}

/// One input device as `insetctl devices` lists it.
public struct WireDevice: Codable, Hashable, Sendable {
    public var name: String
    public var devnode: String?
    /// `keyboard-internal`, `keyboard-external`, `tablet-switch`, `hotkeys`, `ignored`.
    public var `class`: String
    public var external: Bool
    public var reason: String
    public var vendorProduct: String
    public var syspath: String

    public init(
        name: String, devnode: String?, class: String, external: Bool, reason: String, vendorProduct: String,
        syspath: String
    ) {
        self.name = name
        self.devnode = devnode
        self.class = `class`
        self.external = external
        self.reason = reason
        self.vendorProduct = vendorProduct
        self.syspath = syspath
    }
}

/// Everything the daemon sends. Encoded as one JSON object per line with a `type`.
public enum DaemonMessage: Hashable, Sendable {
    /// The answer to `hello`, echoing its `id`.
    case welcome(version: Int, client: String, state: StateSnapshot, id: RequestID? = nil)
    /// A keyboard lifecycle notification, with `isLocal` for this recipient.
    case keyboard(KeyboardNotification, isLocal: Bool)
    /// A view's complete adjusted state (`view` is the client's own view name).
    case adjustment(view: String, ViewAdjustment)
    case device(event: String, WireDevice)
    case policy(mode: KeyboardMode, tabletMode: Bool, hardwareKeyboard: Bool)
    case status(id: RequestID?, state: StateSnapshot, clients: Int, views: Int)
    case devices(id: RequestID?, [WireDevice])
    case ok(id: RequestID?)
    case error(ProtocolError)
    /// The daemon is going away (`shutdown`) or dropping this client.
    case bye(reason: String)
    /// The answer to `reload`: the file read (nil, no `config`: built-in defaults), the keys
    /// whose new values apply now, and those that take effect after a restart.
    case reloaded(id: RequestID?, config: String?, changed: [String], restart: [String])
    /// Another client's field took the focus from this client's `view`.
    case focusLost(view: String)
    /// Someone asked to rotate the screen (hotkey or command); for `rotation`
    /// subscribers.
    case rotate(direction: RotationDirection)

    /// The message as one line of JSON, newline included, keys sorted so the same
    /// message always gives the same bytes.
    public func line() -> Data {
        Data(lineBytes())
    }

    /// `line()` as bytes. The two messages a keyboard change sends every client
    /// are written without a value tree (`JSONStreamWriter`); the same bytes.
    public func lineBytes() -> [UInt8] {
        switch self {
        case .keyboard(let note, let isLocal): Self.keyboardLine(note, isLocal: isLocal)
        case .adjustment(let view, let adjustment): Self.adjustmentLine(view: view, adjustment)
        default: jsonLineBytes(jsonFields())
        }
    }

    /// The message as a JSON object (what `line()` writes), for writers that add
    /// fields of their own, such as a trace's output stream.
    public func jsonFields() -> JSONObject {
        var object: JSONObject
        switch self {
        case .welcome(let version, let client, let state, let id):
            object = ["type": "welcome", "version": .integer(version), "client": .string(client), "state": state.json]
            if let id { object["id"] = id.json }
        case .keyboard(let note, let isLocal):
            object = [
                "type": "keyboard", "phase": .string(note.phase.rawValue), "begin": WireRect(note.beginFrame).json,
                "end": WireRect(note.endFrame).json, "duration": .number(note.animation.duration.seconds),
                "curve": .string(note.animation.curve.rawValue), "isLocal": .bool(isLocal),
            ]
        case .adjustment(let view, let a):
            object = [
                "type": "adjustment", "view": .string(view), "additionalBottomInset": .number(a.additionalBottomInset),
                "contentInset": WireInsets(a.contentInset).json, "indicatorInsets": WireInsets(a.indicatorInsets).json,
                "adjustedContentInset": WireInsets(a.adjustedContentInset).json,
                "contentSize": WireSize(a.contentSize).json, "contentOffset": WirePoint(a.contentOffset).json,
                "alwaysBounceVertical": .bool(a.alwaysBounceVertical), "animation": WireAnimation(a.animation).json,
            ]
        case .device(let event, let device):
            object = ["type": "device", "event": .string(event), "device": device.json]
        case .policy(let mode, let tabletMode, let hardwareKeyboard):
            object = [
                "type": "policy", "mode": .string(mode.rawValue), "tabletMode": .bool(tabletMode),
                "hardwareKeyboard": .bool(hardwareKeyboard),
            ]
        case .status(let id, let state, let clients, let views):
            object = ["type": "status", "state": state.json, "clients": .integer(clients), "views": .integer(views)]
            if let id { object["id"] = id.json }
        case .devices(let id, let devices):
            object = ["type": "devices", "devices": .array(devices.map(\.json))]
            if let id { object["id"] = id.json }
        case .ok(let id):
            object = ["type": "ok"]
            if let id { object["id"] = id.json }
        case .error(let error):
            object = ["type": "error", "code": .string(error.code.rawValue), "message": .string(error.message)]
            if let id = error.id { object["id"] = id.json }
        case .bye(let reason):
            object = ["type": "bye", "reason": .string(reason)]
        case .reloaded(let id, let config, let changed, let restart):
            object = [
                "type": "reloaded", "changed": .array(changed.map(JSONValue.string)),
                "restart": .array(restart.map(JSONValue.string)),
            ]
            if let config { object["config"] = .string(config) }
            if let id { object["id"] = id.json }
        case .focusLost(let view):
            object = ["type": "focusLost", "view": .string(view)]
        case .rotate(let direction):
            object = ["type": "rotate", "direction": .string(direction.rawValue)]
        }
        return object
    }
}

extension StateSnapshot {
    var json: JSONValue {
        var fields: JSONObject = [
            "screen": screen.json, "orientation": .string(orientation.rawValue), "mode": .string(mode.rawValue),
            "tabletMode": .bool(tabletMode), "hardwareKeyboard": .bool(hardwareKeyboard),
        ]
        if let keyboard { fields["keyboard"] = keyboard.json }
        if let frameSource { fields["frameSource"] = .string(frameSource) }
        if let oskProblem { fields["oskProblem"] = .string(oskProblem) }
        return .object(fields)
    }
}

extension WireDevice {
    var json: JSONValue {
        var fields: JSONObject = [
            "name": .string(name), "class": .string(self.class), "external": .bool(external), "reason": .string(reason),
            "vendorProduct": .string(vendorProduct), "syspath": .string(syspath),
        ]
        if let devnode { fields["devnode"] = .string(devnode) }
        return .object(fields)
    }
}

extension RequestID {
    var json: JSONValue {
        switch self {
        case .number(let number): .integer(number)
        case .string(let string): .string(string)
        }
    }
}
