import Foundation

/// The one pool of worker threads for CPU-bound generator calls, shared by every edge.
///
/// Contract:
/// - At most `concurrency` jobs run at once, each on its own long-lived thread, and at most
///   `queueLimit` more wait; "admitted" jobs are the running plus the waiting ones.
/// - `run(timeout:_:)` (the service, the D-Bus thumbnailer) never waits for room: a job beyond
///   the limit is refused at once with `Refusal.overloaded`. Its caller waits at most `timeout`
///   seconds and gets `Refusal.timedOut` after that; a job that had not started is then dropped,
///   and one already running is told through `currentJobIsAbandoned`, which decoders and the
///   external-program runner check to stop early; it keeps its slot until it returns (the pool
///   never runs more than `concurrency` jobs) and its result is discarded.
/// - `submit(_:)` (batch, the `thumbnail` command) waits while the pool is full instead, so a fast
///   producer (a directory walk) never runs ahead of the workers by more than the queue: memory
///   stays flat however many files. `waitUntilIdle()` returns when every admitted job is done.
/// - `cancelPending()` drops the waiting jobs and makes `submit` refuse from then on (Ctrl-C in a
///   batch); running jobs finish. `shutdown()` ends the threads once the admitted jobs are done.
public final class WorkPool: @unchecked Sendable {
    /// Jobs run at once.
    public let concurrency: Int
    /// Jobs that may wait for a worker.
    public let queueLimit: Int
    private let lock = NSCondition()
    private var pending: [Job] = []
    private var head = 0
    private var admitted = 0
    private var running = 0
    private var stopped = false
    private var cancelled = false

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

    // A pthread key rather than Thread.current.threadDictionary: the dictionary bridges its key
    // and value to Objective-C-style objects, which cost the first check on a thread (a one-file
    // thumbnail runs on the main thread) scans of every protocol conformance record.
    /// The thread's running job, unretained (its worker holds it while it runs).
    private static let jobKey: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()

    /// Whether the caller of the job running on this thread has given up on it (its timeout
    /// passed, or its client left): long work (a decode between bands, an external program
    /// being waited for) checks this and stops, so an abandoned request does not keep a
    /// worker, or a process, busy to the end. False outside a pool's jobs.
    public static var currentJobIsAbandoned: Bool {
        guard let job = pthread_getspecific(jobKey) else { return false }
        return Unmanaged<Job>.fromOpaque(job).takeUnretainedValue().isFinished
    }

    /// Throws when `currentJobIsAbandoned`: the one check long work makes between steps.
    public static func stopIfAbandoned() throws {
        if currentJobIsAbandoned { throw VignetteError(.limitExceeded, "stopped: its request was given up") }
    }

    /// Jobs admitted and not finished (running plus waiting).
    public var inFlight: Int { locked { admitted } }

    /// Jobs waiting for a worker.
    public var queueDepth: Int { locked { pending.count - head } }

    /// Jobs running on a worker now.
    public var runningCount: Int { locked { running } }

    /// Stops the workers once the jobs already admitted are done.
    public func shutdown() {
        locked {
            stopped = true
            lock.broadcast()
        }
    }

    /// Runs `body` on a worker and returns its result.
    ///
    /// - Throws: `Refusal.overloaded` at once when full; `Refusal.timedOut` after `timeout`
    ///   seconds; `CancellationError` when the calling task is cancelled (the client left);
    ///   or what `body` throws.
    public func run<Result: Sendable>(timeout: Double, _ body: @escaping @Sendable () throws -> Result) async throws -> Result {
        try await run(timeout: timeout, in: try reserve(), body)
    }

    /// Takes a slot now, for a job whose input must arrive first (an upload): the request is
    /// refused before its body is read, and no more bodies are in flight than there are slots.
    ///
    /// - Throws: `Refusal.overloaded` when every slot is taken.
    public func reserve() throws -> Reservation {
        guard locked({ admitNow() }) else { throw Refusal.overloaded }
        return Reservation(pool: self)
    }

    /// A slot taken by `reserve()`: used by `run(timeout:in:_:)`, or given back when released
    /// or dropped unused.
    public final class Reservation: @unchecked Sendable {
        private let pool: WorkPool
        private let lock = NSLock()
        private var held = true

        fileprivate init(pool: WorkPool) { self.pool = pool }

        deinit { release() }

        /// Gives the slot back unless a job already took it over.
        public func release() {
            guard take() else { return }
            pool.locked {
                pool.admitted -= 1
                pool.lock.broadcast()
            }
        }

        /// True the first time: the slot passes to the caller.
        fileprivate func take() -> Bool {
            lock.lock()
            defer { lock.unlock() }
            guard held else { return false }
            held = false
            return true
        }
    }

    /// Runs `body` on a worker in the slot `reservation` holds (see `run(timeout:_:)`).
    public func run<Result: Sendable>(
        timeout: Double, in reservation: Reservation, _ body: @escaping @Sendable () throws -> Result
    ) async throws -> Result {
        let job = Job()
        guard reservation.take() else { throw Refusal.overloaded }
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

    /// Queues `body`, waiting while the pool is full; false (and `body` never runs) once
    /// `cancelPending()` or `shutdown()` was called.
    @discardableResult
    public func submit(_ body: @escaping @Sendable () -> Void) -> Bool {
        lock.lock()
        while !stopped && !cancelled && admitted >= concurrency + queueLimit { lock.wait() }
        guard !stopped, !cancelled else {
            lock.unlock()
            return false
        }
        admitted += 1
        lock.unlock()
        let job = Job()
        job.prepare(nil) { body() }
        enqueue(job)
        return true
    }

    /// Waits until every admitted job has finished.
    public func waitUntilIdle() {
        lock.lock()
        while admitted > 0 { lock.wait() }
        lock.unlock()
    }

    /// Drops the jobs still waiting and refuses further `submit`s; running jobs finish.
    public func cancelPending() {
        locked {
            cancelled = true
            let dropped = pending[head...]
            for job in dropped { job.finish(.failure(CancellationError())) }
            admitted -= dropped.count
            pending = []
            head = 0
            lock.broadcast()
        }
    }

    /// Runs `body(i)` for every i in 0..<count on `workers` threads of a pool of its own, and
    /// returns when all are done; one job, or one worker, runs on the calling thread instead.
    public static func forEach(count: Int, workers: Int, _ body: @escaping @Sendable (Int) -> Void) {
        guard count > 0 else { return }
        // A thread to start and join buys nothing when the jobs run one after another anyway.
        if count == 1 || workers <= 1 {
            for index in 0..<count { body(index) }
            return
        }
        let pool = WorkPool(concurrency: min(max(1, workers), count), queue: max(1, workers))
        for index in 0..<count { pool.submit { body(index) } }
        pool.waitUntilIdle()
        pool.shutdown()
    }

    /// Takes a slot when one is free (the lock is held).
    private func admitNow() -> Bool {
        guard !stopped, admitted < concurrency + queueLimit else { return false }
        admitted += 1
        return true
    }

    private func enqueue(_ job: Job) {
        locked {
            pending.append(job)
            lock.broadcast()
        }
    }

    private func work() {
        while true {
            lock.lock()
            while head == pending.count && !stopped { lock.wait() }
            if head == pending.count {
                lock.unlock()
                return
            }
            let job = pending[head]
            head += 1
            // Compact now and then so the array does not grow with every job ever queued.
            if head > 64 && head * 2 > pending.count {
                pending.removeFirst(head)
                head = 0
            }
            running += 1
            lock.unlock()
            // A job whose caller already gave up (timeout, client gone) is not started at all.
            if !job.isFinished {
                pthread_setspecific(Self.jobKey, Unmanaged.passUnretained(job).toOpaque())
                job.execute()
                pthread_setspecific(Self.jobKey, nil)
            }
            lock.lock()
            running -= 1
            admitted -= 1
            lock.broadcast()
            lock.unlock()
        }
    }

    private func locked<T>(_ body: () -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body()
    }
}

/// One unit of work: the body and, for `run`, the caller's continuation, resumed exactly once.
final class Job: @unchecked Sendable {
    private let lock = NSLock()
    private var continuation: CheckedContinuation<any Sendable, any Error>?
    private var body: (() throws -> any Sendable)?
    private var done = false

    func prepare(_ continuation: CheckedContinuation<any Sendable, any Error>?, _ body: @escaping () throws -> any Sendable) {
        lock.lock()
        defer { lock.unlock() }
        if done {
            // Cancelled before it was queued: answer at once.
            continuation?.resume(throwing: CancellationError())
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
