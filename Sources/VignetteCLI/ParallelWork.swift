import Foundation

/// Runs `count` independent jobs on `workers` threads, each pulling the next index.
enum ParallelWork {
    static func run(count: Int, workers: Int, _ body: @escaping @Sendable (Int) -> Void) {
        guard count > 0 else { return }
        let next = Counter()
        let group = DispatchGroup()
        for _ in 0..<max(1, min(workers, count)) {
            group.enter()
            Thread.detachNewThread {
                while true {
                    let index = next.increment() - 1
                    if index >= count { break }
                    body(index)
                }
                group.leave()
            }
        }
        group.wait()
    }
}

/// A thread-safe counter.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0

    /// Adds one and returns the new value.
    @discardableResult
    func increment() -> Int {
        lock.lock()
        defer { lock.unlock() }
        count += 1
        return count
    }

    /// The current value.
    var value: Int {
        lock.lock()
        defer { lock.unlock() }
        return count
    }
}
