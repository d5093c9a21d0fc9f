#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import InsetCore
import InsetInput
import Logging
import Glibc

/// Reads a `DaemonConfiguration` from a YAML file (`YAMLConfigSnapshot`, read
/// through `ConfigFileReader`). Missing keys keep their defaults; wrong values
/// are collected, never guessed.
package enum DaemonConfigurationLoader {
    package static func load(path: String) async throws(ConfigurationError) -> DaemonConfiguration {
        let bytes = try contents(of: path)
        let snapshot: YAMLConfigSnapshot
        do throws(YAMLError) {
            snapshot = try YAMLConfigSnapshot(data: bytes.span.bytes)
        } catch {
            throw ConfigurationError(
                source: path, problems: [.init(key: "(file)", value: path, why: "cannot be read as YAML: \(oneLine(error))")])
        }
        return try read(ConfigFileReader(snapshot: snapshot), source: path, layout: snapshot.layout)
    }

    /// The whole file, or the reason (errno) it cannot be read.
    static func contents(of path: String) throws(ConfigurationError) -> [UInt8] {
        func unreadable() -> ConfigurationError {
            let reason = String(cString: strerror(errno))
            return ConfigurationError(source: path, problems: [.init(key: "(file)", value: path, why: "cannot be read: \(reason)")])
        }
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw unreadable() }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16384)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if count == 0 { return bytes }
            if count < 0 {
                if errno == EINTR { continue }
                throw unreadable()
            }
            bytes += chunk[..<count]
        }
    }

    static func read(_ reader: ConfigFileReader, source: String, layout: YAMLLayout? = nil) throws(ConfigurationError)
        -> DaemonConfiguration
    {
        var values = ConfigurationValues(reader: reader, layout: layout)
        var config = DaemonConfiguration.defaults
        for key in ConfigurationKey.allCases { key.setting.read(&values, key, &config) }
        // Rules between keys, which no one key's row can state.
        if let listen = config.webSocket.listen, !listen.isLoopback, !config.webSocket.allowRemote {
            let position = layout?.values[ConfigurationKey.websocketListen.rawValue]
            values.problems.append(
                .init(
                    key: ConfigurationKey.websocketListen.rawValue, value: "\(listen)",
                    why: "is not a loopback address; set websocket.allow-remote: true to listen on it",
                    line: position?.line, column: position?.column))
        }
        if config.trace.outputPath != nil && config.trace.path == nil {
            let position = layout?.values[ConfigurationKey.traceOutputPath.rawValue]
            values.problems.append(
                .init(
                    key: ConfigurationKey.traceOutputPath.rawValue, value: config.trace.outputPath!, why: "needs trace.path as well",
                    line: position?.line, column: position?.column))
        }
        // In the file's order, as a person reads it; problems without a position last.
        let problems = ((layout.map { values.structureProblems(in: $0) } ?? []) + values.problems).enumerated()
            .sorted { a, b in
                let (x, y) = (a.element, b.element)
                return (x.line ?? .max, x.column ?? .max, a.offset) < (y.line ?? .max, y.column ?? .max, b.offset)
            }
            .map(\.element)
        guard problems.isEmpty else { throw ConfigurationError(source: source, problems: problems) }
        return config
    }

    static func parseDeviceMatch(_ text: String) throws(ConfigurationValueError) -> DeviceMatch {
        do throws(DeviceMatchError) { return try DeviceMatch(text) } catch { throw ConfigurationValueError(error.reason) }
    }

    /// A deny entry ignores the device, so it cannot say where the keyboard sits.
    static func parseDenyMatch(_ text: String) throws(ConfigurationValueError) -> DeviceMatch {
        let match = try parseDeviceMatch(text)
        guard match.placement == nil else {
            throw ConfigurationValueError("cannot say internal: or external: (only input.allow entries place a keyboard)")
        }
        return match
    }

    /// `COMBINATION=ACTION`, e.g. `LEFTMETA+K=toggle`.
    static func parseHotkey(_ text: String) throws(ConfigurationValueError) -> Hotkey {
        let parts = text.split(separator: "=", maxSplits: 1).map(String.init)
        guard parts.count == 2 else { throw ConfigurationValueError("is not COMBINATION=ACTION (like LEFTMETA+K=toggle)") }
        guard let action = HotkeyAction(rawValue: parts[1]) else {
            let actions = HotkeyAction.allCases.map(\.rawValue).joined(separator: ", ")
            throw ConfigurationValueError("has an unknown action '\(parts[1])' (known: \(actions))")
        }
        do throws(HotkeyError) { return try Hotkey(parts[0], action: action) } catch {
            throw ConfigurationValueError(error.reason)
        }
    }
}

/// A multi-line error message (a parser's text, the offending line, a caret
/// under it) as one line, so every problem stays one log and terminal line.
func oneLine(_ error: any Error) -> String {
    "\(error)".split(separator: "\n").map { String($0.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed()) }
        .filter { !$0.isEmpty && $0 != "^" }.joined(separator: "; ")
}

/// Why one value is wrong (the loader adds the key and the value).
struct ConfigurationValueError: Error {
    var why: String
    init(_ why: String) { self.why = why }
}

/// Typed reads that record a problem instead of silently falling back when a
/// value is present but unusable.
struct ConfigurationValues {
    let reader: ConfigFileReader
    let layout: YAMLLayout?
    var problems: [ConfigurationError.Problem] = []
    /// Every key the loader reads: the schema, in one place (the reads).
    var known: [String] = []

    init(reader: ConfigFileReader, layout: YAMLLayout?) {
        self.reader = reader
        self.layout = layout
    }

    private mutating func raw(_ key: String) -> String? {
        if !known.contains(key) { known.append(key) }
        return reader.string(forKey: key) ?? reader.stringArray(forKey: key)?.description
    }

    private mutating func problem(_ key: String, _ why: String) {
        let position = layout?.values[key]
        problems.append(.init(key: key, value: raw(key) ?? "", why: why, line: position?.line, column: position?.column))
    }

    mutating func number(_ setting: ConfigurationKey, default value: Double, in range: ClosedRange<Double>) -> Double {
        let key = setting.rawValue
        guard raw(key) != nil else { return value }
        guard let number = reader.double(forKey: key) else {
            problem(key, "is not a number")
            return value
        }
        guard range.contains(number) else {
            problem(key, "is out of range (\(formatPoints(range.lowerBound)) to \(formatPoints(range.upperBound)))")
            return value
        }
        return number
    }

    mutating func integer(_ setting: ConfigurationKey, default value: Int, in range: ClosedRange<Int>) -> Int {
        let key = setting.rawValue
        guard raw(key) != nil else { return value }
        guard let number = reader.int(forKey: key) else {
            problem(key, "is not a whole number")
            return value
        }
        guard range.contains(number) else {
            problem(key, "is out of range (\(range.lowerBound) to \(range.upperBound))")
            return value
        }
        return number
    }

    /// A path or name; an empty string counts as absent.
    mutating func text(_ setting: ConfigurationKey, default value: String?) -> String? {
        let key = setting.rawValue
        guard let text = raw(key) else { return value }
        return text.isEmpty ? nil : text
    }

    /// Text parsed into a value; an empty string counts as absent.
    mutating func parsed<T>(_ setting: ConfigurationKey, default value: T?, _ parse: (String) throws(ConfigurationValueError) -> T) -> T? {
        guard let text = text(setting, default: nil) else { return value }
        do throws(ConfigurationValueError) { return try parse(text) } catch {
            problem(setting.rawValue, error.why)
            return value
        }
    }

    mutating func flag(_ setting: ConfigurationKey, default value: Bool) -> Bool {
        let key = setting.rawValue
        guard raw(key) != nil else { return value }
        guard let flag = reader.bool(forKey: key) else {
            problem(key, "is not true or false")
            return value
        }
        return flag
    }

    mutating func choice<T: RawRepresentable & CaseIterable>(_ setting: ConfigurationKey, default value: T) -> T
    where T.RawValue == String {
        let key = setting.rawValue
        guard let text = raw(key) else { return value }
        guard let choice = T(rawValue: text) else {
            problem(key, "is not one of \(T.allCases.map(\.rawValue).joined(separator: ", "))")
            return value
        }
        return choice
    }

    mutating func list<T>(_ setting: ConfigurationKey, default value: [T], _ parse: (String) throws(ConfigurationValueError) -> T) -> [T] {
        let key = setting.rawValue
        guard raw(key) != nil else { return value }
        guard let items = reader.stringArray(forKey: key) else {
            problem(key, "is not a list")
            return value
        }
        var result: [T] = []
        for (index, item) in items.enumerated() {
            do { result.append(try parse(item)) } catch {
                let position = layout?.items[key].flatMap { index < $0.count ? $0[index] : nil }
                problems.append(.init(key: key, value: item, why: error.why, line: position?.line, column: position?.column))
            }
        }
        return result
    }
}

