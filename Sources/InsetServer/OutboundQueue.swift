import NIOCore

/// One client's unsent messages, bounded.
///
/// A newer adjustment for the same view replaces an older one that has not been
/// sent yet (the newer one is complete state, the older is worthless), so a
/// client that reads slowly gets fewer, fresher messages instead of a growing
/// backlog. A client whose queue still overflows is dropped by the server.
package struct OutboundQueue: Sendable {
    package struct Item: Sendable {
        package var bytes: ByteBuffer
        /// The view an adjustment is for: adjustments for one view replace each
        /// other while unsent. Nil for every other message.
        package var coalescingView: String?
    }

    package let capacity: Int
    private var items: [Item] = []
    private var head = 0

    package init(capacity: Int) {
        precondition(capacity > 0)
        self.capacity = capacity
    }

    package var count: Int { items.count - head }
    package var isEmpty: Bool { count == 0 }

    /// Adds a message; false when the queue is full (the caller drops the client).
    package mutating func enqueue(_ bytes: ByteBuffer, coalescingView view: String? = nil) -> Bool {
        if let view, let index = items[head...].lastIndex(where: { $0.coalescingView == view }) {
            items[index].bytes = bytes
            return true
        }
        guard count < capacity else { return false }
        items.append(Item(bytes: bytes, coalescingView: view))
        return true
    }

    package mutating func dequeue() -> ByteBuffer? {
        guard head < items.count else { return nil }
        let item = items[head]
        head += 1
        if head > 64, head * 2 > items.count {
            items.removeFirst(head)
            head = 0
        }
        return item.bytes
    }
}
