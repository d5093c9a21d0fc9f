import ArgumentParser
import InsetProtocol
import Foundation

extension Insetctl {
    struct Events: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Follow insetd's decisions live, each with its time and cause (for tests).",
            discussion: """
                Each line: the daemon's monotonic time (seconds since it started, to the \
                nanosecond), the decision (a device classified, tablet mode, the mode, a usable \
                hardware keyboard, the keyboard moving, a view's adjustment) and its cause (a \
                device, a hotkey action, a client's message, the hardware hold-off expiring, the \
                frame filter delivering). The first line is the state at subscription. Never \
                keystrokes. --jsonl prints insetd's messages as they are (time in ns as "at").
                """)

        @OptionGroup var options: SocketOptions
        @Flag(help: "Print one JSON object per line, as insetd sends it.") var jsonl = false
        @Option(help: "Stop after this many lines.") var count: Int?

        func run() throws {
            let channel = try options.connect()
            _ = try channel.request(.subscribe(topics: [.events]))
            var seen = 0
            while count.map({ seen < $0 }) ?? true {
                guard let message = try channel.receiveLine(timeout: nil) else { continue }
                guard message.object["type"] as? String == "event" else { continue }
                print(jsonl ? message.text : TimelineText.line(message.object))
                fflush(nil)
                seen += 1
            }
        }
    }
}

/// The human form of a timeline entry.
enum TimelineText {
    static func line(_ entry: [String: Any]) -> String {
        let nanoseconds = (entry["at"] as? NSNumber)?.int64Value ?? 0
        let fraction = String(nanoseconds % 1_000_000_000)
        let time = "\(nanoseconds / 1_000_000_000).\(String(repeating: "0", count: 9 - fraction.count))\(fraction)"
        return "\(time)  \(decision(entry))  <- \(cause(entry["cause"] as? [String: Any] ?? [:]))"
    }

    static func decision(_ entry: [String: Any]) -> String {
        func flag(_ key: String) -> Bool { entry[key] as? Bool ?? false }
        switch entry["decision"] as? String {
        case "subscribed":
            return "state " + WaitCondition.line(WaitCondition.facts(of: entry["state"] as? [String: Any] ?? [:]))
        case "device":
            let device = entry["device"] as? [String: Any] ?? [:]
            return "device \(entry["event"] as? String ?? "?"): \(device["name"] as? String ?? "?") [\(device["class"] as? String ?? "?")]"
        case "tablet-mode": return "tablet mode \(flag("tabletMode") ? "on" : "off")"
        case "mode": return "mode \(entry["mode"] as? String ?? "?")"
        case "hardware-keyboard": return "hardware keyboard \(flag("hardwareKeyboard") ? "usable" : "gone")"
        case "keyboard":
            return "keyboard \(entry["keyboard"] as? String ?? "?") (\(entry["phase"] as? String ?? "?") to \(Output.rect(entry["frame"])))"
        case "adjustment":
            return "view \(entry["client"] as? String ?? "?")/\(entry["view"] as? String ?? "?"): bottom inset \(Output.n(entry["additionalBottomInset"]))"
        case "osk-problem":
            let bridge = entry["bridge"] as? String ?? "?"
            return (entry["problem"] as? String).map { "OSK problem (\(bridge)): \($0)" } ?? "OSK problem gone (\(bridge))"
        case let other: return other ?? "?"
        }
    }

    static func cause(_ cause: [String: Any]) -> String {
        func text(_ key: String) -> String { cause[key] as? String ?? "?" }
        switch cause["kind"] as? String {
        case "subscribe": return "subscribed"
        case "device": return "device \(text("device")) (\(cause["devnode"] as? String ?? text("syspath"))) \(text("event"))"
        case "tablet-switch": return "tablet switch \((cause["on"] as? Bool ?? false) ? "on" : "off")"
        case "hotkey": return "hotkey \(text("action"))"
        case "client":
            let target = [cause["view"], cause["detail"]].compactMap { $0 as? String }.joined(separator: " ")
            return "client \(text("client")) \(text("message"))\(target.isEmpty ? "" : " " + target)"
        case "client-gone": return "client \(text("client")) left"
        case "hold-off-expired": return "hold-off expired (\(Output.n(cause["holdOffMs"])) ms)"
        case "filter-delivery": return "filter delivered (\(Output.n(cause["windowMs"])) ms window)"
        case "reload": return "configuration reloaded"
        case let other: return other ?? "?"
        }
    }
}
