import Foundation

/// Paths waiting to be thumbnailed, each once however many events it had, after it has been quiet.
///
/// Every event moves a path's due time to `quiet` seconds after it; a path is handed out once
/// that time has passed. The queue of due times is in event order (so it is sorted): taking the
/// due paths and adding one are O(1) amortized, whatever the number pending.
struct PendingPaths {
    /// Seconds a path must go without events before it is due.
    let quiet: Double
    private var due: [String: Double] = [:]
    private var queue: [(path: String, time: Double)] = []
    private var head = 0

    /// An empty set whose paths are due after `quiet` seconds without events.
    init(quiet: Double) {
        self.quiet = quiet
    }

    /// The number of paths pending.
    var count: Int { due.count }

    /// Notes an event for `path` at `now` (seconds on a monotonic clock).
    mutating func add(_ path: String, now: Double) {
        let time = now + quiet
        due[path] = time
        queue.append((path, time))
    }

    /// The time the next path is due, if any is pending.
    mutating func nextDue() -> Double? {
        dropSuperseded()
        return head < queue.count ? queue[head].time : nil
    }

    /// Takes out at most `limit` paths due at `now`, oldest first.
    mutating func take(now: Double, limit: Int) -> [String] {
        var taken: [String] = []
        while taken.count < limit {
            dropSuperseded()
            guard head < queue.count, queue[head].time <= now else { break }
            let path = queue[head].path
            head += 1
            due[path] = nil
            taken.append(path)
        }
        // Compact now and then so the queue does not grow with every event ever seen.
        if head > 1024 && head * 2 > queue.count {
            queue.removeFirst(head)
            head = 0
        }
        return taken
    }

    /// Skips queue entries that a later event for the same path replaced.
    private mutating func dropSuperseded() {
        while head < queue.count, due[queue[head].path] != queue[head].time { head += 1 }
    }
}
