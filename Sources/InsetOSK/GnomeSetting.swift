#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc

/// GNOME's `org.gnome.desktop.a11y.applications screen-keyboard-enabled`, the
/// switch Phosh and GNOME Shell follow, written through `gsettings` (dconf) so
/// the session's own settings daemon sees it. The bridge remembers the user's
/// value before its first change and writes it back when it lifts its override.
final class GnomeSetting {
    static let schema = "org.gnome.desktop.a11y.applications"
    static let key = "screen-keyboard-enabled"
    private let log: BridgeLog
    /// The user's own value, while the bridge overrides it.
    private var saved: Bool?

    init(log: BridgeLog) {
        self.log = log
    }

    static var schemaInstalled: Bool {
        (try? run(["list-keys", schema]))?.contains(key) == true
    }

    /// `value` nil lifts the override (restores the user's value).
    func override(_ value: Bool?) {
        do {
            if let value {
                if saved == nil { saved = try read() }
                try write(value)
            } else if let user = saved {
                try write(user)
                saved = nil
            }
        } catch {
            log.info("gnome setting \(Self.schema) \(Self.key): \(error)")
        }
    }

    func read() throws -> Bool {
        try Self.run(["get", Self.schema, Self.key]).trimmedOfWhitespace == "true"
    }

    private func write(_ value: Bool) throws {
        _ = try Self.run(["set", Self.schema, Self.key, value ? "true" : "false"])
        log.trace("gnome setting \(Self.key) = \(value)")
    }

    private static func run(_ arguments: [String]) throws -> String {
        let (status, output) = try CommandOutput.run("/usr/bin/gsettings", arguments)
        guard status == 0 else {
            throw OSKError("gsettings \(arguments.joined(separator: " ")) exited with \(status)")
        }
        return output
    }
}
