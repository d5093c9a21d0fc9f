import Glibc

/// The bridge's log: one line per event on standard error (journald adds the
/// time under systemd). Never carries keystrokes: the bridge sees none.
package struct BridgeLog: Sendable {
    package var debug: Bool

    package init(debug: Bool = false) { self.debug = debug }

    package func info(_ line: String) { write("insetd-osk: \(line)\n") }
    package func trace(_ line: String) { if debug { write("insetd-osk: \(line)\n") } }

    private func write(_ text: String) {
        var bytes = Array(text.utf8)
        _ = bytes.withUnsafeMutableBytes { Glibc.write(2, $0.baseAddress, $0.count) }
    }
}
