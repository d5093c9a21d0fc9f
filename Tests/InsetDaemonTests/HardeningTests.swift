import Foundation
import Testing

/// The unit hides other processes (`ProtectProc=invisible`), which works because
/// peer groups come from `SO_PEERGROUPS`; systemd 252 rates the unit 1.0.
@Suite struct HardeningTests {
    @Test func otherProcessesAreInvisibleAndTheExposureIs1_0() async throws {
        let service = try String(contentsOf: repositoryRoot.appendingPathComponent("systemd/insetd.service"), encoding: .utf8)
        #expect(service.contains("\nProtectProc=invisible\n"))
        #expect(service.contains("\nProcSubset=pid\n"))
        let unit = repositoryRoot.appendingPathComponent("systemd/insetd.service").path
        let result = try await run(["systemd-analyze", "security", "--offline=true", "--no-pager", unit])
        #expect(result.output.contains("✓ ProtectProc="), "\(result.output)")
        let line = try #require(result.output.split(separator: "\n").first { $0.contains("Overall exposure level") })
        // 1.2 before ProtectProc=invisible; that setting is worth 0.2 in systemd 252's table.
        #expect(line.contains("insetd.service: 1.0 "), "\(line)")
    }
}
