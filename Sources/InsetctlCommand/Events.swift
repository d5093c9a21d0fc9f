#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc
import ArgumentParser
import InsetProtocol

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
                guard let received = try channel.receiveLine(timeout: nil),
                    case .event(let entry)? = received.message
                else { continue }
                print(jsonl ? received.text : TimelineText.line(entry))
                fflush(nil)
                seen += 1
            }
        }
    }
}

/// The human form of a timeline entry.
enum TimelineText {
    static func line(_ entry: TimelineEntry) -> String {
        let nanoseconds = entry.at.nanoseconds
        let fraction = String(nanoseconds % 1_000_000_000)
        let time = "\(nanoseconds / 1_000_000_000).\(String(repeating: "0", count: 9 - fraction.count))\(fraction)"
        return "\(time)  \(decision(entry))  <- \(cause(entry.cause))"
    }

    static func decision(_ entry: TimelineEntry) -> String {
        switch entry.decision {
        case .subscribed: "state " + WaitCondition.line(WaitCondition.facts(of: entry.state))
        case .device(let event, let device): "device \(event): \(device.name) [\(device.class)]"
        case .tabletMode(let on): "tablet mode \(on ? "on" : "off")"
        case .mode(let mode): "mode \(mode.rawValue)"
        case .hardwareKeyboard(let usable): "hardware keyboard \(usable ? "usable" : "gone")"
        case .keyboard(let presentation, let phase, let frame):
            "keyboard \(presentation.rawValue) (\(phase.rawValue) to \(Output.rect(frame)))"
        case .adjustment(let view, let inset):
            "view \(view.client.rawValue)/\(view.name): bottom inset \(Output.n(inset))"
        case .oskProblem(let bridge, let problem):
            problem.map { "OSK problem (\(bridge)): \($0)" } ?? "OSK problem gone (\(bridge))"
        }
    }

    static func cause(_ cause: TimelineCause) -> String {
        switch cause {
        case .subscription: "subscribed"
        case .device(let event, let device): "device \(device.name) (\(device.devnode ?? device.syspath)) \(event)"
        case .tabletSwitch(let on): "tablet switch \(on ? "on" : "off")"
        case .hotkey(let action): "hotkey \(action)"
        case .client(let client, let message, let view, let detail):
            "client \(client.rawValue) \(([message] + [view, detail].compactMap { $0 }).joined(separator: " "))"
        case .clientGone(let client): "client \(client.rawValue) left"
        case .holdOffExpired(let holdOff): "hold-off expired (\(holdOff.millisecondsDescription.dropLast(2)) ms)"
        case .filterDelivery(let window): "filter delivered (\(window.millisecondsDescription.dropLast(2)) ms window)"
        case .reload: "configuration reloaded"
        }
    }
}
