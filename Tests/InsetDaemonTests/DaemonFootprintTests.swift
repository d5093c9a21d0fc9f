import Foundation
import InputTestbed
import Testing

/// What the running daemon maps: Foundation and ICU were 12.5 MiB of its idle
/// memory (docs/PERFORMANCE.md, P5) and it needs neither, so one `import
/// Foundation` in a daemon module, or a dependency trait that brings it, fails here.
@Suite struct DaemonFootprintTests {
    @Test func theDaemonMapsNeitherFoundationNorICU() async throws {
        let socket = FileManager.default.temporaryDirectory.appendingPathComponent("footprint-\(UUID().uuidString.prefix(8)).sock").path
        let process = try InsetdLauncher.start(socket: socket)
        defer {
            kill(process.processIdentifier, SIGKILL)
            _ = process.wait()
            try? FileManager.default.removeItem(atPath: socket)
        }
        // Serving a client means every library the daemon loads is loaded.
        _ = try #require(await InsetdLauncher.connect(socket))
        // Read to the end: /proc files report size 0, and a sized read stops early.
        let file = try #require(FileHandle(forReadingAtPath: "/proc/\(process.processIdentifier)/maps"))
        let maps = String(decoding: try file.readToEnd() ?? Data(), as: UTF8.self)
        let libraries = Set(maps.split(separator: "\n").compactMap { $0.split(separator: " ").last }.map { String($0.split(separator: "/").last!) })
            .filter { $0.hasSuffix(".so") || $0.contains(".so.") }
        #expect(libraries.contains("libFoundationEssentials.so"), "\(libraries.sorted())")
        #expect(libraries.contains { $0.hasPrefix("libyaml-0.so") }, "\(libraries.sorted())")
        #expect(libraries.contains("libswiftCore.so"), "\(libraries.sorted())")
        let unwanted = libraries.filter {
            ["libFoundation.so", "libFoundationInternationalization.so", "lib_FoundationICU.so", "libFoundationNetworking.so"]
                .contains($0)
        }
        #expect(unwanted.isEmpty, "\(unwanted.sorted())")
    }
}
