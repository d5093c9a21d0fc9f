#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc
import ArgumentParser
import InsetProtocol

extension Insetctl {
    /// Asks insetd to read its configuration file again and says what came of
    /// it, so `ExecReload=insetctl reload` makes `systemctl reload insetd` fail
    /// when the file is bad (the running configuration stays).
    struct Reload: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Reload insetd's configuration file; print what changed or what is wrong.",
            discussion: """
                Exits 0 after a reload, printing the keys that changed and those that need a restart \
                (systemctl restart insetd). Exits 1 with the file's errors when it is unusable; insetd keeps \
                running with the configuration it had. Needs root or the insetd group.
                """)
        @OptionGroup var options: SocketOptions

        func run() throws {
            let channel = try options.connect()
            channel.send(ClientRequest(id: .string("reload"), message: .reload))
            let deadline = Date().addingTimeInterval(10)
            while let reply = try channel.receive(timeout: max(0, deadline.timeIntervalSinceNow)) {
                guard reply.requestID == .string("reload") else { continue }
                switch reply {
                case .error(let error) where error.code == .invalidConfiguration:
                    throw CtlError("not reloaded; insetd keeps its running configuration. The file has errors:\n\(error.message)")
                case .error(let error):
                    let hint = error.code == .notAuthorized ? " (reload needs root or the insetd group)" : ""
                    throw CtlError("insetd refused: \(error.message)\(hint)")
                case .reloaded(_, let config, let changed, let restart):
                    print(Output.reloaded(config: config, changed: changed, restart: restart))
                    return
                default:
                    throw CtlError("insetd answered the reload with another message (\(channel.path))")
                }
            }
            throw CtlError("insetd did not answer the reload within 10 s (\(channel.path))")
        }
    }
}

extension Output {
    static func reloaded(config: String?, changed: [String], restart: [String]) -> String {
        var lines = ["reloaded \(config ?? "built-in defaults (no configuration file)")"]
        lines.append("changed: \(changed.isEmpty ? "nothing" : changed.joined(separator: ", "))")
        if !restart.isEmpty {
            lines.append("needs a restart (systemctl restart insetd): \(restart.joined(separator: ", "))")
        }
        return lines.joined(separator: "\n")
    }
}
