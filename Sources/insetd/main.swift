// insetd: the on-screen keyboard authority daemon. Everything lives in the
// InsetDaemon library; this is its command line.
import ArgumentParser
import Glibc
import InsetDaemon
import InsetInput
import InsetOSKCommand
import InsetctlCommand
import InsetVersion
import Logging

/// The entry point: hands Swift concurrency to the event loop before any task
/// exists (see `DaemonRuntime`), then runs the command on it. Called as
/// insetctl or insetd-osk (the installed symbolic links to this binary), it is
/// that command instead, before any of the daemon's set-up: one binary carries
/// the Swift runtime for all three (docs/PERFORMANCE.md, "Footprint").
@main
enum InsetdMain {
    static func main() {
        switch CommandLine.arguments.first?.split(separator: "/").last {
        case "insetctl"?:
            Insetctl.main()
            exit(0)
        case "insetd-osk"?:
            InsetdOSK.main()
            exit(0)
        default: break
        }
        DaemonRuntime.takeOverConcurrency()
        // Detached: a task inheriting the main actor would start on the main queue.
        Task.detached {
            await Insetd.main()
            exit(0)
        }
        DaemonRuntime.parkMainThread()
    }
}

struct Insetd: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "insetd",
        abstract: "Decides when the on-screen keyboard shows and how every scroll view adjusts to it.",
        discussion: """
            Reads input hardware with libudev and libevdev, and serves clients on a Unix socket \
            (socket-activated under systemd, else --socket, $RUNTIME_DIRECTORY/insetd.sock, \
            /run/insetd/insetd.sock as root, or $XDG_RUNTIME_DIR/insetd.sock). \
            Without --config it reads /etc/insetd/insetd.yaml if present, else built-in defaults. \
            SIGHUP (or insetctl reload) reloads the configuration; SIGTERM stops gracefully. \
            A bad configuration at start exits with status 78 (EX_CONFIG).
            """,
        version: InsetVersion.current)

    @Option(name: .long, help: "Configuration file (YAML).")
    var config: String?

    @Option(name: .customLong("log-level"), help: "Override log-level: trace, debug, info, notice, warning, error or critical.")
    var logLevel: Logger.Level?

    @Option(name: .long, help: "Socket path to bind (ignored under socket activation).")
    var socket: String?

    @Option(name: .customLong("check-config"), help: "Check a configuration file, print what is wrong, and exit.")
    var checkConfig: String?

    @Option(name: .customLong("uevent-source"), help: "Override input.uevent-source: auto, udev or kernel.")
    var ueventSource: UeventSource?

    @Option(name: .long, help: "Record every input of the core to this file (JSON lines; overrides trace.path).")
    var trace: String?

    @Option(name: .customLong("trace-output"), help: "Record the core's outputs beside the trace (overrides trace.output-path).")
    var traceOutput: String?

    func run() async throws {
        if let checkConfig {
            do {
                _ = try await DaemonConfigurationLoader.load(path: checkConfig)
                print("\(checkConfig): OK")
                return
            } catch {
                writeToStandardError("\(error)\n")
                throw ExitCode(Daemon.configurationExitStatus)
            }
        }
        do {
            var options = Daemon.Options(
                configPath: config, socketPath: socket, ueventSource: ueventSource, tracePath: trace,
                traceOutputPath: traceOutput)
            options.logLevel = logLevel
            try await Daemon.run(options)
        } catch let error as ConfigurationError {
            // EX_CONFIG: the unit's RestartPreventExitStatus=78 keeps systemd from
            // restarting into the same error.
            writeToStandardError("insetd: invalid configuration\n\(error)\n")
            // Options that contradict each other are the caller's to fix: status 1.
            throw ExitCode(error.source == ConfigurationError.commandLine ? 1 : Daemon.configurationExitStatus)
        } catch {
            writeToStandardError("insetd: \(error)\n")
            throw ExitCode(Daemon.exitStatus(for: error))
        }
    }
}

extension UeventSource: ExpressibleByArgument {}
extension Logger.Level: @retroactive ExpressibleByArgument {}
