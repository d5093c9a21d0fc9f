import Foundation
import Testing

@testable import InsetDaemon

/// Every key of insetd.yaml is one `ConfigurationKey`: documented in the
/// shipped file, and sorted by a reload into "applies now" or "needs a restart".
@Suite struct ConfigurationKeyTests {
    static let shipped = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("config/insetd.yaml")

    @Test(arguments: ConfigurationKey.allCases)
    func everyKeyIsDocumentedInTheShippedFile(_ key: ConfigurationKey) throws {
        let text = try String(contentsOf: Self.shipped, encoding: .utf8)
        let leaf = String(key.rawValue.split(separator: ".").last!)
        #expect(text.contains("\(leaf):"), "\(key.rawValue) is not in config/insetd.yaml")
    }

    /// The keyboard and filter settings reach the running pipeline; the rest
    /// lives in objects built at start.
    @Test func whatAReloadAppliesAtOnce() {
        let now = ConfigurationKey.allCases.filter(\.appliesOnReload).map(\.rawValue)
        #expect(now.allSatisfy { $0.hasPrefix("keyboard.") || $0.hasPrefix("filter.") })
        #expect(now.count == 10)
    }
}
