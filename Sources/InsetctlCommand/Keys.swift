import ArgumentParser
import InsetInput

extension Insetctl {
    /// Lists what `input.hotkeys` may name, so a hotkey can be written without
    /// reading kernel headers.
    struct Keys: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List the key names a hotkey (input.hotkeys) may use.",
            discussion: """
                A hotkey is MODIFIER+...+KEY=ACTION, for example LEFTMETA+K=toggle. Modifiers: CTRL, SHIFT, ALT \
                and META match either side; LEFTCTRL, RIGHTALT and the like match one. Names are case-insensitive; \
                KEY_ may be written or left out. Actions: show, hide, toggle, rotate, rotate-left, rotate-right.
                """)

        @Flag(help: "Only the modifier names.") var modifiers = false

        func run() throws {
            let names = Hotkey.keyNames
            print(names.modifiers.joined(separator: "\n"))
            if modifiers {
                for side in ["LEFT", "RIGHT"] {
                    for name in names.modifiers { print(side + name) }
                }
                return
            }
            print(names.keys.joined(separator: "\n"))
        }
    }
}
