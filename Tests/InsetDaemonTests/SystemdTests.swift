import Foundation
import InputTestbed
import Testing

@testable import InsetDaemon

let realSystemEnvironment = ChildProcess.realSystemEnvironment

func run(_ arguments: [String], in directory: URL? = nil) async throws -> (status: Int32, output: String) {
    try await ChildProcess.run(arguments, in: directory)
}

let insetdBinary = InsetdLauncher.binary

@Suite struct SystemdUnitTests {
    /// The units with ExecStart pointing at the binary just built (verify checks
    /// that the command exists).
    static func unitDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("insetd-units-\(UUID().uuidString.prefix(8))")
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let service = try String(contentsOf: repositoryRoot.appendingPathComponent("systemd/insetd.service"), encoding: .utf8)
        try service.replacingOccurrences(of: "/usr/bin/insetd\n", with: insetdBinary.path + "\n")
            .replacingOccurrences(of: "/usr/bin/insetctl", with: insetdBinary.deletingLastPathComponent().appendingPathComponent("insetctl").path)
            .write(to: directory.appendingPathComponent("insetd.service"), atomically: true, encoding: .utf8)
        try FileManager.default.copyItem(
            at: repositoryRoot.appendingPathComponent("systemd/insetd.socket"),
            to: directory.appendingPathComponent("insetd.socket"))
        return directory
    }

    @Test func unitsVerifyCleanly() async throws {
        let directory = try Self.unitDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try await run(["systemd-analyze", "verify", "insetd.service", "insetd.socket"], in: directory)
        #expect(result.status == 0)
        #expect(result.output.isEmpty, "verify said: \(result.output)")
    }

    @Test func securityExposureIsAtMost2() async throws {
        let directory = try Self.unitDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try await run(["systemd-analyze", "security", "--offline=true", "--no-pager", "insetd.service"], in: directory)
        let line = try #require(result.output.split(separator: "\n").first { $0.contains("Overall exposure level") })
        let score = try #require(Double(line.split(separator: ":")[1].split(separator: " ")[0]))
        #expect(score <= 2.0, "\(line)")
        print("systemd-analyze security: \(line)")
    }

    @Test func theServiceKeepsWhatUdevAndTheSocketNeed() throws {
        let service = try String(contentsOf: repositoryRoot.appendingPathComponent("systemd/insetd.service"), encoding: .utf8)
        let socket = try String(contentsOf: repositoryRoot.appendingPathComponent("systemd/insetd.socket"), encoding: .utf8)
        #expect(!service.contains("\nPrivateNetwork="), "PrivateNetwork cuts the udev netlink socket")
        #expect(service.contains("\nType=notify\n"))
        #expect(service.contains("\nDeviceAllow=char-input r\n"))
        #expect(service.contains("\nRestrictAddressFamilies=AF_UNIX AF_NETLINK\n"))
        #expect(socket.contains("\nSocketMode=0660\n"))
        #expect(socket.contains("\nSocketGroup=insetd\n"))
    }
}

@Suite struct SocketActivationTests {
    @Test func insetdServesTheSocketSystemdPasses() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("insetd-sa-\(getpid()).sock").path
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("insetd-sa-\(getpid()).log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let process = try SpawnedProcess(
            "/usr/bin/systemd-socket-activate", ["-l", path, insetdBinary.path, "--uevent-source", "udev"],
            environment: realSystemEnvironment, stderr: log.path)
        defer {
            try? FileManager.default.removeItem(atPath: path)
            try? FileManager.default.removeItem(at: log)
        }
        var client: LineClient?
        for _ in 0..<300 {
            client = try? LineClient(path: path)
            if client != nil { break }
            try await Task.sleep(for: .milliseconds(10))
        }
        let connected = try #require(client)
        connected.sendLine(#"{"type":"hello","version":1}"#)
        #expect(await connected.readMessage()?.type == "welcome")
        let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        #expect(text.contains("listening on the socket systemd passed"), "log: \(text)")
        await process.terminate()
    }
}
