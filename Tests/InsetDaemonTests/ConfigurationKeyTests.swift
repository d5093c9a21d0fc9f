import Foundation
import Testing

@testable import InsetDaemon

/// Every key of insetd.yaml is one `ConfigurationKey`: documented in the
/// shipped file and in insetd.yaml(5), and sorted by a reload into "applies
/// now" or "needs a restart" as the man page says.
@Suite struct ConfigurationKeyTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The shipped file's keys by their full dotted name, including those
    /// shown commented out (`# path: /var/log/...`): a key is `name:` at the
    /// top level or indented under its section.
    static func shippedKeys() throws -> Set<String> {
        let text = try String(contentsOf: root.appendingPathComponent("config/insetd.yaml"), encoding: .utf8)
        var keys: Set<String> = []
        var section: String?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let indent = line.prefix { $0 == " " }.count
            var body = line.dropFirst(indent)
            if body.hasPrefix("# ") { body = body.dropFirst(2) }
            guard let colon = body.firstIndex(of: ":") else { continue }
            let name = body[..<colon]
            guard !name.isEmpty, name.allSatisfy({ $0.isLowercase || $0 == "-" }) else { continue }
            if indent == 0 && !line.hasPrefix("#") {
                section = String(name)
                keys.insert(String(name))
            } else if indent > 0, let section {
                keys.insert("\(section).\(name)")
            }
        }
        return keys
    }

    /// The man page's keys, each with the text that applies to it: its own
    /// paragraph and its section's introduction (where "Needs a restart." or
    /// "Applied at once by a reload." is said for a whole section).
    static func manPageEntries() throws -> [String: String] {
        let text = try String(contentsOf: root.appendingPathComponent("man/insetd.yaml.5"), encoding: .utf8)
        var entries: [String: String] = [:]
        var section = "", intro = "", current: [String] = []
        var afterTP = false, inKeys = false
        for line in text.split(separator: "\n").map(String.init) {
            if line.hasPrefix(".SH") {
                (section, intro, current) = ("", "", [])
                inKeys = line == ".SH KEYS"
            } else if !inKeys {
                continue
            } else if line.hasPrefix(".SS ") {
                let name = String(line.dropFirst(4))
                (section, intro, current) = (name == "Top level" ? "" : name, "", [])
            } else if line == ".TP" {
                afterTP = true
            } else if afterTP && (line.hasPrefix(".B ") || line.hasPrefix(".BR ")) {
                afterTP = false
                let names = line.replacingOccurrences(of: #""[^"]*""#, with: " ", options: .regularExpression)
                    .split(separator: " ").dropFirst().map { $0.replacingOccurrences(of: "\\-", with: "-") }
                current = names.map { section.isEmpty || $0.contains(".") ? $0 : "\(section).\($0)" }
                for key in current { entries[key] = intro }
            } else if current.isEmpty {
                intro += line + "\n"
            } else {
                for key in current { entries[key, default: ""] += line + "\n" }
            }
        }
        return entries
    }

    @Test func everyKeyIsInTheShippedFile() throws {
        let shipped = try Self.shippedKeys()
        let missing = ConfigurationKey.allCases.map(\.rawValue).filter { !shipped.contains($0) }
        #expect(missing.isEmpty, "not in config/insetd.yaml: \(missing)")
    }

    @Test func everyKeyIsInTheManPageWithWhenItApplies() throws {
        let entries = try Self.manPageEntries()
        let missing = ConfigurationKey.allCases.map(\.rawValue).filter { entries[$0] == nil }
        #expect(missing.isEmpty, "not in man/insetd.yaml.5: \(missing)")
        for key in ConfigurationKey.allCases {
            guard let text = entries[key.rawValue] else { continue }
            let says = key.appliesOnReload ? "Applied at once by a reload." : "Needs a restart."
            #expect(text.contains(says), "\(key.rawValue): the man page should say \"\(says)\"")
        }
    }

    /// The parsers above find what they should: a known key under its
    /// section, one shown commented out, and no prose.
    @Test func theDocumentParsersReadKeysNotProse() throws {
        let shipped = try Self.shippedKeys()
        #expect(shipped.contains("trace.path"))
        #expect(shipped.contains("keyboard.portrait-height"))
        #expect(!shipped.contains("Check a file with"))
        let entries = try Self.manPageEntries()
        #expect(entries["server.hello-timeout-ms"]?.contains("Default 5000.") == true)
        #expect(entries["screen.height"] != nil && entries["screen.width"] != nil)
        #expect(entries.count == ConfigurationKey.allCases.count, "\(Set(entries.keys).subtracting(ConfigurationKey.allCases.map(\.rawValue)))")
    }

    /// The keyboard and filter settings reach the running pipeline; the rest
    /// lives in objects built at start.
    @Test func whatAReloadAppliesAtOnce() {
        let now = ConfigurationKey.allCases.filter(\.appliesOnReload).map(\.rawValue)
        #expect(now.allSatisfy { $0.hasPrefix("keyboard.") || $0.hasPrefix("filter.") })
        #expect(now.count == 10)
    }

    /// A value other than the default for each key, written by hand.
    static let otherValue: [ConfigurationKey: String] = [
        .screenWidth: "390", .screenHeight: "844", .logLevel: "debug", .keyboardMode: "never",
        .keyboardPortraitHeight: "300", .keyboardLandscapeHeight: "200", .keyboardAccessoryBarHeight: "0",
        .keyboardHardwareHoldOffMs: "50", .keyboardIgnoreExternalKeyboards: "true", .keyboardAnimationMs: "100",
        .keyboardAnimationCurve: "linear", .filterWindowMs: "0", .filterNavigationThresholdMs: "500",
        .inputUeventSource: "kernel", .inputAllow: "[\"bus:usb\"]", .inputDeny: "[\"bus:usb\"]",
        .inputCountVirtualKeyboards: "true", .inputHotkeys: "[\"LEFTMETA+H=hide\"]",
        .serverControlUsers: "[someone]", .serverControlGroups: "[wheel]", .serverOutboundQueue: "32",
        .serverMaxConnections: "10", .serverMaxConnectionsPerUser: "5", .serverHelloTimeoutMs: "100",
        .tracePath: "/tmp/t.jsonl", .traceOutputPath: "/tmp/o.jsonl", .traceMaxBytes: "4096",
        .traceWhenFull: "rotate", .traceKeep: "0", .websocketListen: "\"127.0.0.1:8099\"",
        .websocketAllowRemote: "true", .websocketOrigins: "[\"http://kiosk.local\"]", .websocketControl: "true",
    ]

    /// Each key's row reads and compares its own value: a file that changes
    /// one key (trace.output-path needs trace.path beside it) makes that key,
    /// and no other, differ from the defaults.
    @Test(arguments: ConfigurationKey.allCases)
    func aRowReadsAndComparesItsOwnValue(_ key: ConfigurationKey) async throws {
        var keys = [key]
        if key == .traceOutputPath { keys.insert(.tracePath, at: 0) }
        var yaml = ""
        for key in keys {
            let parts = key.rawValue.split(separator: ".", maxSplits: 1)
            let value = Self.otherValue[key]!
            if parts.count == 1 {
                yaml += "\(parts[0]): \(value)\n"
            } else {
                if !yaml.hasPrefix("\(parts[0]):") { yaml += "\(parts[0]):\n" }
                yaml += "  \(parts[1]): \(value)\n"
            }
        }
        let config = try await DaemonConfigurationLoader.load(path: try temporaryConfig(yaml))
        #expect(ConfigurationKey.allCases.filter { $0.differs(.defaults, config) } == keys, "\(yaml)")
    }
}
