import Foundation
import InsetCore
import Testing

@testable import InsetDaemon

let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

/// One directory for the test process's temporary configuration files,
/// removed when the process exits.
let temporaryConfigDirectory = makeTemporaryConfigDirectory()

private func makeTemporaryConfigDirectory() -> String {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("insetd-tests-\(getpid())").path
    try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    atexit { try? FileManager.default.removeItem(atPath: temporaryConfigDirectory) }
    return path
}

func temporaryConfig(_ text: String) throws -> String {
    let path = "\(temporaryConfigDirectory)/insetd-\(UUID().uuidString.prefix(8)).yaml"
    try text.write(toFile: path, atomically: true, encoding: .utf8)
    return path
}

@Suite struct DaemonConfigurationTests {
    @Test func theShippedFileIsExactlyTheCompiledDefaults() async throws {
        let loaded = try await DaemonConfigurationLoader.load(path: repositoryRoot.appendingPathComponent("config/insetd.yaml").path)
        #expect(loaded == DaemonConfiguration.defaults)
    }

    @Test func anEmptyFileMeansAllDefaults() async throws {
        let path = try temporaryConfig("# nothing\n")
        #expect(try await DaemonConfigurationLoader.load(path: path) == DaemonConfiguration.defaults)
    }

    @Test func valuesAreRead() async throws {
        let path = try temporaryConfig("""
            screen: {width: 390, height: 844}
            keyboard: {mode: always, portrait-height: 300, hardware-hold-off-ms: 50}
            filter: {window-ms: 0}
            input:
              uevent-source: udev
              deny: ["1050:*", "name:*Yubi*"]
              hotkeys: ["CTRL+ALT+K=show"]
            server: {control-groups: [wheel, "1000"], outbound-queue: 32}
            """)
        let config = try await DaemonConfigurationLoader.load(path: path)
        #expect(config.screen == Size(width: 390, height: 844))
        #expect(config.pipeline.policy.mode == .always)
        #expect(config.pipeline.policy.portraitHeight == 300)
        #expect(config.pipeline.policy.hardwareHoldOff == .milliseconds(50))
        #expect(config.pipeline.filterWindow == .zero)
        #expect(config.ueventSource == .udev)
        #expect(config.classifier.deny.map(\.description) == ["1050:*", "name:*Yubi*"])
        #expect(config.classifier.hotkeys.map(\.description) == ["CTRL+ALT+K=show"])
        #expect(config.controlGroups == ["wheel", "1000"])
        #expect(config.outboundQueue == 32)
    }

    @Test func everyBadValueIsReportedWithKeyValueAndWhy() async throws {
        let path = try temporaryConfig("""
            keyboard: {mode: sometimes, portrait-height: -3, ignore-external-keyboards: perhaps}
            filter: {window-ms: fast}
            input:
              uevent-source: dbus
              deny: ["105"]
              hotkeys: ["LEFTMETA+KAY=toggle", "LEFTMETA+J=explode", "nonsense"]
            """)
        do {
            _ = try await DaemonConfigurationLoader.load(path: path)
            Issue.record("a bad file was accepted")
        } catch {
            #expect(
                error.description.split(separator: "\n").map { $0.replacingOccurrences(of: path, with: "FILE") } == [
                    // Line and column of each value, counted by hand (a quoted item's column is its quote's).
                    "FILE:1:18: keyboard.mode: 'sometimes' is not one of auto, always, never",
                    "FILE:1:46: keyboard.portrait-height: '-3' is out of range (1 to 5000)",
                    "FILE:1:77: keyboard.ignore-external-keyboards: 'perhaps' is not true or false",
                    "FILE:2:21: filter.window-ms: 'fast' is not a whole number",
                    "FILE:4:18: input.uevent-source: 'dbus' is not one of auto, udev, kernel",
                    "FILE:5:10: input.deny: '105' expected vvvv:pppp or vvvv:* (hex), name:GLOB or bus:NAME",
                    "FILE:6:13: input.hotkeys: 'LEFTMETA+KAY=toggle' unknown key name 'KAY'",
                    "FILE:6:36: input.hotkeys: 'LEFTMETA+J=explode' has an unknown action 'explode' (known: show, hide, toggle, rotate, rotate-left, rotate-right)",
                    "FILE:6:58: input.hotkeys: 'nonsense' is not COMBINATION=ACTION (like LEFTMETA+K=toggle)",
                ])
        }
    }

    @Test func traceSettingsAreReadAndChecked() async throws {
        let good = try await DaemonConfigurationLoader.load(
            path: try temporaryConfig("""
                trace: {path: /tmp/t.jsonl, output-path: /tmp/o.jsonl, max-bytes: 8192, when-full: rotate, keep: 2}
                """))
        #expect(good.trace == TraceSettings(path: "/tmp/t.jsonl", outputPath: "/tmp/o.jsonl", maxBytes: 8192, whenFull: .rotate, keep: 2))
        let path = try temporaryConfig("trace: {output-path: /tmp/o.jsonl, max-bytes: 10, when-full: wrap, keep: -1}\n")
        do {
            _ = try await DaemonConfigurationLoader.load(path: path)
            Issue.record("a bad trace section was accepted")
        } catch {
            #expect(
                error.description.split(separator: "\n").map { $0.replacingOccurrences(of: path, with: "FILE") } == [
                    "FILE:1:22: trace.output-path: '/tmp/o.jsonl' needs trace.path as well",
                    "FILE:1:47: trace.max-bytes: '10' is out of range (4096 to 1099511627776)",
                    "FILE:1:62: trace.when-full: 'wrap' is not one of stop, rotate",
                    "FILE:1:74: trace.keep: '-1' is out of range (0 to 100)",
                ])
        }
    }

    @Test func malformedYAMLIsAnErrorNotDefaults() async throws {
        let path = try temporaryConfig("keyboard: [unclosed\n")
        do {
            _ = try await DaemonConfigurationLoader.load(path: path)
            Issue.record("malformed YAML was accepted")
        } catch {
            #expect(error.problems.first?.key == "(file)")
            #expect(error.description.contains("cannot be read as YAML"))
        }
    }

    @Test func anUnreadableFileIsAnError() async {
        await #expect(throws: ConfigurationError.self) {
            try await DaemonConfigurationLoader.load(path: "/nonexistent/insetd.yaml")
        }
    }
}
