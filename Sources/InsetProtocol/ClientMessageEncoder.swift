#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import InsetCore

/// The client side of the wire, beside `ClientMessageDecoder`: every client
/// (InsetClient, insetctl, the tests) writes its requests from these typed
/// messages, through the same JSON writer the daemon uses, so what clients send
/// and what the daemon reads are defined in one place. `decode(line())` gives
/// back the same request (the tests check it on every message kind).
extension ClientRequest {
    /// The request as one line of JSON, newline included.
    public func line() -> Data { Data(lineBytes()) }

    /// `line()` as bytes.
    public func lineBytes() -> [UInt8] {
        var fields = message.jsonFields()
        if let id { fields["id"] = id.json }
        return jsonLineBytes(fields)
    }
}

extension ClientMessage {
    /// The request without an id, as one line of JSON.
    public func line() -> Data { ClientRequest(message: self).line() }

    /// The message as the JSON object `line()` writes.
    public func jsonFields() -> JSONObject {
        switch self {
        case .hello(let versions, let client):
            var object: JSONObject = ["type": "hello"]
            if versions.count == 1 { object["version"] = .integer(versions[0]) } else {
                object["versions"] = .array(versions.map(JSONValue.integer))
            }
            if let client { object["client"] = .string(client) }
            return object
        case .register(let view): return view.jsonFields(type: "register")
        case .update(let view): return view.jsonFields(type: "update")
        case .unregister(let view): return ["type": "unregister", "view": .string(view)]
        case .focus(let view, let field): return ["type": "focus", "view": .string(view), "field": WireRect(field).json]
        case .blur(let view): return ["type": "blur", "view": .string(view)]
        case .scroll(let view, let rect, let margin):
            var object: JSONObject = ["type": "scroll", "view": .string(view), "rect": WireRect(rect).json]
            if let margin { object["margin"] = .number(margin) }
            return object
        case .transition(let duration, let screen):
            var object: JSONObject = ["type": "transition", "duration": .number(duration)]
            if let screen { object["screen"] = WireSize(screen).json }
            return object
        case .dismiss(let view): return ["type": "dismiss", "view": .string(view)]
        case .window(let frame, let toplevel):
            var object: JSONObject = ["type": "window", "frame": WireRect(frame).json]
            if let toplevel { object["toplevel"] = WireSize(toplevel).json }
            return object
        case .subscribe(let topics): return ["type": "subscribe", "topics": .array(topics.map { .string($0.rawValue) })]
        case .command(let command): return ["type": "command", "command": .string(command.rawValue)]
        case .policy(let mode): return ["type": "policy", "mode": .string(mode.rawValue)]
        case .status: return ["type": "status"]
        case .devices: return ["type": "devices"]
        case .oskVisibility(let bridge, let visible):
            return ["type": "oskVisibility", "bridge": .string(bridge), "visible": .bool(visible)]
        case .oskRunning(let bridge, let running):
            return ["type": "oskRunning", "bridge": .string(bridge), "running": .bool(running)]
        case .oskFrame(let bridge, let frame):
            // No frame: back to the configured heights (an absent frame says so).
            var object: JSONObject = ["type": "oskFrame", "bridge": .string(bridge)]
            if let frame { object["frame"] = WireRect(frame).json }
            return object
        case .oskAnimation(let bridge, let animation):
            // Not known: an absent `animation` says so, as null would.
            var object: JSONObject = ["type": "oskAnimation", "bridge": .string(bridge)]
            if let animation {
                object["animation"] = .object(["duration": .number(animation.duration.seconds), "curve": .string(animation.curve.rawValue)])
            }
            return object
        case .oskProblem(let bridge, let problem):
            // No problem: an absent `problem` says so, as null would.
            var object: JSONObject = ["type": "oskProblem", "bridge": .string(bridge)]
            if let problem { object["problem"] = .string(problem) }
            return object
        case .focusedWindow(let bridge, let frame):
            // No window: an absent `frame` says so, as null would.
            var object: JSONObject = ["type": "focusedWindow", "bridge": .string(bridge)]
            if let frame { object["frame"] = WireRect(frame).json }
            return object
        case .reload: return ["type": "reload"]
        }
    }
}

extension WireView {
    /// As `register` or `update` carries it.
    func jsonFields(type: String) -> JSONObject {
        var fields = jsonFields()
        fields["type"] = .string(type)
        return fields
    }

    /// Every field of the description, so an `update` replaces it whole; also
    /// how a trace records a view.
    public func jsonFields() -> JSONObject {
        let d = description
        return [
            "view": .string(view), "frame": WireRect(d.frame).json,
            "safeArea": WireInsets(d.safeAreaInsets).json, "additionalBottomInset": .number(d.additionalBottomInset),
            "contentInset": WireInsets(d.contentInset).json, "indicatorInsets": WireInsets(d.indicatorInsets).json,
            "contentSize": WireSize(d.contentSize).json, "minimumContentSize": WireSize(d.minimumContentSize).json,
            "contentStretches": .bool(d.contentStretches), "contentOffset": WirePoint(d.contentOffset).json,
            "behavior": .string(d.options.behavior.rawValue),
            "resizesContentForKeyboard": .bool(d.options.resizesContentForKeyboard),
            "visibilityScrollMargin": .number(d.options.visibilityScrollMargin),
            "keyboardDismissMode": .string(d.options.keyboardDismissMode.rawValue),
            "alwaysBounceVertical": .bool(d.options.alwaysBounceVertical),
        ]
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
