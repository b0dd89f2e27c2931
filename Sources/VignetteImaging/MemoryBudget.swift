import Foundation
import Synchronization
import VignetteCore

/// Decode memory shared by every image being made at once in this process.
///
/// Before a decoder allocates its large buffers (a progressive JPEG's coefficients, an
/// interlaced PNG's whole image, the output bitmap) it takes their size from the budget: an
/// image that alone needs more than the whole budget is refused, and one that fits waits while
/// others hold too much, so several large images at once cost at most the budget, not their sum.
public final class MemoryBudget: @unchecked Sendable {
    /// The budget in bytes.
    public let bytes: Int
    private let condition = NSCondition()
    private var used = 0

    /// A budget of `bytes`.
    public init(bytes: Int) {
        self.bytes = max(1, bytes)
    }

    // A list, not a [Int: MemoryBudget]: a process holds one or two budgets, and the first
    // dictionary of a new type costs the runtime a scan of every protocol conformance record.
    private static let registry = Mutex<[(requested: Int, budget: MemoryBudget)]>([])

    /// The one budget of `bytes` in this process (every caller asking for the same size shares it).
    public static func shared(bytes: Int) -> MemoryBudget {
        registry.withLock { budgets in
            if let known = budgets.first(where: { $0.requested == bytes }) { return known.budget }
            let budget = MemoryBudget(bytes: bytes)
            budgets.append((bytes, budget))
            return budget
        }
    }

    /// Bytes taken now (for tests and metrics).
    public var inUse: Int {
        condition.lock()
        defer { condition.unlock() }
        return used
    }

    /// Runs `body` holding `amount` bytes of the budget, waiting for them if need be.
    ///
    /// - Throws: `VignetteError(.refused)` at once when `amount` alone is over the budget;
    ///   or what `body` throws.
    public func holding<T>(_ amount: Int, for what: String, _ body: () throws -> T) throws -> T {
        guard amount <= bytes else {
            throw VignetteError(
                .refused, "\(what) needs \(ByteCount.text(amount)) of memory to decode, over the budget of \(ByteCount.text(bytes))")
        }
        condition.lock()
        while used + amount > bytes {
            // A request given up while it waits leaves the queue rather than decode for nobody.
            do { try WorkPool.stopIfAbandoned() } catch {
                condition.unlock()
                throw error
            }
            _ = condition.wait(until: Date(timeIntervalSinceNow: 0.05))
        }
        used += amount
        condition.unlock()
        defer {
            condition.lock()
            used -= amount
            condition.broadcast()
            condition.unlock()
        }
        return try body()
    }
}
