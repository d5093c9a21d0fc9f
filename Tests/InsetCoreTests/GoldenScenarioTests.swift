import Foundation
import Testing

@testable import InsetCore

/// Every `Scenarios/*.scenario` file is a golden test: its input lines are run
/// through the pipeline and the regenerated transcript must equal the file.
///
/// To accept intended changes, run with `INSETD_UPDATE_GOLDEN=1`: the files in the
/// source tree are rewritten; review the diff before committing it.
@Suite struct GoldenScenarioTests {
    static let directory = Bundle.module.resourceURL!.appendingPathComponent("Scenarios")

    static var scenarioNames: [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { $0.hasSuffix(".scenario") }.sorted()
    }

    @Test func thereAreAtLeastTwentyScenarios() {
        #expect(Self.scenarioNames.count >= 20)
    }

    @Test(arguments: scenarioNames)
    func scenario(_ name: String) throws {
        let expected = try String(contentsOf: Self.directory.appendingPathComponent(name), encoding: .utf8)
        let actual = try ScenarioRunner.transcript(of: expected)
        if actual != expected, ProcessInfo.processInfo.environment["INSETD_UPDATE_GOLDEN"] == "1" {
            let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
                .appendingPathComponent("Scenarios").appendingPathComponent(name)
            try actual.write(to: source, atomically: true, encoding: .utf8)
            return
        }
        if actual != expected {
            Issue.record("\(name) differs from its golden file, \(Self.diff(expected, actual))")
        }
    }

    /// A line diff: `-` expected, `+` actual, with the first difference's line number.
    static func diff(_ expected: String, _ actual: String) -> String {
        let old = expected.split(separator: "\n", omittingEmptySubsequences: false)
        let new = actual.split(separator: "\n", omittingEmptySubsequences: false)
        let first = Array(zip(old, new)).firstIndex { $0 != $1 } ?? min(old.count, new.count)
        var lines = ["first difference at line \(first + 1):"]
        lines += old[first...].prefix(8).map { "- \($0)" }
        lines += new[first...].prefix(8).map { "+ \($0)" }
        return lines.joined(separator: "\n")
    }
}

/// The script reader: errors name the line and what is wrong.
@Suite struct ScenarioParserTests {
    @Test(arguments: [
        ("0ms frobnicate", "line 1: unknown verb 'frobnicate'"),
        ("soon advance", "line 1: 'soon' is not a duration (like 100ms or 2s)"),
        ("0ms register app/v frame=0,0,1 content=1x1", "line 1: '0,0,1' is not x,y,w,h"),
        ("0ms register app frame=0,0,1,1 content=1x1", "line 1: 'app' is not a client/view name"),
        ("0ms register app/v offset=1,2", "line 1: a view needs frame= and content= when first described"),
        ("0ms tablet maybe", "line 1: 'maybe' is not yes/no or on/off"),
        ("0ms mode sometimes", "line 1: 'sometimes' is not one of auto, always, never"),
        ("0ms advance now", "line 1: unexpected 'now'"),
        ("# ok\n10ms advance\n5ms advance", "line 3: time goes backwards (5ms after 10ms)"),
        ("0ms advance\nset window=1ms", "line 2: 'set' must come before the first event"),
        ("set colour=blue", "line 1: unknown setting 'colour'"),
    ])
    func errorsNameTheLine(script: String, message: String) {
        #expect(throws: ScenarioError.self) { try ScenarioRunner.transcript(of: script) }
        do {
            _ = try ScenarioRunner.transcript(of: script)
        } catch {
            #expect(error.description == message)
        }
    }

    @Test func expectationLinesAreRegeneratedNotTrusted() throws {
        let script = """
            set screen=390x844
            0ms command show
              @0ms a line that the core never produced
            """
        let transcript = try ScenarioRunner.transcript(of: script)
        #expect(!transcript.contains("never produced"))
        #expect(transcript.contains("  @0ms keyboard willShow begin=0,844,390,336 end=0,508,390,336"))
    }
}
