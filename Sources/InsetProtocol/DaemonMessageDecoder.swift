import Foundation
import InsetCore

/// Decodes the daemon's lines on the client side: the inverse of
/// `DaemonMessage.line()`. Adjustments come back with the receiving client's id.
public enum DaemonMessageDecoder {
    public static func decode(_ line: some DataProtocol, client: ClientID) throws(ProtocolError) -> DaemonMessage {
        let data = Data(line)
        guard let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any],
            let type = object["type"] as? String
        else { throw ProtocolError(.malformedJSON, "not a message object") }
        func field<T: Decodable>(_ key: String, as _: T.Type) throws(ProtocolError) -> T {
            guard let value = object[key],
                let json = try? JSONSerialization.data(withJSONObject: value, options: [.fragmentsAllowed]),
                let decoded = try? JSONDecoder().decode(T.self, from: json)
            else { throw ProtocolError(.invalidField, "\(type): field \"\(key)\" is missing or malformed") }
            return decoded
        }
        let id: RequestID? = object["id"] == nil ? nil : try field("id", as: RequestID.self)
        switch type {
        case "welcome":
            return .welcome(
                version: try field("version", as: Int.self), client: try field("client", as: String.self),
                state: try field("state", as: StateSnapshot.self))
        case "keyboard":
            let note = KeyboardNotification(
                phase: try field("phase", as: KeyboardPhase.self), beginFrame: try field("begin", as: WireRect.self).rect,
                endFrame: try field("end", as: WireRect.self).rect,
                animation: Animation(
                    duration: .fromSeconds(try field("duration", as: Double.self)),
                    curve: try field("curve", as: AnimationCurve.self)),
                focusOwner: nil)
            return .keyboard(note, isLocal: try field("isLocal", as: Bool.self))
        case "adjustment":
            let view = try field("view", as: String.self)
            let animation = try field("animation", as: WireAnimation.self)
            return .adjustment(
                view: view,
                ViewAdjustment(
                    view: ViewID(client: client, name: view),
                    additionalBottomInset: try field("additionalBottomInset", as: Double.self),
                    contentInset: try field("contentInset", as: WireInsets.self).insets,
                    indicatorInsets: try field("indicatorInsets", as: WireInsets.self).insets,
                    adjustedContentInset: try field("adjustedContentInset", as: WireInsets.self).insets,
                    contentSize: try field("contentSize", as: WireSize.self).size,
                    contentOffset: try field("contentOffset", as: WirePoint.self).point,
                    alwaysBounceVertical: try field("alwaysBounceVertical", as: Bool.self),
                    animation: Animation(duration: .fromSeconds(animation.duration), curve: animation.curve)))
        case "device":
            return .device(event: try field("event", as: String.self), try field("device", as: WireDevice.self))
        case "policy":
            return .policy(
                mode: try field("mode", as: KeyboardMode.self), tabletMode: try field("tabletMode", as: Bool.self),
                hardwareKeyboard: try field("hardwareKeyboard", as: Bool.self))
        case "status":
            return .status(
                id: id, state: try field("state", as: StateSnapshot.self), clients: try field("clients", as: Int.self),
                views: try field("views", as: Int.self))
        case "devices": return .devices(id: id, try field("devices", as: [WireDevice].self))
        case "ok": return .ok(id: id)
        case "error":
            return .error(
                ProtocolError(try field("code", as: ErrorCode.self), try field("message", as: String.self), id: id))
        case "bye": return .bye(reason: try field("reason", as: String.self))
        default: throw ProtocolError(.unknownType, "unknown daemon message \"\(type)\"")
        }
    }
}
