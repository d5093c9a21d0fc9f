import InsetCore
import InsetProtocol

/// Human-readable forms of insetd's messages.
enum Output {
    static func rect(_ r: Rect) -> String { "\(n(r.minX)),\(n(r.minY)) \(n(r.width))x\(n(r.height))" }
    static func rect(_ r: WireRect) -> String { rect(r.rect) }

    static func n(_ number: Double) -> String {
        number == number.rounded() && abs(number) < 1e15 ? String(Int(number)) : String(number)
    }

    /// A JSON line as insetd writes it, without its newline (`--json`).
    static func text(_ line: [UInt8]) -> String {
        String(decoding: line.last == UInt8(ascii: "\n") ? line.dropLast() : line[...], as: UTF8.self)
    }

    static func status(_ state: StateSnapshot, clients: Int, views: Int) -> String {
        let keyboard = state.keyboard.map { "shown at \(rect($0))" } ?? "hidden"
        return """
            keyboard:          \(keyboard)
            keyboard frame:    \(state.frameSource ?? "configured")\(state.oskProblem.map { "\nOSK problem:       \($0)" } ?? "")
            screen:            \(n(state.screen.width))x\(n(state.screen.height)) \(state.orientation.rawValue)
            mode:              \(state.mode.rawValue)
            tablet mode:       \(state.tabletMode ? "on" : "off")
            hardware keyboard: \(state.hardwareKeyboard ? "usable" : "none")
            clients:           \(clients)
            views:             \(views)
            """
    }

    static func devices(_ devices: [WireDevice]) -> String {
        guard !devices.isEmpty else { return "no input devices" }
        return devices.map { "\($0.name)\n  \($0.devnode ?? "-")  \($0.class)\n  \($0.reason)" }.joined(separator: "\n")
    }

    /// A message as `watch` and `simulate` print it; `text` (the line as it
    /// came) for one this insetctl has no words for.
    static func event(_ message: DaemonMessage?, text: String) -> String {
        switch message {
        case .keyboard(let note, let isLocal)?:
            "keyboard \(note.phase.rawValue)\(isLocal ? " (local)" : ""): \(rect(note.beginFrame)) -> \(rect(note.endFrame)) in \(n(note.animation.duration.seconds))s"
        case .adjustment(let view, let a)?:
            "view \(view): bottom inset \(n(a.additionalBottomInset)) (total \(n(a.adjustedContentInset.bottom))), offset \(n(a.contentOffset.x)),\(n(a.contentOffset.y))"
        case .device(let event, let device)?: "device \(event): \(device.name) [\(device.class)] \(device.reason)"
        case .policy(let mode, let tabletMode, let hardwareKeyboard)?:
            "policy: mode \(mode.rawValue), tablet mode \(tabletMode ? "on" : "off"), hardware keyboard \(hardwareKeyboard ? "usable" : "none")"
        case .rotate(let direction)?: "rotate requested: \(direction.rawValue)"
        case .focusLost(let view)?: "focus lost: view \(view)"
        case .bye(let reason)?: "insetd is going away (\(reason))"
        default: text
        }
    }
}
