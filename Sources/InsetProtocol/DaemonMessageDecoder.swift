#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import InsetCore

/// Decodes the daemon's lines on the client side: the inverse of
/// `DaemonMessage.line()`, and the one reader of them in the project (the Swift
/// client, insetd-osk, insetctl, the testbed and the tests). Adjustments come
/// back with the receiving client's id.
public enum DaemonMessageDecoder {
    public static func decode(_ line: some DataProtocol, client: ClientID) throws(ProtocolError) -> DaemonMessage {
        let decoder = JSONDecoder()
        decoder.userInfo[DecodedMessage.clientKey] = client
        decoder.userInfo[unboundedCoordinatesKey] = true
        do {
            return try decoder.decode(DecodedMessage.self, from: Data(line)).message
        } catch let error as ProtocolError {
            throw error
        } catch {
            throw ProtocolError(.malformedJSON, "not a message object")
        }
    }
}

/// One pass over the line: the type first, then that type's fields, each
/// missing or malformed one named in the error.
private struct DecodedMessage: Decodable {
    static let clientKey = CodingUserInfoKey(rawValue: "insetd.client")!

    struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    let message: DaemonMessage

    /// A decoding error as "field \"cause.kind\" ...", naming where it is.
    static func describe(_ error: any Error) -> String {
        switch error {
        case DecodingError.keyNotFound(let key, let context):
            "field \"\((context.codingPath + [key]).map(\.stringValue).joined(separator: "."))\" is missing"
        case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context),
            DecodingError.dataCorrupted(let context):
            "field \"\(context.codingPath.map(\.stringValue).joined(separator: "."))\" is malformed: \(context.debugDescription)"
        default: "malformed"
        }
    }

    init(from decoder: any Decoder) throws {
        let object = try decoder.container(keyedBy: Key.self)
        let type = try object.decode(String.self, forKey: Key(stringValue: "type"))
        func field<T: Decodable>(_ key: String, as _: T.Type) throws(ProtocolError) -> T {
            do { return try object.decode(T.self, forKey: Key(stringValue: key)) } catch {
                throw ProtocolError(.invalidField, "\(type): field \"\(key)\" is missing or malformed")
            }
        }
        let id: RequestID? = object.contains(Key(stringValue: "id")) ? try field("id", as: RequestID.self) : nil
        switch type {
        case "welcome":
            message = .welcome(
                version: try field("version", as: Int.self), client: try field("client", as: String.self),
                state: try field("state", as: StateSnapshot.self), id: id)
        case "keyboard":
            let note = KeyboardNotification(
                phase: try field("phase", as: KeyboardPhase.self), beginFrame: try field("begin", as: WireRect.self).rect,
                endFrame: try field("end", as: WireRect.self).rect,
                animation: Animation(
                    duration: .fromSeconds(try field("duration", as: Double.self)),
                    curve: try field("curve", as: AnimationCurve.self)),
                focusOwner: nil)
            message = .keyboard(note, isLocal: try field("isLocal", as: Bool.self))
        case "adjustment":
            guard let client = decoder.userInfo[Self.clientKey] as? ClientID else {
                preconditionFailure("DaemonMessageDecoder sets the receiving client")
            }
            let view = try field("view", as: String.self)
            let animation = try field("animation", as: WireAnimation.self)
            message = .adjustment(
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
            message = .device(event: try field("event", as: String.self), try field("device", as: WireDevice.self))
        case "policy":
            message = .policy(
                mode: try field("mode", as: KeyboardMode.self), tabletMode: try field("tabletMode", as: Bool.self),
                hardwareKeyboard: try field("hardwareKeyboard", as: Bool.self))
        case "status":
            message = .status(
                id: id, state: try field("state", as: StateSnapshot.self), clients: try field("clients", as: Int.self),
                views: try field("views", as: Int.self))
        case "devices": message = .devices(id: id, try field("devices", as: [WireDevice].self))
        case "ok": message = .ok(id: id)
        case "error":
            message = .error(
                ProtocolError(try field("code", as: ErrorCode.self), try field("message", as: String.self), id: id))
        case "bye": message = .bye(reason: try field("reason", as: String.self))
        case "reloaded":
            message = .reloaded(
                id: id, config: object.contains(Key(stringValue: "config")) ? try field("config", as: String.self) : nil,
                changed: try field("changed", as: [String].self), restart: try field("restart", as: [String].self))
        case "focusLost": message = .focusLost(view: try field("view", as: String.self))
        case "placed": message = .placed(origin: try field("origin", as: WirePoint.self).point)
        case "rotate": message = .rotate(direction: try field("direction", as: RotationDirection.self))
        case "event":
            do { message = .event(try TimelineEntry(from: decoder)) } catch {
                throw ProtocolError(.invalidField, "event: \(Self.describe(error))")
            }
        default: throw ProtocolError(.unknownType, "unknown daemon message \"\(type)\"")
        }
    }
}
