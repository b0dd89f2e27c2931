import Foundation

/// A bounded first-in first-out queue between one producer and several consumer threads.
///
/// `push` blocks while the queue is full, so a fast producer (the directory walk) never runs
/// ahead of the workers by more than `capacity` items: memory stays flat however many files.
final class WorkQueue<Item>: @unchecked Sendable {
    private let condition = NSCondition()
    private var items: [Item?]
    private var head = 0
    private var count = 0
    private var closed = false
    private var cancelled = false

    /// A queue holding at most `capacity` items.
    init(capacity: Int) {
        items = Array(repeating: nil, count: max(1, capacity))
    }

    /// Adds `item`, waiting while the queue is full; false when the queue was cancelled (drop the item).
    @discardableResult
    func push(_ item: Item) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while count == items.count && !cancelled { condition.wait() }
        if cancelled || closed { return false }
        items[(head + count) % items.count] = item
        count += 1
        condition.broadcast()
        return true
    }

    /// The next item, waiting for one; nil once the queue is closed and empty, or cancelled.
    func pop() -> Item? {
        condition.lock()
        defer { condition.unlock() }
        while count == 0 && !closed && !cancelled { condition.wait() }
        if cancelled || count == 0 { return nil }
        let item = items[head]
        items[head] = nil
        head = (head + 1) % items.count
        count -= 1
        condition.broadcast()
        return item
    }

    /// No more items will come: consumers finish what is queued, then get nil.
    func close() {
        condition.lock()
        closed = true
        condition.broadcast()
        condition.unlock()
    }

    /// Stops everything: queued items are dropped, producers and consumers return at once.
    func cancel() {
        condition.lock()
        cancelled = true
        items = items.map { _ in nil }
        count = 0
        condition.broadcast()
        condition.unlock()
    }
}
