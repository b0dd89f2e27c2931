import Foundation
import VignetteGenerators

/// Running totals of a batch, shared by the workers.
public final class BatchTally: @unchecked Sendable {
    private let lock = NSLock()
    private(set) var counts: [BatchOutcome.Result: Int] = [:]
    private var found = 0
    private var walkDone = false
    let start = Date()

    /// An empty tally, its clock started.
    public init() {}

    /// Counts one outcome.
    public func add(_ result: BatchOutcome.Result) {
        lock.lock()
        counts[result, default: 0] += 1
        lock.unlock()
    }

    /// Counts one file handed to the workers.
    public func foundFile() {
        lock.lock()
        found += 1
        lock.unlock()
    }

    /// The walk is over: the total is known.
    public func finishWalk() {
        lock.lock()
        walkDone = true
        lock.unlock()
    }

    /// A consistent copy of the totals.
    public func snapshot() -> Snapshot {
        lock.lock()
        defer { lock.unlock() }
        return Snapshot(counts: counts, found: found, totalKnown: walkDone, seconds: Date().timeIntervalSince(start))
    }

    /// The totals at one moment.
    public struct Snapshot: Sendable {
        /// Files finished, by result.
        public let counts: [BatchOutcome.Result: Int]
        /// Files found by the walk so far.
        public let found: Int
        /// Whether the walk is over (`found` is the total).
        public let totalKnown: Bool
        /// Seconds since the batch started.
        public let seconds: Double

        /// Files finished with `result`.
        public func count(_ result: BatchOutcome.Result) -> Int { counts[result] ?? 0 }
        /// Files finished, whatever the result.
        public var done: Int { counts.values.reduce(0, +) }
        /// Finished files per second.
        public var rate: Double { seconds > 0 ? Double(done) / seconds : 0 }

        /// The summary line: "batch: 18 files: 12 generated, 3 up to date, 1 failed, 2 fallback icons, 0 known failures skipped in 1.2 s (15.0 files/s)".
        public func summary(dryRun: Bool, interrupted: Bool) -> String {
            let parts = [
                dryRun ? "\(count(.wouldGenerate)) to generate" : "\(count(.generated)) generated",
                "\(count(.upToDate)) up to date",
                "\(count(.failed)) failed",
                CountText.counted(count(.icon), "fallback icon"),
                "\(CountText.counted(count(.knownFailure), "known failure")) skipped",
            ]
            let time = String(format: "%.1f s (%.1f files/s)", seconds, rate)
            return
                "batch\(interrupted ? " interrupted" : ""): \(CountText.counted(done, "file")): \(parts.joined(separator: ", ")) in \(time)"
        }

        /// The summary as a JSON object.
        public func jsonObject(interrupted: Bool) -> [String: Any] {
            var o: [String: Any] = [
                "event": "summary", "files": done, "seconds": (seconds * 1000).rounded() / 1000,
                "filesPerSecond": (rate * 10).rounded() / 10, "interrupted": interrupted,
            ]
            for result in [BatchOutcome.Result.generated, .upToDate, .icon, .failed, .knownFailure, .wouldGenerate] {
                o[result.rawValue] = count(result)
            }
            return o
        }
    }
}
