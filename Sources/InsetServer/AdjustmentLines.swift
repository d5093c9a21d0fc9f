import InsetCore
import InsetProtocol
import NIOConcurrencyHelpers
import NIOCore

/// The last adjustment line the server encoded, kept to send again: clients
/// that register the same view (many pages of one kiosk app, the same phone
/// layout) get the same adjustment at a keyboard change, which is then encoded
/// once and framed once per framing, not once per client.
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

    private let last = NIOLockedValueBox<Entry?>(nil)

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
        last.withLockedValue { last in
            if last.map({ $0.view != view || !Self.sameLine($0.adjustment, adjustment) }) ?? true {
                last = Entry(
                    adjustment: adjustment, view: view, line: SharedLine(.adjustment(view: view, adjustment)),
                    generation: (last?.generation ?? 0) + 1)
            }
            return (last!.line.wire(for: framing), last!.generation)
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
