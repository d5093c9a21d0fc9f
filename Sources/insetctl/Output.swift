import Foundation

/// Human-readable forms of insetd's messages.
enum Output {
    static func json(_ value: Any) -> String {
        let data = (try? JSONSerialization.data(withJSONObject: value, options: [.sortedKeys, .prettyPrinted])) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }

    /// One line of JSON, keys sorted, for scripts (`--json`).
    static func jsonLine(_ value: Any) -> String {
        let data = (try? JSONSerialization.data(withJSONObject: value, options: [.sortedKeys])) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }

    static func rect(_ value: Any?) -> String {
        guard let r = value as? [String: Any] else { return "-" }
        return "\(n(r["x"])),\(n(r["y"])) \(n(r["width"]))x\(n(r["height"]))"
    }

    static func n(_ value: Any?) -> String {
        guard let number = (value as? NSNumber)?.doubleValue else { return "?" }
        return number == number.rounded() ? String(Int(number)) : String(number)
    }

    static func status(_ reply: [String: Any]) -> String {
        let state = reply["state"] as? [String: Any] ?? [:]
        let keyboard = state["keyboard"].map { "shown at \(rect($0))" } ?? "hidden"
        let screen = state["screen"] as? [String: Any] ?? [:]
        return """
            keyboard:          \(keyboard)
            keyboard frame:    \(state["frameSource"] as? String ?? "configured")\(
                (state["oskProblem"] as? String).map { "\nOSK problem:       \($0)" } ?? "")
            screen:            \(n(screen["width"]))x\(n(screen["height"])) \(state["orientation"] as? String ?? "")
            mode:              \(state["mode"] as? String ?? "?")
            tablet mode:       \((state["tabletMode"] as? Bool ?? false) ? "on" : "off")
            hardware keyboard: \((state["hardwareKeyboard"] as? Bool ?? false) ? "usable" : "none")
            clients:           \(n(reply["clients"]))
            views:             \(n(reply["views"]))
            """
    }

    static func devices(_ devices: [[String: Any]]) -> String {
        guard !devices.isEmpty else { return "no input devices" }
        return devices.map { device in
            let name = device["name"] as? String ?? "?"
            let devnode = device["devnode"] as? String ?? "-"
            let kind = device["class"] as? String ?? "?"
            return "\(name)\n  \(devnode)  \(kind)\n  \(device["reason"] as? String ?? "")"
        }.joined(separator: "\n")
    }

    static func event(_ message: [String: Any]) -> String {
        switch message["type"] as? String {
        case "keyboard":
            let local = (message["isLocal"] as? Bool ?? false) ? " (local)" : ""
            return "keyboard \(message["phase"] as? String ?? "?")\(local): \(rect(message["begin"])) -> \(rect(message["end"])) in \(n(message["duration"]))s"
        case "adjustment":
            let offset = message["contentOffset"] as? [String: Any] ?? [:]
            let adjusted = message["adjustedContentInset"] as? [String: Any] ?? [:]
            return "view \(message["view"] as? String ?? "?"): bottom inset \(n(message["additionalBottomInset"])) (total \(n(adjusted["bottom"]))), offset \(n(offset["x"])),\(n(offset["y"]))"
        case "device":
            let device = message["device"] as? [String: Any] ?? [:]
            return "device \(message["event"] as? String ?? "?"): \(device["name"] as? String ?? "?") [\(device["class"] as? String ?? "?")] \(device["reason"] as? String ?? "")"
        case "policy":
            return "policy: mode \(message["mode"] as? String ?? "?"), tablet mode \((message["tabletMode"] as? Bool ?? false) ? "on" : "off"), hardware keyboard \((message["hardwareKeyboard"] as? Bool ?? false) ? "usable" : "none")"
        case "rotate":
            return "rotate requested: \(message["direction"] as? String ?? "?")"
        case "focusLost":
            return "focus lost: view \(message["view"] as? String ?? "?")"
        case "bye":
            return "insetd is going away (\(message["reason"] as? String ?? ""))"
        default:
            return json(message).replacingOccurrences(of: "\n", with: " ")
        }
    }
}
