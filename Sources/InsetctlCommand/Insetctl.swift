// insetctl: look at and steer insetd from a terminal.
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc
import ArgumentParser
import InsetVersion
import InsetProtocol
import InsetSocket

struct SocketOptions: ParsableArguments {
    @Option(name: .long, help: "insetd's socket (default: \(InsetdSocketPath.clientHelp)).")
    var socket: String?

    var path: String { InsetdSocketPath.forClient(explicit: socket, environment: ProcessInfo.processInfo.environment) }

    func connect() throws -> DaemonChannel { try DaemonChannel(path: path) }
}

/// insetctl's root command: a library type rather than an executable's, so
/// that both the `insetctl` product and the multi-call `insetd` binary (run
/// as `insetctl`) start it.
public struct Insetctl: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "insetctl",
        abstract: "Look at and steer insetd, the on-screen keyboard authority.",
        discussion: "Shell completions: insetctl --generate-completion-script bash|zsh|fish",
        version: InsetVersion.current,
        subcommands: [
            Status.self, Devices.self, Watch.self, Show.self, Hide.self, Toggle.self, Rotate.self, Simulate.self,
            Replay.self, Wait.self, Events.self,
            Mode.self, Keys.self, Reload.self,
        ])

    public init() {}
}

extension Insetctl {
    struct Status: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Keyboard state, screen, mode and counts.")
        @OptionGroup var options: SocketOptions
        @Flag(help: "Print the status object as one line of JSON (state, clients, views).") var json = false

        func run() throws {
            let (state, clients, views) = try options.connect().status()
            // The request id is insetctl's own bookkeeping, not part of the status.
            if json { return print(Output.text(DaemonMessage.status(id: nil, state: state, clients: clients, views: views).lineBytes())) }
            print(Output.status(state, clients: clients, views: views))
        }
    }

    struct Devices: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Input devices with their class and the reason for it.")
        @OptionGroup var options: SocketOptions
        @Flag(help: "Print a JSON array of objects (name, devnode, class, external, reason, ...).") var json = false

        func run() throws {
            guard case .devices(_, let devices) = try options.connect().request(.devices) else {
                throw CtlError("insetd answered devices with another message")
            }
            if json { return print(Output.text(WireDevice.jsonArray(devices))) }
            print(Output.devices(devices))
        }
    }

    struct Watch: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Follow keyboard changes, devices, policy and rotate requests live.")
        @OptionGroup var options: SocketOptions
        @Flag(help: "Print the raw message stream, one JSON object per line.") var json = false
        @Option(help: "Stop after this many messages.") var count: Int?

        func run() throws {
            let channel = try options.connect()
            // Not `events`: the decision timeline is `insetctl events`' own view.
            _ = try channel.request(.subscribe(topics: Topic.allCases.filter { $0 != .events }))
            var seen = 0
            while count.map({ seen < $0 }) ?? true {
                guard let received = try channel.receiveLine(timeout: nil) else { continue }
                print(json ? received.text : Output.event(received.message, text: received.text))
                fflush(nil)
                seen += 1
            }
        }
    }

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Show the on-screen keyboard (until the next focus change).")
        @OptionGroup var options: SocketOptions
        func run() throws { try command(.keyboard(.show), options) }
    }

    struct Hide: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Hide the on-screen keyboard (until the next focus change).")
        @OptionGroup var options: SocketOptions
        func run() throws { try command(.keyboard(.hide), options) }
    }

    struct Toggle: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Show the keyboard if hidden, hide it if shown.")
        @OptionGroup var options: SocketOptions
        func run() throws { try command(.keyboard(.toggle), options) }
    }

    struct Rotate: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Ask the shell to rotate the screen (insetd passes it to rotation subscribers).")
        @OptionGroup var options: SocketOptions
        func run() throws { try command(.rotate, options) }
    }
}

func command(_ command: ControlCommand, _ options: SocketOptions) throws {
    _ = try options.connect().request(.command(command))
    print("ok")
}
