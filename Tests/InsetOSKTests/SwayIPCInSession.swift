@testable import InsetOSK

/// A test's way to run sway commands in an OSK test session straight on
/// sway's socket, from the test process: `swaymsg` through `as-session` costs
/// a handful of process starts, which on a loaded machine take longer than
/// the bridge's 0.5 s settle window, so a test that must move the text input
/// right after an event could not.
extension SwayIPC {
    /// The session's `SWAYSOCK`, from the environment file `session.sh` writes.
    init?(session: OSKSession) {
        let lines = session.log("env").split(separator: "\n")
        guard let line = lines.first(where: { $0.hasPrefix("SWAYSOCK=") }) else { return nil }
        self.init(environment: ["SWAYSOCK": String(line.dropFirst("SWAYSOCK=".count))])
    }
}
