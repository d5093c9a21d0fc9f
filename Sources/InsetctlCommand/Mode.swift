import ArgumentParser
import InsetProtocol
import InsetCore

extension Insetctl {
    /// The keyboard mode at run time (the protocol's `policy` request); the
    /// file's `keyboard.mode` is what insetd starts with, and a reload keeps
    /// this choice unless the file's mode changed.
    struct Mode: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show or set the keyboard mode: auto, always or never.",
            discussion: """
                auto shows the on-screen keyboard only when no hardware keyboard is usable; always and never \
                override that. Without an argument, prints the current mode. Setting it needs root or the insetd group.
                """)
        @OptionGroup var options: SocketOptions
        @Argument(help: "auto, always or never.") var mode: KeyboardMode?

        func run() throws {
            let channel = try options.connect()
            if let mode {
                _ = try channel.request(.policy(mode: mode))
                print(mode.rawValue)
            } else {
                print(try channel.status().state.mode.rawValue)
            }
        }
    }
}

extension KeyboardMode: ExpressibleByArgument {}
