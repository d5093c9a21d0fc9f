import InsetProtocol
import NIOConcurrencyHelpers

/// The last keyboard notifications' lines the server encoded, kept to send
/// again: a keyboard shown and hidden again over the same field (a hotkey's
/// toggle, a form's fields in turn) notifies with the same few messages,
/// which are then compared, not encoded again. Encoding the notification was
/// the largest single cost between an evdev read and its `sendto` (stop 49
/// in docs/PERFORMANCE.md).
///
/// Only `.keyboard` messages are kept: comparing one is a few numbers, where
/// other messages (a timeline entry) would cost as much to compare as to write.
final class KeyboardLines: Sendable {
    /// A show and a hide, for each of the two lines (`isLocal` or not) they are sent as.
    static let kept = 4

    private let recent = NIOLockedValueBox<[(message: DaemonMessage, line: SharedLine)]>([])

    /// `message`'s line, shared with the passes that sent the same message.
    func line(_ message: DaemonMessage) -> SharedLine {
        guard case .keyboard = message else { return SharedLine(message) }
        return recent.withLockedValue { recent in
            if let kept = recent.first(where: { $0.message == message }) { return kept.line }
            let line = SharedLine(message)
            if recent.count == Self.kept { recent.removeFirst() }
            recent.append((message, line))
            return line
        }
    }
}
