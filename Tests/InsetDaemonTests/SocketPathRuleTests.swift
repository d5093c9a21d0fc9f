import Foundation
import Glibc
import InputTestbed
import InsetSocket
import Testing

/// One row of the socket path rule's table in docs/PROTOCOL.md ("Which socket
/// a client connects to"), which every client is tested against.
struct SocketPathCase: CustomStringConvertible, Sendable {
    var given: String?
    var insetdSocket: String?
    var runtime: String?
    /// What RUN/insetd.sock is: socket, link to a socket, dangling link, none.
    var file: String
    var expected: String

    var description: String {
        "given \(given ?? "-"), INSETD_SOCKET \(insetdSocket ?? "-"), XDG_RUNTIME_DIR \(runtime ?? "-"), \(file)"
    }

    /// The rows between the table's markers; `-` is unset, `(empty)` "".
    static func all() throws -> [SocketPathCase] {
        let text = try String(contentsOf: repositoryRoot.appendingPathComponent("docs/PROTOCOL.md"), encoding: .utf8)
        guard let start = text.range(of: "<!-- socket-path-cases -->"), let end = text.range(of: "<!-- end socket-path-cases -->")
        else { return [] }
        func value(_ cell: String) -> String? { cell == "-" ? nil : cell == "(empty)" ? "" : cell }
        return text[start.upperBound..<end.lowerBound].split(separator: "\n").dropFirst(2).map { line in
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            return SocketPathCase(
                given: value(cells[0]), insetdSocket: value(cells[1]), runtime: value(cells[2]), file: cells[3], expected: cells[4])
        }
    }

    /// A fresh RUN directory holding what the row says; RUN in the row's
    /// values is replaced by it.
    func prepare() throws -> (run: String, environment: [String: String], expected: String) {
        let run = FileManager.default.temporaryDirectory.appendingPathComponent("path-rule-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: run, withIntermediateDirectories: true)
        let link = "\(run)/insetd.sock"
        switch file {
        case "socket": close(try UnixSocket.bind(link))
        case "link to a socket":
            close(try UnixSocket.bind("\(run)/real.sock"))
            try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "\(run)/real.sock")
        case "dangling link": try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "\(run)/absent.sock")
        case "none": break
        default: Issue.record("unknown file kind \(file)")
        }
        func substitute(_ value: String) -> String { value.replacingOccurrences(of: "RUN", with: run) }
        var environment: [String: String] = [:]
        if let insetdSocket { environment["INSETD_SOCKET"] = substitute(insetdSocket) }
        if let runtime { environment["XDG_RUNTIME_DIR"] = substitute(runtime) }
        return (run, environment, substitute(expected))
    }
}

/// The Swift clients' rule (insetctl, insetd-osk, InsetClient's default) and
/// the Python example's, each against every row of the documented table.
@Suite struct SocketPathRuleTests {
    @Test func theTableHasEveryCase() throws {
        let cases = try SocketPathCase.all()
        #expect(cases.count == 10)
        #expect(Set(cases.map(\.file)) == ["socket", "link to a socket", "dangling link", "none"])
    }

    @Test func theSwiftClientsFollowTheRule() throws {
        for row in try SocketPathCase.all() {
            let (run, environment, expected) = try row.prepare()
            defer { try? FileManager.default.removeItem(atPath: run) }
            #expect(InsetdSocketPath.forClient(explicit: row.given, environment: environment) == expected, "\(row)")
        }
    }

    @Test func thePythonExampleFollowsTheRule() async throws {
        let examples = repositoryRoot.appendingPathComponent("Examples/python").path
        for row in try SocketPathCase.all() {
            let (run, environment, expected) = try row.prepare()
            defer { try? FileManager.default.removeItem(atPath: run) }
            let given = row.given.map { "'\($0)'" } ?? "None"
            let script = "import sys; sys.path.insert(0, '\(examples)'); import insetd_client; print(insetd_client.socket_path(\(given)))"
            let assignments = environment.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
            let result = try await ChildProcess.run(
                ["env", "-u", "INSETD_SOCKET", "-u", "XDG_RUNTIME_DIR"] + assignments + ["python3", "-B", "-c", script])
            #expect(result.status == 0, "\(result.output)")
            #expect(result.output.trimmingCharacters(in: .newlines) == expected, "\(row)")
        }
    }
}
