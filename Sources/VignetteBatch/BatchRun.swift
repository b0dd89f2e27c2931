import Foundation
import VignetteCore

/// A whole batch: the walk feeds the shared worker pool, and every outcome is counted and recorded.
///
/// The walk runs on the calling thread and waits whenever the pool's queue is full, so however
/// large the tree, only a few files are ever pending. `cancel()` (Ctrl-C) stops the walk and
/// drops the pending files; those in progress finish and are recorded.
public final class BatchRun: @unchecked Sendable {
    /// What is walked and how.
    public let walker: BatchWalker
    /// What is done with each file.
    public let worker: BatchWorker
    /// Files processed at once.
    public let jobs: Int
    private let lock = NSLock()
    private var pool: WorkPool?
    private var cancelled = false

    /// A batch of `worker` over what `walker` finds, `jobs` files at a time.
    public init(walker: BatchWalker, worker: BatchWorker, jobs: Int) {
        self.walker = walker
        self.worker = worker
        self.jobs = max(1, jobs)
    }

    /// Whether `cancel()` was called.
    public var isCancelled: Bool {
        lock.lock()
        defer { lock.unlock() }
        return cancelled
    }

    /// Stops taking files; the files in progress finish.
    public func cancel() {
        lock.lock()
        cancelled = true
        let pool = self.pool
        lock.unlock()
        pool?.cancelPending()
    }

    /// Walks `paths` and processes every file found, counting in `tally` and recording in
    /// `recorder`; returns when every file taken is done.
    public func run(_ paths: [String], tally: BatchTally, recorder: BatchRecorder) {
        let pool = WorkPool(concurrency: jobs, queue: jobs * 4)
        lock.lock()
        self.pool = pool
        let cancelledEarly = cancelled
        lock.unlock()
        if cancelledEarly { pool.cancelPending() }
        let worker = self.worker
        walker.walk(paths) { file in
            tally.foundFile()
            let taken = pool.submit {
                let outcome = worker.process(file)
                tally.add(outcome.result)
                recorder.record(outcome)
            }
            return taken && !isCancelled
        } problem: { error in
            tally.foundFile()
            tally.add(.failed)
            recorder.record(BatchOutcome(path: error.path ?? "", result: .failed, error: error.reason))
        }
        tally.finishWalk()
        pool.waitUntilIdle()
        pool.shutdown()
    }
}
