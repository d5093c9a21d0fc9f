import Foundation

/// One client's unsent messages, bounded.
///
/// A newer adjustment for the same view replaces an older one that has not been
/// sent yet (the newer one is complete state, the older is worthless), so a
/// client that reads slowly gets fewer, fresher messages instead of a growing
/// backlog. A client whose queue still overflows is dropped by the server.
public struct OutboundQueue: Sendable {
    public struct Item: Sendable {
        public var bytes: Data
        /// Messages with the same key replace each other while unsent.
        public var coalescingKey: String?
    }

    public let capacity: Int
    private var items: [Item] = []
    private var head = 0

    public init(capacity: Int) {
        precondition(capacity > 0)
        self.capacity = capacity
    }

    public var count: Int { items.count - head }
    public var isEmpty: Bool { count == 0 }

    /// Adds a message; false when the queue is full (the caller drops the client).
    public mutating func enqueue(_ bytes: Data, coalescingKey: String? = nil) -> Bool {
        if let key = coalescingKey, let index = items[head...].lastIndex(where: { $0.coalescingKey == key }) {
            items[index].bytes = bytes
            return true
        }
        guard count < capacity else { return false }
        items.append(Item(bytes: bytes, coalescingKey: coalescingKey))
        return true
    }

    public mutating func dequeue() -> Data? {
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
