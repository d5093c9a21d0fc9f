import Foundation
import Glibc
import InputTestbed
import Testing

@testable import InsetDaemon

/// A configuration file is strict: keys insetd does not read, keys given twice
/// and values where sections belong (or the reverse) are errors naming the
/// file, line and column, with the closest known key suggested.
@Suite struct ConfigurationStrictnessTests {
    static let keyboardKeys =
        "mode, portrait-height, landscape-height, accessory-bar-height, hardware-hold-off-ms, ignore-external-keyboards, animation-ms, animation-curve"

    @Test(arguments: [
        // A misspelt key in its section.
        ("keyboard:\n  portait-height: 300\n", ["FILE:2:3: keyboard.portait-height: unknown key; did you mean 'keyboard.portrait-height'?"]),
        // The right name at the wrong level: the section is suggested with it.
        ("portait-height: 300\n", ["FILE:1:1: portait-height: unknown key; did you mean 'keyboard.portrait-height'?"]),
        ("keyboard:\n  mode: auto\nfiltre:\n  window-ms: 10\n", ["FILE:3:1: filtre: unknown key; did you mean 'filter'?"]),
        ("log_level: debug\n", ["FILE:1:1: log_level: unknown key; did you mean 'log-level'?"]),
        // Given twice: the second is the error, pointing at the first.
        ("filter:\n  window-ms: 50\n  window-ms: 60\n", ["FILE:3:3: filter.window-ms: is given twice (first at line 2, column 3)"]),
        ("keyboard:\n  mode: always\nkeyboard:\n  mode: never\n", ["FILE:3:1: keyboard: is given twice (first at line 1, column 1)"]),
        // A value where a section belongs, and a section where a value belongs.
        ("keyboard: 5\n", ["FILE:1:1: keyboard: is a section (\(keyboardKeys)), not a value"]),
        ("screen: [1280, 800]\n", ["FILE:1:1: screen: is a section (width, height), not a value"]),
        ("log-level:\n  level: info\n", ["FILE:1:1: log-level: takes a value, not a section of keys"]),
        // Structure first, then values, each in file order.
        ("keyboard: {mode: sometimes, animaton-ms: 3}\n", [
            "FILE:1:18: keyboard.mode: 'sometimes' is not one of auto, always, never",
            "FILE:1:29: keyboard.animaton-ms: unknown key; did you mean 'keyboard.animation-ms'?",
        ]),
    ])
    func structuralMistakesAreRejectedWithTheirPlace(_ text: String, expected: [String]) async throws {
        let path = try temporaryConfig(text)
        defer { unlink(path) }
        do {
            _ = try await DaemonConfigurationLoader.load(path: path)
            Issue.record("accepted: \(text)")
        } catch {
            #expect(error.description.replacingOccurrences(of: path, with: "FILE").split(separator: "\n").map(String.init) == expected)
        }
    }

    /// Sections with nothing under them (every key commented out) are fine.
    @Test(arguments: ["input:\n# allow: []\n", "keyboard: {}\nserver: ~\n", "trace:\n  path:\n"])
    func emptySectionsAreAllowed(_ text: String) async throws {
        let path = try temporaryConfig(text)
        defer { unlink(path) }
        #expect(try await DaemonConfigurationLoader.load(path: path) == DaemonConfiguration.defaults)
    }

    @Test func closestKeyByEditDistance() {
        #expect(ConfigurationValues.editDistance("portait", "portrait") == 1)
        #expect(ConfigurationValues.editDistance("", "abc") == 3)
        #expect(ConfigurationValues.editDistance("kitten", "sitting") == 3)
        #expect(ConfigurationValues.closest(to: "filter.windowms", among: ["filter.window-ms", "filter.navigation-threshold-ms"]) == "filter.window-ms")
    }

    @Test func aMissingFileNamesTheReason() async {
        let error = await #expect(throws: ConfigurationError.self) {
            try await DaemonConfigurationLoader.load(path: "/nonexistent/insetd.yaml")
        }
        #expect(error?.description == "/nonexistent/insetd.yaml: (file): '/nonexistent/insetd.yaml' cannot be read: No such file or directory")
    }

    /// A file that exists but cannot be read stops insetd (EX_CONFIG) instead of
    /// falling back to the defaults. Run as nobody, since root reads any file.
    @Test func anUnreadableFileStopsInsetdWithExConfig() async throws {
        let path = try temporaryConfig("keyboard: {mode: never}\n")
        defer { unlink(path) }
        chmod(path, 0o600)
        let result = try await ChildProcess.run([
            "setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", insetdBinary.path, "--config", path,
            "--socket", path + ".sock",
        ])
        #expect(result.status == 78, "\(result.output)")
        #expect(result.output.contains("\(path): (file): '\(path)' cannot be read: Permission denied"))
    }

    /// The default file is used when it exists, readable or not (reading it then
    /// fails loudly); a file created after start is what the next load reads.
    @Test func theDefaultFileIsReadWhenItExistsIncludingOneCreatedLater() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("later-\(UUID().uuidString.prefix(8)).yaml").path
        defer { unlink(path) }
        let source = ConfigurationSource(explicitPath: nil, defaultPath: path)
        #expect(source.path == nil)
        let (before, beforePath) = try await source.load()
        #expect(before == DaemonConfiguration.defaults && beforePath == nil)
        try "keyboard: {mode: never}\n".write(toFile: path, atomically: true, encoding: .utf8)
        let (after, afterPath) = try await source.load()
        #expect(after.pipeline.policy.mode == .never)
        #expect(afterPath == path)
        chmod(path, 0o000)
        #expect(source.path == path, "an unreadable file is still the file")
    }

    @Test func checkConfigExitsWithExConfigAndEveryProblem() async throws {
        let path = try temporaryConfig("keyboard:\n  modee: always\n  mode: always\n")
        defer { unlink(path) }
        let result = try await ChildProcess.run([insetdBinary.path, "--check-config", path])
        #expect(result.status == 78)
        #expect(result.output == "\(path):2:3: keyboard.modee: unknown key; did you mean 'keyboard.mode'?\n")
        let good = try await ChildProcess.run([insetdBinary.path, "--check-config", repositoryRoot.appendingPathComponent("config/insetd.yaml").path])
        #expect(good.status == 0)
    }

    @Test func reloadReportSeparatesWhatAppliesNowFromWhatNeedsARestart() throws {
        var new = DaemonConfiguration.defaults
        new.pipeline.policy.mode = .always
        new.pipeline.filterWindow = .milliseconds(50)
        new.classifier.hotkeys = []
        new.screen.width = 390
        let report = ReloadReport.between(.defaults, new)
        #expect(report.changed == ["keyboard.mode", "filter.window-ms"])
        #expect(report.restart == ["screen.width", "input.hotkeys"])
        #expect(ReloadReport.between(.defaults, .defaults) == ReloadReport())
    }
}
