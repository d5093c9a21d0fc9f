// Replays a scenario script through insetd's pure core (policy, filter, engine)
// and prints what clients would receive. With no argument it plays a keyboard
// show/hide on a phone-sized screen.
//
//   swift run inset-demo                      # the built-in show/hide sequence
//   swift run inset-demo path/to.scenario     # any golden scenario
import Foundation
import InsetCore

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

let arguments = CommandLine.arguments.dropFirst()
let script: String
if let path = arguments.first {
    guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
        FileHandle.standardError.write(Data("inset-demo: cannot read \(path)\n".utf8))
        exit(1)
    }
    script = text
} else {
    script = demo
}
do {
    print(try ScenarioRunner.transcript(of: script), terminator: "")
} catch {
    FileHandle.standardError.write(Data("inset-demo: \(arguments.first ?? "demo"): \(error)\n".utf8))
    exit(1)
}
