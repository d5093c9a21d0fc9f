import Glibc

/// Where libinput's quirks and the machine facts they match against are read
/// from. `libinput` is what libinput itself reads on Debian; tests point the
/// paths at a directory of their own.
public struct QuirksSources: Hashable, Sendable {
    /// Every `*.quirks` file here, in version order (`10-...` before `50-...`).
    public var dataDirectory: String
    /// Read after the data files, so its sections win; a missing file is fine.
    public var overrideFile: String?
    /// The machine's DMI modalias, for `MatchDMIModalias`.
    public var dmiModaliasPath: String
    /// The device tree's `compatible` list, for `MatchDeviceTree`.
    public var deviceTreePath: String

    public init(
        dataDirectory: String, overrideFile: String? = nil, dmiModaliasPath: String = "/sys/class/dmi/id/modalias",
        deviceTreePath: String = "/sys/firmware/devicetree/base/compatible"
    ) {
        self.dataDirectory = dataDirectory
        self.overrideFile = overrideFile
        self.dmiModaliasPath = dmiModaliasPath
        self.deviceTreePath = deviceTreePath
    }

    /// libinput's own locations (Debian: package libinput-bin).
    public static let libinput = QuirksSources(
        dataDirectory: "/usr/share/libinput", overrideFile: "/etc/libinput/local-overrides.quirks")
}

extension DeviceQuirks {
    /// Reads the data files, then the override file, and the machine's DMI
    /// modalias and device tree. A file with an error is left out whole (libinput
    /// would drop the whole database) and reported in `problems`; the others
    /// still count. No quirks files at all is reported too: classification then
    /// falls back to bus and capabilities.
    public static func load(_ sources: QuirksSources) -> (quirks: DeviceQuirks, problems: [QuirksFileError]) {
        var problems: [QuirksFileError] = []
        var sections: [QuirkSection] = []
        var paths: [String] = []
        switch quirksFiles(in: sources.dataDirectory) {
        case .success(let names) where !names.isEmpty:
            paths = names.map { "\(sources.dataDirectory)/\($0)" }
        case .success:
            problems.append(
                QuirksFileError(file: sources.dataDirectory, line: 0, reason: "has no *.quirks files (Debian installs them with libinput-bin)"))
        case .failure(let error) where error.errno == ENOENT:
            // No libinput on this machine: no quirks, which is not a fault (insetd
            // does not need libinput; the start-up line says 0 sections).
            break
        case .failure(let error):
            problems.append(QuirksFileError(file: sources.dataDirectory, line: 0, reason: "\(error)"))
        }
        if let override = sources.overrideFile { paths.append(override) }
        for path in paths {
            switch readText(path) {
            case .success(let text):
                do throws(QuirksFileError) { sections += try QuirksParser.parse(text, path: path) } catch { problems.append(error) }
            case .failure(let error) where path == sources.overrideFile && error.errno == ENOENT:
                continue
            case .failure(let error):
                problems.append(QuirksFileError(file: path, line: 0, reason: "\(error)"))
            }
        }
        let dmi = try? readText(sources.dmiModaliasPath).get()
        let tree = try? readText(sources.deviceTreePath).get()
        return (
            DeviceQuirks(
                sections: sections, dmiModalias: dmi.map(firstLine).flatMap { $0.isEmpty ? nil : $0 },
                deviceTree: tree.map { String($0.prefix { $0 != "\0" && $0 != "\n" }) }.flatMap { $0.isEmpty ? nil : $0 }),
            problems
        )
    }

    /// `*.quirks` names in a directory, sorted as glibc's `versionsort` sorts them.
    static func quirksFiles(in directory: String) -> Result<[String], InputSystemError> {
        guard let dir = opendir(directory) else { return .failure(InputSystemError("opendir \(directory)", errno: errno)) }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafePointer(to: entry.pointee.d_name) {
                $0.withMemoryRebound(to: CChar.self, capacity: 256) { String(cString: $0) }
            }
            if name.hasSuffix(".quirks") && name.count > ".quirks".count { names.append(name) }
        }
        return .success(names.sorted(by: versionOrder))
    }

    private static func firstLine(_ text: String) -> String { String(text.prefix { $0 != "\n" }) }
}

/// `strverscmp` order for file names: runs of digits compare as numbers, so
/// `9-a.quirks` sorts before `10-a.quirks`.
func versionOrder(_ a: String, _ b: String) -> Bool {
    var left = Array(a.utf8)[...]
    var right = Array(b.utf8)[...]
    func isDigit(_ c: UInt8) -> Bool { c >= 0x30 && c <= 0x39 }
    while let l = left.first, let r = right.first {
        if isDigit(l) && isDigit(r) {
            let ld = left.prefix(while: isDigit)
            let rd = right.prefix(while: isDigit)
            let ln = ld.drop(while: { $0 == 0x30 })
            let rn = rd.drop(while: { $0 == 0x30 })
            if ln.count != rn.count { return ln.count < rn.count }
            if !ln.elementsEqual(rn) { return ln.lexicographicallyPrecedes(rn) }
            left = left.dropFirst(ld.count)
            right = right.dropFirst(rd.count)
        } else {
            if l != r { return l < r }
            left = left.dropFirst()
            right = right.dropFirst()
        }
    }
    return left.isEmpty && !right.isEmpty
}

/// A whole (small) file as text.
func readText(_ path: String) -> Result<String, InputSystemError> {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return .failure(InputSystemError("open \(path)", errno: errno)) }
    defer { close(fd) }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 16384)
    while true {
        let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        if count < 0 {
            if errno == EINTR { continue }
            return .failure(InputSystemError("read \(path)", errno: errno))
        }
        if count == 0 { break }
        bytes += buffer.prefix(count)
    }
    return .success(String(decoding: bytes, as: UTF8.self))
}
