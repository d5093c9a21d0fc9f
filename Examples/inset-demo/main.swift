// Replays a scenario script through insetd's pure core (policy, filter, engine)
// and prints what clients would receive. With no argument it plays a keyboard
// show/hide on a phone-sized screen.
//
//   swift run inset-demo                      # the built-in show/hide sequence
//   swift run inset-demo path/to.scenario     # any golden scenario
import ArgumentParser
import Foundation
import InsetCore
import InsetVersion

let demo = """
    # A phone-sized screen (390x844) with a 34 pt home indicator; no hardware keyboard.
    set screen=390x844 window=100ms portrait=336 animation=250ms
    # A form that scrolls: 47 pt status bar on top, 34 pt home indicator below.
    0ms register form/signup frame=0,0,390,844 safe=47,0,34,0 content=390x1200 dismiss=interactive
    # The user taps the password field near the bottom: the keyboard slides up.
    1000ms focus form/signup field=16,720,358,44
    # 100 ms later the debounce window closes: inset 336 - 34 = 302, field scrolled into view.
    1100ms advance
    1250ms advance
    # The user taps away: the keyboard slides down and the original values come back.
    3000ms blur form/signup
    3100ms advance
    3350ms advance
    """

/// The command line: one optional scenario file.
struct InsetDemo: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inset-demo",
        abstract: "Replay a scenario through insetd's pure core and print what clients would receive.",
        discussion: """
            Without a file it plays a keyboard show/hide on a phone-sized screen. A scenario is the \
            golden-test format (docs/SCENARIOS.md): set, register, focus, blur, advance ... one per line.
            """,
        version: InsetVersion.current)

    @Argument(help: "A scenario file (default: the built-in show/hide sequence).")
    var scenario: String?

    func run() throws {
        let script: String
        if let scenario {
            guard let text = try? String(contentsOfFile: scenario, encoding: .utf8) else {
                FileHandle.standardError.write(Data("inset-demo: cannot read \(scenario)\n".utf8))
                throw ExitCode.failure
            }
            script = text
        } else {
            script = demo
        }
        do {
            print(try ScenarioRunner.transcript(of: script), terminator: "")
        } catch {
            FileHandle.standardError.write(Data("inset-demo: \(scenario ?? "demo"): \(error)\n".utf8))
            throw ExitCode.failure
        }
    }
}

InsetDemo.main()
