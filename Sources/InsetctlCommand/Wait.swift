#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ArgumentParser
import InsetProtocol
import Glibc

/// One `NAME=VALUE` a test waits for, checked against the state the daemon's
/// decision timeline reports (`TimelineState`).
struct WaitCondition: ExpressibleByArgument, Equatable, CustomStringConvertible {
    /// Each condition's name and the values it takes (`devices` takes a count).
    static let values: [(name: String, values: [String])] = [
        ("keyboard", ["shown", "bar", "hidden"]), ("hardware-keyboard", ["yes", "no"]), ("tablet-mode", ["on", "off"]),
        ("mode", ["auto", "always", "never"]), ("devices", []),
    ]

    var name: String
    var value: String

    init?(argument: String) {
        guard let parsed = try? Self.parse(argument) else { return nil }
        self = parsed
    }

    init(name: String, value: String) {
        self.name = name
        self.value = value
    }

    static func parse(_ text: String) throws -> WaitCondition {
        let parts = text.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        let names = values.map(\.name).joined(separator: ", ")
        guard parts.count == 2, let entry = values.first(where: { $0.name == parts[0] }) else {
            throw ValidationError("'\(text)' is not a condition: write NAME=VALUE with NAME one of \(names)")
        }
        if entry.values.isEmpty {
            guard let count = Int(parts[1]), count >= 0 else {
                throw ValidationError("'\(text)': devices takes a count (devices=1)")
            }
            return WaitCondition(name: entry.name, value: String(count))
        }
        guard entry.values.contains(parts[1]) else {
            throw ValidationError("'\(text)': \(entry.name) is one of \(entry.values.joined(separator: ", "))")
        }
        return WaitCondition(name: entry.name, value: parts[1])
    }

    var description: String { "\(name)=\(value)" }

    /// A timeline state in the conditions' terms (`keyboard` → `bar`, `devices` → `1`, ...).
    static func facts(of state: TimelineState) -> [String: String] {
        [
            "keyboard": state.keyboard.rawValue, "hardware-keyboard": state.hardwareKeyboard ? "yes" : "no",
            "tablet-mode": state.tabletMode ? "on" : "off", "mode": state.mode.rawValue, "devices": String(state.devices),
        ]
    }

    /// `name=value` for every fact, in the conditions' order.
    static func line(_ facts: [String: String]) -> String {
        values.compactMap { entry in facts[entry.name].map { "\(entry.name)=\($0)" } }.joined(separator: " ")
    }
}

extension Insetctl {
    struct Wait: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Wait until insetd's state meets every condition (for tests).",
            discussion: """
                Conditions: keyboard=shown|bar|hidden (the full keyboard, only the accessory bar, \
                none), hardware-keyboard=yes|no, tablet-mode=on|off, mode=auto|always|never, \
                devices=N (input devices insetd knows, as insetctl devices lists them). \
                The keyboard state changes when insetd decides to move it (its willShow, willHide \
                or willChangeFrame). No change is missed: insetctl subscribes to insetd's decision \
                timeline, which starts with the state at that moment. Prints the state when every \
                condition holds and exits 0; on timeout prints which held, which did not and the \
                last state, and exits 1; exits 2 when insetd cannot be reached within the timeout (it is retried) or goes away.
                """)

        @OptionGroup var options: SocketOptions
        @Argument(help: "NAME=VALUE conditions, all of which must hold.") var conditions: [String] = []
        @Option(help: "Give up after this many seconds.") var timeout: Double = 10

        func validate() throws {
            guard !conditions.isEmpty else { throw ValidationError("name at least one condition (keyboard=shown)") }
            for condition in conditions { _ = try WaitCondition.parse(condition) }
            guard timeout >= 0, timeout <= 86_400 else { throw ValidationError("--timeout must be 0 to 86400 seconds") }
        }

        func run() throws {
            let wanted = conditions.map { try! WaitCondition.parse($0) }
            let deadline = Date().addingTimeInterval(timeout)
            var facts: [String: String] = [:]
            do {
                let channel = try connect(before: deadline)
                // Subscribing first: the timeline's first entry is the state at
                // that instant, and every later change follows it.
                channel.send(ClientRequest(id: .string("wait"), message: .subscribe(topics: [.events])))
                while true {
                    let remaining = deadline.timeIntervalSinceNow
                    guard remaining > 0, let message = try channel.receive(timeout: remaining) else { break }
                    if case .error(let error) = message, error.id == .string("wait") {
                        throw CtlError("insetd refused the events subscription (\(error.message)); is it older than this insetctl?")
                    }
                    guard case .event(let entry) = message else { continue }
                    facts = WaitCondition.facts(of: entry.state)
                    if wanted.allSatisfy({ facts[$0.name] == $0.value }) {
                        print(WaitCondition.line(facts))
                        return
                    }
                }
            } catch let error as CtlError {
                StandardStreams.printError("insetctl: \(error.description)")
                throw ExitCode(2)
            }
            report(wanted, facts)
        }

        /// A test script starts insetd and waits for it at once: keep trying to
        /// connect until the deadline, then say why not.
        private func connect(before deadline: Date) throws -> DaemonChannel {
            while true {
                do {
                    return try options.connect()
                } catch let error as CtlError {
                    guard deadline.timeIntervalSinceNow > 0.05 else { throw error }
                    usleep(50_000)
                }
            }
        }

        private func report(_ wanted: [WaitCondition], _ facts: [String: String]) -> Never {
            let held = wanted.filter { facts[$0.name] == $0.value }.map(\.description)
            let missed = wanted.filter { facts[$0.name] != $0.value }.map { "\($0) (is \(facts[$0.name] ?? "unknown"))" }
            let report =
                "insetctl: timed out after \(Output.n(timeout)) s; held: \(held.isEmpty ? "none" : held.joined(separator: " ")); "
                + "not held: \(missed.joined(separator: " ")); state: \(facts.isEmpty ? "none received" : WaitCondition.line(facts))"
            print(report)
            Insetctl.exit(withError: ExitCode(1))
        }
    }
}
