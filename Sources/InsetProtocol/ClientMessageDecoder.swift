#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import InsetCore

/// Decodes one line into a `ClientRequest`, or a `ProtocolError` that names the
/// offending field, so a client author sees what to fix.
public enum ClientMessageDecoder {
    private struct Envelope: Decodable {
        var type: String?
        var id: RequestID?
    }

    private struct Hello: Decodable { var version: Int?; var versions: [Int]?; var client: String? }
    private struct ViewRef: Decodable { var view: String }
    private struct Focus: Decodable { var view: String; var field: WireRect }
    private struct Scroll: Decodable { var view: String; var rect: WireRect; var margin: Double? }
    private struct Transition: Decodable { var duration: Double; var screen: WireSize? }
    private struct Subscribe: Decodable { var topics: [Topic] }
    private struct Command: Decodable { var command: ControlCommand }
    private struct Policy: Decodable { var mode: KeyboardMode }

    public static let types = [
        "hello", "register", "update", "unregister", "focus", "blur", "scroll", "transition", "dismiss",
        "subscribe", "command", "policy", "status", "devices",
        "reload",
    ]

    public static func decode(_ line: some DataProtocol) throws(ProtocolError) -> ClientRequest {
        let data = Data(line)
        let decoder = JSONDecoder()
        let envelope: Envelope
        do {
            envelope = try decoder.decode(Envelope.self, from: data)
        } catch DecodingError.typeMismatch(_, let context) where context.codingPath.isEmpty {
            throw ProtocolError(.malformedJSON, "a message must be a JSON object")
        } catch DecodingError.valueNotFound(_, let context) where context.codingPath.isEmpty {
            throw ProtocolError(.malformedJSON, "a message must be a JSON object")
        } catch DecodingError.dataCorrupted(let context) {
            throw ProtocolError(.malformedJSON, notValidJSON(context.underlyingError))
        } catch {
            throw ProtocolError(.malformedJSON, notValidJSON(error))
        }
        let id = envelope.id
        guard let type = envelope.type else { throw ProtocolError(.unknownType, "the message has no \"type\"", id: id) }
        func payload<T: Decodable>(_: T.Type) throws(ProtocolError) -> T {
            do { return try decoder.decode(T.self, from: data) } catch DecodingError.dataCorrupted(let context)
            where context.codingPath.isEmpty {
                // The parser checks numbers only when a field asks for one (`1e999`).
                throw ProtocolError(.malformedJSON, notValidJSON(context.underlyingError), id: id)
            } catch {
                throw ProtocolError(.invalidField, describe(error, in: type), id: id)
            }
        }
        let message: ClientMessage
        switch type {
        case "hello":
            let hello = try payload(Hello.self)
            let versions = hello.versions ?? hello.version.map { [$0] } ?? []
            guard !versions.isEmpty else {
                throw ProtocolError(.invalidField, "hello: \"version\" (or \"versions\") is required", id: id)
            }
            message = .hello(versions: versions, client: hello.client)
        case "register": message = .register(try payload(WireView.self))
        case "update": message = .update(try payload(WireView.self))
        case "unregister": message = .unregister(view: try payload(ViewRef.self).view)
        case "blur": message = .blur(view: try payload(ViewRef.self).view)
        case "dismiss": message = .dismiss(view: try payload(ViewRef.self).view)
        case "focus":
            let focus = try payload(Focus.self)
            message = .focus(view: focus.view, field: focus.field.rect)
        case "scroll":
            let scroll = try payload(Scroll.self)
            message = .scroll(view: scroll.view, rect: scroll.rect.rect, margin: scroll.margin)
        case "transition":
            let transition = try payload(Transition.self)
            guard transition.duration >= 0, transition.duration <= 10 else {
                throw ProtocolError(.invalidField, "transition: \"duration\" must be 0 to 10 seconds", id: id)
            }
            message = .transition(duration: transition.duration, screen: transition.screen?.size)
        case "subscribe": message = .subscribe(topics: try payload(Subscribe.self).topics)
        case "command": message = .command(try payload(Command.self).command)
        case "policy": message = .policy(mode: try payload(Policy.self).mode)
        case "status": message = .status
        case "devices": message = .devices
        case "reload": message = .reload
        default:
            throw ProtocolError(.unknownType, "unknown type \"\(type)\" (known: \(types.joined(separator: ", ")))", id: id)
        }
        return ClientRequest(id: id, message: message)
    }

    /// "not valid JSON", with the parser's own words when it gives any (Foundation's
    /// parser does, FoundationEssentials' alone does not).
    private static func notValidJSON(_ cause: (any Error)?) -> String {
        cause.map { "not valid JSON: \($0)" } ?? "not valid JSON"
    }

    /// "register: field \"frame.width\": expected a number" and the like.
    package static func describe(_ error: any Error, in type: String) -> String {
        guard let error = error as? DecodingError else { return "\(type): \(error)" }
        func path(_ context: DecodingError.Context, _ last: CodingKey? = nil) -> String {
            let keys = context.codingPath + (last.map { [$0] } ?? [])
            return keys.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
        }
        switch error {
        case .keyNotFound(let key, let context):
            return "\(type): field \"\(path(context, key))\" is required"
        case .typeMismatch(let expected, let context):
            return "\(type): field \"\(path(context))\": expected \(readable(expected))"
        case .valueNotFound(let expected, let context):
            return "\(type): field \"\(path(context))\": expected \(readable(expected)), got null"
        case .dataCorrupted(let context):
            return "\(type): field \"\(path(context))\": \(context.debugDescription)"
        @unknown default:
            return "\(type): \(error)"
        }
    }

    private static func readable(_ type: Any.Type) -> String {
        switch type {
        case is Double.Type, is Int.Type, is Int64.Type: "a number"
        case is Bool.Type: "true or false"
        case is String.Type: "a string"
        default: "an object or array of the right shape"
        }
    }
}
