// insetd-osk's command line: makes the session's real on-screen keyboard follow insetd.
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc
import ArgumentParser
import InsetVersion
import InsetOSK
import InsetSocket

extension BackendKind: ExpressibleByArgument {}

/// insetd-osk's command: a library type rather than an executable's, so that
/// both the `insetd-osk` product and the multi-call `insetd` binary (run as
/// `insetd-osk`) start it.
public struct InsetdOSK: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "insetd-osk",
        abstract: "Make the session's on-screen keyboard (squeekboard, wvkbd, KWin, GNOME) follow insetd.",
        discussion: """
            Runs in the user's graphical session (systemd user unit insetd-osk.service). Shows and hides
            the OSK as insetd decides, tells insetd when the user or the OSK itself shows or hides it, and
            reports the OSK's real frame (wvkbd's -H/-L, sway's usable area, or insetd's GNOME Shell
            extension, which the gnome backend drives). Needs control
            authorization on insetd's socket (control-users / control-groups in insetd.yaml).
            """,
        version: InsetVersion.current)

    @Option(help: "Which OSK to drive: squeekboard, wvkbd, kwin, gnome, or auto (the first one present).")
    var backend: BackendKind = .auto

    @Option(help: "insetd's socket (default: \(InsetdSocketPath.clientHelp)).")
    var socket: String?

    @Option(name: .customLong("wvkbd-pid"), help: "wvkbd's process id.")
    var wvkbdPid: Int32?

    @Option(name: .customLong("wvkbd-pidfile"), help: "A file holding wvkbd's process id.")
    var wvkbdPidFile: String?

    @Option(name: .customLong("wvkbd-unit"), help: "The systemd user unit running wvkbd (its main pid is used).")
    var wvkbdUnit: String?

    @Option(name: .customLong("wvkbd-heights"), help: "wvkbd's portrait,landscape heights when not read from its -H/-L.")
    var wvkbdHeights: String?

    @Option(
        name: .customLong("settle-ms"),
        help: "How long the OSK must have been shown before a hide it was not asked for counts as its user's (sooner: it dropped the show, which is asked again). Default 500.")
    var settleMs: Int = 500

    @Flag(help: "Leave GNOME's screen-keyboard setting alone with squeekboard.")
    var keepGnomeSetting = false

    @Flag(help: "Log every show and hide.")
    var verbose = false

    public init() {}

    public func validate() throws {
        if settleMs < 0 { throw ValidationError("--settle-ms \(settleMs): expected a number of milliseconds, 0 or more") }
        if let wvkbdHeights, heights == nil {
            throw ValidationError("--wvkbd-heights \(wvkbdHeights): expected two positive numbers such as 300,200")
        }
    }

    private var heights: (portrait: Double, landscape: Double)? {
        guard let parts = wvkbdHeights?.split(separator: ","), parts.count == 2, let p = Double(parts[0]),
            let l = Double(parts[1]), p > 0, l > 0
        else { return nil }
        return (p, l)
    }

    public func run() throws {
        var options = BackendOptions()
        options.wvkbdPid = wvkbdPid
        options.wvkbdPidFile = wvkbdPidFile
        options.wvkbdUnit = wvkbdUnit
        options.wvkbdHeights = heights
        options.squeekboardFollowsSetting = !keepGnomeSetting
        let path = InsetdSocketPath.forClient(explicit: socket, environment: ProcessInfo.processInfo.environment)
        var timing = BridgeTiming()
        timing.settle = .milliseconds(Int64(settleMs))
        let configuration = BridgeConfiguration(
            backend: backend, socketPath: path, options: options, log: BridgeLog(debug: verbose), timing: timing)
        Bridge(configuration: configuration).run()
    }
}
