#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc
import InsetCore

/// A client of sway's IPC socket (`$SWAYSOCK`), one short connection per query.
package struct SwayIPC: Sendable {
    package let socketPath: String

    package init?(environment: [String: String] = ProcessInfo.processInfo.environment) {
        guard let path = environment["SWAYSOCK"], !path.isEmpty else { return nil }
        socketPath = path
    }

    /// The focused output's (else the first active output's) usable area.
    package func usableArea() throws -> UsableArea {
        let (name, outputRect) = try oskOutput()
        let workspaces = try query(type: 1) as? [[String: Any]] ?? []
        guard let workspace = workspaces.first(where: { $0["output"] as? String == name && ($0["visible"] as? Bool ?? false) }),
            let area = rect(workspace["rect"])
        else { throw OSKError("sway: no visible workspace on \(name)") }
        return UsableArea(
            output: Size(width: outputRect.width, height: outputRect.height),
            bottomGap: (outputRect.minY + outputRect.height) - (area.minY + area.height))
    }

    /// The output the OSK is on: the focused one, else the first active one.
    private func oskOutput() throws -> (name: String, rect: Rect) {
        let outputs = try query(type: 3) as? [[String: Any]] ?? []
        let active = outputs.filter { $0["active"] as? Bool ?? false }
        guard let output = active.first(where: { $0["focused"] as? Bool ?? false }) ?? active.first,
            let name = output["name"] as? String, let outputRect = rect(output["rect"])
        else { throw OSKError("sway: no active output") }
        return (name, outputRect)
    }

    /// The app id of a full-screen window on the OSK's output's visible
    /// workspace (`get_tree`), or nil when there is none. sway draws layer-shell
    /// "top" surfaces (squeekboard, wvkbd 0.12) below such a window.
    package func fullscreenWindow() throws -> String? {
        let output = try oskOutput().name
        return Self.fullscreenWindow(inTree: try query(type: 4), output: output)
    }

    /// `fullscreenWindow` on a decoded `get_tree` reply.
    static func fullscreenWindow(inTree tree: Any, output: String) -> String? {
        let outputs = (tree as? [String: Any])?["nodes"] as? [[String: Any]] ?? []
        guard let node = outputs.first(where: { $0["name"] as? String == output }) else { return nil }
        let current = node["current_workspace"] as? String
        let workspaces = (node["nodes"] as? [[String: Any]] ?? []).filter { $0["name"] as? String == current }
        for workspace in workspaces {
            if let window = fullscreen(in: workspace) { return window }
        }
        return nil
    }

    private static func fullscreen(in con: [String: Any]) -> String? {
        if con["type"] as? String != "workspace", (number(con["fullscreen_mode"]) ?? 0) > 0 {
            let properties = con["window_properties"] as? [String: Any]
            let id = con["app_id"] as? String ?? properties?["class"] as? String ?? ""
            // A name for a log line and a protocol field: short and plain.
            var plain = ""
            for scalar in id.unicodeScalars where plain.unicodeScalars.count < 40 && scalar.isASCII {
                if scalar.properties.isAlphabetic || "0123456789.-_".unicodeScalars.contains(scalar) { plain.unicodeScalars.append(scalar) }
            }
            return plain.isEmpty ? "(no app id)" : plain
        }
        for child in (con["nodes"] as? [[String: Any]] ?? []) + (con["floating_nodes"] as? [[String: Any]] ?? []) {
            if let window = fullscreen(in: child) { return window }
        }
        return nil
    }

    private func rect(_ value: Any?) -> Rect? {
        guard let r = value as? [String: Any], let x = Self.number(r["x"]), let y = Self.number(r["y"]),
            let w = Self.number(r["width"]), let h = Self.number(r["height"])
        else { return nil }
        return Rect(x: x, y: y, width: w, height: h)
    }

    /// Runs a sway command (IPC `RUN_COMMAND`); whether sway reported success.
    @discardableResult
    package func run(command: String) throws -> Bool {
        guard let replies = try query(type: 0, payload: Array(command.utf8)) as? [Any] else { return false }
        return replies.allSatisfy { (($0 as? [String: Any])?["success"] as? Bool) == true }
    }

    /// Sends one IPC message (`i3-ipc`, length, type, payload) and decodes the JSON reply.
    private func query(type: UInt32, payload: [UInt8] = []) throws -> Any {
        let fd = try connectUnixSocket(socketPath, prefix: "sway: ")
        defer { close(fd) }
        var timeout = timeval(tv_sec: 1, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var header = Array("i3-ipc".utf8)
        withUnsafeBytes(of: UInt32(payload.count)) { header += $0 }
        withUnsafeBytes(of: type) { header += $0 }
        header += payload
        guard header.withUnsafeBytes({ send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }) == header.count else {
            throw OSKError("sway: send: \(String(cString: strerror(errno)))")
        }
        let replyHeader = try read(fd, 14)
        let length = replyHeader[6..<10].withUnsafeBytes { $0.loadUnaligned(as: UInt32.self) }
        let payload = try read(fd, Int(length))
        return try JSONDecoder().decode(SwayJSON.self, from: Data(payload)).value
    }

    /// A JSON number as the replies hold it (an `Int` or a `Double`).
    private static func number(_ value: Any?) -> Double? {
        (value as? Int).map(Double.init) ?? value as? Double
    }

    private func read(_ fd: Int32, _ count: Int) throws -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: count)
        var done = 0
        while done < count {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress! + done, count - done, 0) }
            guard n > 0 else { throw OSKError("sway: reply cut short") }
            done += n
        }
        return buffer
    }
}

/// Any JSON value as plain Swift values (`[String: Any]`, `[Any]`, `String`,
/// `Bool`, `Int`, `Double`; null as `Optional<Any>.none`), the shape sway's
/// replies are navigated in: `JSONDecoder` from FoundationEssentials, because
/// `JSONSerialization` would bring all of Foundation and ICU into the bridge.
private struct SwayJSON: Decodable {
    let value: Any

    init(from decoder: any Decoder) throws {
        let single = try decoder.singleValueContainer()
        if single.decodeNil() {
            value = Any?.none as Any
        } else if let bool = try? single.decode(Bool.self) {
            value = bool
        } else if let integer = try? single.decode(Int.self) {
            value = integer
        } else if let number = try? single.decode(Double.self) {
            value = number
        } else if let string = try? single.decode(String.self) {
            value = string
        } else if let array = try? single.decode([SwayJSON].self) {
            value = array.map(\.value)
        } else {
            value = try single.decode([String: SwayJSON].self).mapValues(\.value)
        }
    }
}
