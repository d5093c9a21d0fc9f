#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import DBus
import Glibc
import InsetCore

/// wvkbd (sway/labwc kiosks, postmarketOS): no bus interface, but SIGUSR2 shows
/// and SIGUSR1 hides it. Its process is found by `--wvkbd-pid`, a pid file, a
/// user unit's main pid, or else the first process named `wvkbd-*`; its
/// portrait and landscape heights (`-H`, `-L`) are the keyboard's frame.
final class Wvkbd: OSKBackend {
    let name = "wvkbd"
    /// It draws its layer surface whole, with no slide of its own; whether it
    /// appears at once is the compositor's to say.
    func animation(on compositor: Compositor?) -> Animation? {
        compositor?.drawsLayerSurfacesWhole == true ? Animation.none : nil
    }
    let claimsExclusiveZone = true
    let usesBus = false
    private let options: BackendOptions
    private var pid: Int32?

    init(options: BackendOptions) {
        self.options = options
    }

    func attach(bus: DBusConnection?, changed: @escaping () -> Void) throws(OSKError) {
        guard let found = findProcess() else {
            throw OSKError("wvkbd: no wvkbd process (\(whereLooked))", absent: true)
        }
        pid = found
    }

    func setVisible(_ visible: Bool) throws(OSKError) {
        guard let pid else { throw OSKError("wvkbd: not found", absent: true) }
        guard kill(pid, visible ? SIGUSR2 : SIGUSR1) == 0 else {
            let error = errno
            self.pid = nil
            throw OSKError(
                "wvkbd: signal to pid \(pid): \(String(cString: strerror(error)))", absent: error == ESRCH)
        }
    }

    /// wvkbd cannot say; the bridge reads the compositor instead.
    func visible() throws(OSKError) -> Bool? {
        if let pid, kill(pid, 0) != 0, errno == ESRCH {
            self.pid = nil
            throw OSKError("wvkbd: pid \(pid) exited", absent: true)
        }
        return nil
    }

    func configuredHeight(landscape: Bool) -> Double? {
        if let heights = options.wvkbdHeights { return landscape ? heights.landscape : heights.portrait }
        guard let pid, let arguments = Self.commandLine(of: pid) else { return nil }
        return Self.height(in: arguments, landscape: landscape)
    }

    /// `-H 300` / `-L 200` in wvkbd's arguments (nil when not given).
    static func height(in arguments: [String], landscape: Bool) -> Double? {
        let flag = landscape ? "-L" : "-H"
        guard let index = arguments.firstIndex(of: flag), index + 1 < arguments.count,
            let value = Double(arguments[index + 1]), value > 0
        else { return nil }
        return value
    }

    func findProcess() -> Int32? {
        if let pid = options.wvkbdPid { return alive(pid) }
        if let file = options.wvkbdPidFile {
            let text = (try? String(contentsOfFile: file, encoding: .utf8)) ?? ""
            return Int32(text.trimmedOfWhitespace).flatMap(alive)
        }
        if let unit = options.wvkbdUnit { return unitMainPid(unit).flatMap(alive) }
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        for entry in entries.compactMap({ Int32($0) }).sorted() {
            let comm = (try? String(contentsOfFile: "/proc/\(entry)/comm", encoding: .utf8)) ?? ""
            if comm.hasPrefix("wvkbd"), getuid() == owner(of: entry) { return entry }
        }
        return nil
    }

    private var whereLooked: String {
        if let pid = options.wvkbdPid { return "pid \(pid)" }
        if let file = options.wvkbdPidFile { return "pid file \(file)" }
        if let unit = options.wvkbdUnit { return "user unit \(unit)" }
        return "no process named wvkbd-* of this user"
    }

    private func alive(_ pid: Int32) -> Int32? {
        pid > 0 && kill(pid, 0) == 0 ? pid : nil
    }

    private func owner(of pid: Int32) -> uid_t? {
        var info = stat()
        return stat("/proc/\(pid)", &info) == 0 ? info.st_uid : nil
    }

    private func unitMainPid(_ unit: String) -> Int32? {
        let arguments = ["--user", "show", "--property=MainPID", "--value", unit]
        guard let (_, output) = try? CommandOutput.run("/usr/bin/systemctl", arguments) else { return nil }
        return Int32(output.trimmedOfWhitespace)
    }

    private static func commandLine(of pid: Int32) -> [String]? {
        guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") else { return nil }
        return data.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
    }
}
