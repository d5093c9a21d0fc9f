#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import InsetCore

/// Decodes one line into a `ClientRequest`, or a `ProtocolError` that names the
/// offending field, so a client author sees what to fix.
public enum ClientMessageDecoder {
    /// `type` and `id`, read leniently so a wrong kind of value in either is
    /// answered with its own code (`unknown-type`, `invalid-field`) rather than
    /// as malformed JSON.
    private struct Envelope: Decodable {
        enum Kind { case missing, string(String), notAString }
        var type: Kind
        var id: RequestID?
        var idIsInvalid = false

        enum CodingKeys: String, CodingKey { case type, id }

        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            if try !c.contains(.type) || c.decodeNil(forKey: .type) {
                type = .missing
            } else if let string = try? c.decode(String.self, forKey: .type) {
                type = .string(string)
            } else {
                type = .notAString
            }
            if c.contains(.id), !(try c.decodeNil(forKey: .id)) {
                id = try? c.decode(RequestID.self, forKey: .id)
                idIsInvalid = id == nil
            }
        }
    }

    private struct Hello: Decodable { var version: Int?; var versions: [Int]?; var client: String? }
    private struct ViewRef: Decodable {
        var view: String
        enum CodingKeys: String, CodingKey { case view }
        init(from decoder: any Decoder) throws {
            view = try decoder.container(keyedBy: CodingKeys.self).viewName(.view)
        }
    }
    private struct Focus: Decodable {
        var view: String
        var field: WireRect
        enum CodingKeys: String, CodingKey { case view, field }
        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            view = try c.viewName(.view)
            field = try c.decode(WireRect.self, forKey: .field)
        }
    }
    private struct Scroll: Decodable {
        var view: String
        var rect: WireRect
        var margin: Double?
        enum CodingKeys: String, CodingKey { case view, rect, margin }
        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            view = try c.viewName(.view)
            rect = try c.decode(WireRect.self, forKey: .rect)
            margin = try c.coordinateIfPresent(.margin)
        }
    }
    private struct Transition: Decodable {
        var duration: Double
        var screen: WireSize?
        enum CodingKeys: String, CodingKey { case duration, screen }
        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            duration = try c.decode(Double.self, forKey: .duration)
            screen = try c.decodeIfPresent(WireSize.self, forKey: .screen)
            if let screen, screen.width == 0 || screen.height == 0 {
                throw DecodingError.dataCorruptedError(
                    forKey: .screen, in: c, debugDescription: "a screen must be wider and taller than 0")
            }
        }
    }
    private struct Window: Decodable {
        var frame: WireRect
        var toplevel: WireSize?
    }
    private struct FocusedWindow: Decodable { var bridge: String; var frame: WireRect? }
    private struct Subscribe: Decodable { var topics: [Topic] }
    private struct Command: Decodable { var command: ControlCommand }
    private struct Policy: Decodable { var mode: KeyboardMode }
    private struct OSKVisibility: Decodable { var bridge: String; var visible: Bool }
    private struct OSKFrame: Decodable { var bridge: String; var frame: WireRect? }
    private struct OSKAnimation: Decodable { var bridge: String; var animation: WireAnimation? }
    private struct OSKProblem: Decodable { var bridge: String; var problem: String? }
    private struct OSKRunning: Decodable { var bridge: String; var running: Bool }

    public static let types = [
        "hello", "register", "update", "unregister", "focus", "blur", "scroll", "transition", "dismiss",
        "subscribe", "command", "policy", "status", "devices",
        "window",
        "oskVisibility", "oskFrame", "oskAnimation", "oskProblem", "oskRunning", "focusedWindow",
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
        let type: String
        switch envelope.type {
        case .missing: throw ProtocolError(.unknownType, "the message has no \"type\"", id: id)
        case .notAString: throw ProtocolError(.unknownType, "\"type\" must be a string, such as \"hello\"", id: id)
        case .string(let string): type = string
        }
        guard !envelope.idIsInvalid else {
            throw ProtocolError(.invalidField, "\(type): field \"id\": expected an integer or a string")
        }
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
        case "window":
            let window = try payload(Window.self)
            let frame = window.frame.rect
            guard frame.width > 0, frame.height > 0 else {
                throw ProtocolError(.invalidField, "window: \"frame\" must be wider and taller than 0", id: id)
            }
            if let toplevel = window.toplevel?.size, !(toplevel.width > 0 && toplevel.height > 0) {
                throw ProtocolError(.invalidField, "window: \"toplevel\" must be wider and taller than 0", id: id)
            }
            message = .window(frame: frame, toplevel: window.toplevel?.size)
        case "subscribe": message = .subscribe(topics: try payload(Subscribe.self).topics)
        case "command": message = .command(try payload(Command.self).command)
        case "policy": message = .policy(mode: try payload(Policy.self).mode)
        case "status": message = .status
        case "devices": message = .devices
        case "oskVisibility":
            let report = try payload(OSKVisibility.self)
            message = .oskVisibility(bridge: try bridgeName(report.bridge, id: id), visible: report.visible)
        case "oskRunning":
            let report = try payload(OSKRunning.self)
            message = .oskRunning(bridge: try bridgeName(report.bridge, id: id), running: report.running)
        case "oskFrame":
            let report = try payload(OSKFrame.self)
            let bridge = try bridgeName(report.bridge, id: id)
            if let frame = report.frame?.rect, !(frame.width > 0 && frame.height > 0 && frame.width.isFinite && frame.height.isFinite) {
                throw ProtocolError(.invalidField, "oskFrame: \"frame\" must have a positive width and height, or be null", id: id)
            }
            message = .oskFrame(bridge: bridge, frame: report.frame?.rect)
        case "focusedWindow":
            let report = try payload(FocusedWindow.self)
            let bridge = try bridgeName(report.bridge, id: id)
            if let frame = report.frame?.rect, !(frame.width > 0 && frame.height > 0) {
                throw ProtocolError(.invalidField, "focusedWindow: \"frame\" must be wider and taller than 0, or be null", id: id)
            }
            message = .focusedWindow(bridge: bridge, frame: report.frame?.rect)
        case "oskAnimation":
            let report = try payload(OSKAnimation.self)
            let bridge = try bridgeName(report.bridge, id: id)
            // The bounds of the configured keyboard.animation-ms.
            if let animation = report.animation, !(animation.duration >= 0 && animation.duration <= 5) {
                throw ProtocolError(.invalidField, "oskAnimation: \"animation.duration\" must be 0 to 5 seconds", id: id)
            }
            message = .oskAnimation(
                bridge: bridge,
                animation: report.animation.map { Animation(duration: .fromSeconds($0.duration), curve: $0.curve) })
        case "oskProblem":
            let report = try payload(OSKProblem.self)
            let bridge = try bridgeName(report.bridge, id: id)
            // Shown by `insetctl status` and `events` as it is: one short line of plain text.
            if let problem = report.problem,
                problem.isEmpty || problem.unicodeScalars.count > 256
                    || !problem.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value < 0x7f })
            {
                throw ProtocolError(
                    .invalidField, "oskProblem: \"problem\" must be 1 to 256 printable ASCII characters, or null", id: id)
            }
            message = .oskProblem(bridge: bridge, problem: report.problem)
        case "reload": message = .reload
        default:
            throw ProtocolError(.unknownType, "unknown type \"\(type)\" (known: \(types.joined(separator: ", ")))", id: id)
        }
        return ClientRequest(id: id, message: message)
    }

    /// A bridge names itself in `insetctl status`: a short printable name.
    private static func bridgeName(_ name: String, id: RequestID?) throws(ProtocolError) -> String {
        guard !name.isEmpty, name.count <= 64, name.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7f }) else {
            throw ProtocolError(.invalidField, "\"bridge\" must be 1 to 64 printable ASCII characters without spaces", id: id)
        }
        return name
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
            // "frame.width", "topics[0]": as a JavaScript author would write it.
            var text = ""
            for key in keys {
                if let index = key.intValue { text += "[\(index)]" } else { text += (text.isEmpty ? "" : ".") + key.stringValue }
            }
            return text
        }
        switch error {
        case .keyNotFound(let key, let context):
            return "\(type): field \"\(path(context, key))\" is required"
        case .typeMismatch(let expected, let context):
            return "\(type): field \"\(path(context))\": expected \(readable(expected))"
        case .valueNotFound(let expected, let context):
            return "\(type): field \"\(path(context))\": expected \(readable(expected)), got null"
        case .dataCorrupted(let context):
            // Swift's words for a string outside an enumeration name the Swift type:
            // say which values are allowed instead.
            guard context.debugDescription.hasPrefix("Cannot initialize") else {
                return "\(type): field \"\(path(context))\": \(context.debugDescription)"
            }
            let allowed = context.codingPath.last(where: { $0.intValue == nil }).flatMap { allowedValues[$0.stringValue] }
            return "\(type): field \"\(path(context))\": must be one of \(allowed?.joined(separator: ", ") ?? "the documented values")"
        @unknown default:
            return "\(type): \(error)"
        }
    }

    /// The values each enumerated field takes, for errors.
    private static let allowedValues: [String: [String]] = [
        "behavior": KeyboardAdjustmentBehavior.allCases.map(\.rawValue),
        "keyboardDismissMode": KeyboardDismissMode.allCases.map(\.rawValue),
        "topics": Topic.allCases.map(\.rawValue),
        "command": ControlCommand.allCases.map(\.rawValue),
        "mode": KeyboardMode.allCases.map(\.rawValue),
        "curve": AnimationCurve.allCases.map(\.rawValue),
    ]

    private static func readable(_ type: Any.Type) -> String {
        switch type {
        case is Double.Type, is Int.Type, is Int64.Type: "a number"
        case is Bool.Type: "true or false"
        case is String.Type: "a string"
        default:
            // JSONDecoder names the container it wanted: a dictionary or an array.
            "\(type)".hasPrefix("Array") ? "a list" : "\(type)".hasPrefix("Dictionary") ? "an object" : "a value of another kind"
        }
    }
}
