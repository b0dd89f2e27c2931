import Foundation

/// A fixed set of worker threads for the CPU-bound generator calls, with bounded admission.
///
/// At most `concurrency` jobs run at once and at most `queue` more wait; a job beyond that is
/// refused at once (the server answers 503). A caller waits at most its timeout: past it the
/// caller gets a timeout (504); a job that had not started is dropped, and one already running
/// cannot be interrupted mid-decode, so it runs to the end, its slot stays taken until then
/// (the pool never runs more than `concurrency` jobs), and its result is discarded.
public final class WorkPool: @unchecked Sendable {
    /// Jobs run at once.
    public let concurrency: Int
    /// Jobs that may wait for a worker.
    public let queueLimit: Int
    private let lock = NSCondition()
    private var pending: [Job] = []
    private var admitted = 0
    private var running = 0
    private var stopped = false

    /// Why a job did not give a result.
    public enum Refusal: Error, Equatable {
        /// Every worker is busy and the queue is full.
        case overloaded
        /// The job took longer than the caller's timeout.
        case timedOut
    }

    /// Starts `concurrency` worker threads that accept `queue` waiting jobs.
    public init(concurrency: Int, queue: Int) {
        self.concurrency = max(1, concurrency)
        self.queueLimit = max(0, queue)
        for index in 0..<self.concurrency {
            let thread = Thread { [weak self] in self?.work() }
            thread.name = "vignette-worker-\(index)"
            thread.start()
        }
    }

    /// Jobs admitted and not finished (running plus waiting).
    public var inFlight: Int {
        lock.lock()
        defer { lock.unlock() }
        return admitted
    }

    /// Jobs waiting for a worker.
    public var queueDepth: Int {
        lock.lock()
        defer { lock.unlock() }
        return pending.count
    }

    /// Jobs running on a worker now.
    public var runningCount: Int {
        lock.lock()
        defer { lock.unlock() }
        return running
    }

    /// Stops the workers once the jobs already admitted are done.
    public func shutdown() {
        lock.lock()
        stopped = true
        lock.broadcast()
        lock.unlock()
    }

    /// Runs `body` on a worker and returns its result.
    ///
    /// - Throws: `Refusal.overloaded` at once when full; `Refusal.timedOut` after `timeout`
    ///   seconds; `CancellationError` when the calling task is cancelled (the client left);
    ///   or what `body` throws.
    public func run<Result: Sendable>(timeout: Double, _ body: @escaping @Sendable () throws -> Result) async throws -> Result {
        let job = Job()
        guard admit() else { throw Refusal.overloaded }
        let value: any Sendable = try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<any Sendable, any Error>) in
                job.prepare(continuation) { try body() }
                enqueue(job)
                DispatchQueue.global().asyncAfter(deadline: .now() + max(0, timeout)) {
                    job.finish(.failure(Refusal.timedOut))
                }
            }
        } onCancel: {
            job.finish(.failure(CancellationError()))
        }
        guard let result = value as? Result else { throw Refusal.timedOut }
        return result
    }

    /// Takes a slot when one is free.
    private func admit() -> Bool {
        lock.lock()
        defer { lock.unlock() }
        guard !stopped, admitted < concurrency + queueLimit else { return false }
        admitted += 1
        return true
    }

    private func enqueue(_ job: Job) {
        lock.lock()
        pending.append(job)
        lock.signal()
        lock.unlock()
    }

    private func work() {
        while true {
            lock.lock()
            while pending.isEmpty && !stopped { lock.wait() }
            if pending.isEmpty {
                lock.unlock()
                return
            }
            let job = pending.removeFirst()
            running += 1
            lock.unlock()
            // A job whose caller already gave up (timeout, client gone) is not started at all.
            if !job.isFinished { job.execute() }
            lock.lock()
            running -= 1
            admitted -= 1
            lock.unlock()
        }
    }
}

/// One unit of work: the body and the caller's continuation, resumed exactly once.
final class Job: @unchecked Sendable {
    private let lock = NSLock()
    private var continuation: CheckedContinuation<any Sendable, any Error>?
    private var body: (() throws -> any Sendable)?
    private var done = false

    func prepare(_ continuation: CheckedContinuation<any Sendable, any Error>, _ body: @escaping () throws -> any Sendable) {
        lock.lock()
        defer { lock.unlock() }
        if done {
            // Cancelled before it was queued: answer at once.
            continuation.resume(throwing: CancellationError())
            return
        }
        self.continuation = continuation
        self.body = body
    }

    var isFinished: Bool {
        lock.lock()
        defer { lock.unlock() }
        return done
    }

    func execute() {
        lock.lock()
        let body = self.body
        lock.unlock()
        guard let body else { return }
        finish(Result { try body() })
    }

    func finish(_ result: sending Result<any Sendable, any Error>) {
        lock.lock()
        guard !done else {
            lock.unlock()
            return
        }
        done = true
        let continuation = self.continuation
        self.continuation = nil
        self.body = nil
        lock.unlock()
        continuation?.resume(with: result)
    }
}
