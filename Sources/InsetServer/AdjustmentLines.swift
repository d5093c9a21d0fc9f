import InsetCore
import InsetProtocol
import NIOConcurrencyHelpers
import NIOCore

/// The last adjustment lines the server encoded, kept to send again: clients
/// that register the same view (many pages of one kiosk app, the same phone
/// layout) get the same adjustment at a keyboard change, which is then encoded
/// once and framed once per framing, not once per client; and a keyboard
/// shown and hidden again over the same field gives the same two adjustments
/// in turn, which are then compared, not encoded again.
///
/// An adjustment's line does not name its client (a client reads its own
/// adjustments), so two adjustments that differ only in the client they are
/// for have the same line.
final class AdjustmentLines: Sendable {
    private struct Entry {
        var adjustment: ViewAdjustment
        var view: String
        var line: SharedLine
        var generation: Int
    }

    private struct Recent {
        /// Oldest first.
        var entries: [Entry] = []
        var lastGeneration = 0
    }

    /// The lines of a view's shown and hidden keyboard.
    static let kept = 2

    private let recent = NIOLockedValueBox(Recent())

    /// `.adjustment(view:adjustment)`'s line as `framing` sends it.
    func wire(view: String, _ adjustment: ViewAdjustment, for framing: SessionFraming) -> ByteBuffer {
        encoded(view: view, adjustment, for: framing).bytes
    }

    /// `wire`, with a number that is the same for two calls exactly when the
    /// line is (a new line gets the next number): equal lines are found
    /// without comparing their bytes.
    func encoded(view: String, _ adjustment: ViewAdjustment, for framing: SessionFraming)
        -> (bytes: ByteBuffer, generation: Int)
    {
        recent.withLockedValue { recent in
            // The newest first: the clients of one change ask for the same line in a row.
            let found = recent.entries.lastIndex { $0.view == view && Self.sameLine($0.adjustment, adjustment) }
            let index: Int
            if let found {
                index = found
            } else {
                recent.lastGeneration += 1
                if recent.entries.count == Self.kept { recent.entries.removeFirst() }
                recent.entries.append(
                    Entry(
                        adjustment: adjustment, view: view, line: SharedLine(.adjustment(view: view, adjustment)),
                        generation: recent.lastGeneration))
                index = recent.entries.count - 1
            }
            return (recent.entries[index].line.wire(for: framing), recent.entries[index].generation)
        }
    }

    /// Whether the two adjustments are written as the same line: equal but for
    /// the client they are for.
    private static func sameLine(_ a: ViewAdjustment, _ b: ViewAdjustment) -> Bool {
        var b = b
        b.view.client = a.view.client
        return a == b
    }
}
