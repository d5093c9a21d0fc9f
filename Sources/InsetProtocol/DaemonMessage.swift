import Foundation
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
    case welcome(version: Int, client: String, state: StateSnapshot)
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

    /// The message as one line of JSON, newline included, keys sorted so the same
    /// message always gives the same bytes.
    public func line() -> Data {
        jsonLine(jsonFields())
    }

    /// The message as a JSON object (what `line()` writes), for writers that add
    /// fields of their own, such as a trace's output stream.
    public func jsonFields() -> [String: Any] {
        var object: [String: Any]
        switch self {
        case .welcome(let version, let client, let state):
            object = ["type": "welcome", "version": version, "client": client, "state": jsonObject(state)]
        case .keyboard(let note, let isLocal):
            object = [
                "type": "keyboard", "phase": note.phase.rawValue, "begin": jsonObject(WireRect(note.beginFrame)),
                "end": jsonObject(WireRect(note.endFrame)), "duration": note.animation.duration.seconds,
                "curve": note.animation.curve.rawValue, "isLocal": isLocal,
            ]
        case .adjustment(let view, let a):
            object = [
                "type": "adjustment", "view": view, "additionalBottomInset": a.additionalBottomInset,
                "contentInset": jsonObject(WireInsets(a.contentInset)),
                "indicatorInsets": jsonObject(WireInsets(a.indicatorInsets)),
                "adjustedContentInset": jsonObject(WireInsets(a.adjustedContentInset)),
                "contentSize": jsonObject(WireSize(a.contentSize)), "contentOffset": jsonObject(WirePoint(a.contentOffset)),
                "alwaysBounceVertical": a.alwaysBounceVertical, "animation": jsonObject(WireAnimation(a.animation)),
            ]
        case .device(let event, let device):
            object = ["type": "device", "event": event, "device": jsonObject(device)]
        case .policy(let mode, let tabletMode, let hardwareKeyboard):
            object = ["type": "policy", "mode": mode.rawValue, "tabletMode": tabletMode, "hardwareKeyboard": hardwareKeyboard]
        case .status(let id, let state, let clients, let views):
            object = ["type": "status", "state": jsonObject(state), "clients": clients, "views": views]
            if let id { object["id"] = jsonObject(id) }
        case .devices(let id, let devices):
            object = ["type": "devices", "devices": devices.map(jsonObject)]
            if let id { object["id"] = jsonObject(id) }
        case .ok(let id):
            object = ["type": "ok"]
            if let id { object["id"] = jsonObject(id) }
        case .error(let error):
            object = ["type": "error", "code": error.code.rawValue, "message": error.message]
            if let id = error.id { object["id"] = jsonObject(id) }
        case .bye(let reason):
            object = ["type": "bye", "reason": reason]
        }
        return object
    }
}

/// One JSON object as one line, newline included, keys sorted so the same
/// object always gives the same bytes.
public func jsonLine(_ object: [String: Any]) -> Data {
    var data = try! JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
    data.append(UInt8(ascii: "\n"))
    return data
}

private func jsonObject(_ value: some Encodable) -> Any {
    let data = try! JSONEncoder().encode(value)
    return try! JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
}
