import Foundation
public import VignetteCache
import VignetteCore
public import VignetteGenerators

/// Works through a `ThumbnailQueue` on the worker pool, writing the freedesktop cache exactly as
/// `vignette batch` does (the same `BatchWorker`: valid entries kept, fail entries written and
/// respected), and reports each request's progress through `emit`. Safe from any thread.
///
/// At most `jobs` files are worked on at once and a few more are handed to the pool ahead; every
/// other file waits in the queue, where a foreground request overtakes it and `dequeue` drops it.
/// A file that takes longer than `timeout` seconds is reported (code 2) and given a fail entry;
/// its worker is told to stop (decoders check between bands) and the queue goes on meanwhile.
/// Events are emitted in order, while the runner's lock is held, so `emit` must only hand them on
/// (queue a message), never call back into the runner.
public final class ThumbnailQueueRunner: @unchecked Sendable {
    /// Receives the events of every request.
    public typealias Emit = @Sendable (ThumbnailQueueEvent) -> Void

    private let lock = NSCondition()
    private var queue = ThumbnailQueue()
    private let pool: WorkPool
    private let timeout: Double
    private var inFlight = 0
    private var paused: Bool
    private var stopped = false
    private let pipeline: ThumbnailPipeline
    private let cache: ThumbnailCache
    private var workers: [ThumbnailFlavor: BatchWorker] = [:]
    /// Events of requests answered at once, sent by `begin` (after the client has the handle).
    private var deferred: [UInt32: [ThumbnailQueueEvent]] = [:]
    private let emit: Emit

    /// A runner writing to `cache`, `jobs` files at a time, each for at most `timeout` seconds;
    /// with `paused`, no file starts before `resume()`.
    public init(
        pipeline: ThumbnailPipeline, cache: ThumbnailCache, jobs: Int, timeout: Double = 60, paused: Bool = false, emit: @escaping Emit
    ) {
        self.pipeline = pipeline
        self.cache = cache
        self.timeout = timeout
        self.paused = paused
        self.emit = emit
        let jobs = max(1, jobs)
        // As many files again wait in the pool, so a worker never idles between two files; the
        // rest stay in the queue, where priorities and Dequeue still reach them.
        pool = WorkPool(concurrency: jobs, queue: jobs)
    }

    /// The flavors a client may ask for.
    public static var flavors: [String] { ThumbnailFlavor.allCases.map(\.rawValue) }

    /// The schedulers a client may name.
    public static var schedulers: [String] { ThumbnailScheduler.allCases.map(\.rawValue) }

    /// Queues `uris` in the flavor and scheduler named (an unknown or empty scheduler is `default`),
    /// after dequeuing `unqueue` unless it is 0; returns the request's handle. Nothing of the
    /// request starts, and no event about it is sent, before `begin(handle)`: the caller first
    /// gives the client the handle, so the client knows the signals that follow are its own.
    ///
    /// An unknown flavor is answered at `begin`, as tumbler does: `started`, `error` (code 5), `finished`.
    public func queue(_ uris: [String], flavor flavorName: String, scheduler schedulerName: String, unqueue: UInt32 = 0) -> UInt32 {
        lock.lock()
        defer { lock.unlock() }
        if unqueue != 0 { send(queue.dequeue(unqueue).events) }
        guard let flavor = ThumbnailFlavor(rawValue: flavorName), !stopped else {
            let handle = queue.newHandle()
            let failure =
                stopped
                ? ThumbnailFailure(.shuttingDown, Self.shuttingDown)
                : ThumbnailFailure(
                    .unsupportedFlavor, "unsupported flavor '\(flavorName)' (known: \(Self.flavors.joined(separator: ", ")))")
            deferred[handle] = [
                .started(handle: handle), .error(handle: handle, uris: uris, code: failure.code, message: failure.message),
                .finished(handle: handle),
            ]
            return handle
        }
        let scheduler = ThumbnailScheduler(rawValue: schedulerName) ?? .default
        let (handle, events) = queue.add(uris, flavor: flavor, scheduler: scheduler, held: true)
        if !events.isEmpty { deferred[handle] = events }
        return handle
    }

    /// Starts the request `handle` returned by `queue` (sends the events of one answered at once).
    public func begin(_ handle: UInt32) {
        lock.lock()
        defer { lock.unlock() }
        send(deferred.removeValue(forKey: handle) ?? [])
        queue.release(handle)
        pump()
    }

    /// Drops the files of `handle` that have not started; returns how many. Files in progress finish
    /// and are reported, then `finished` (if the request had started).
    @discardableResult
    public func dequeue(_ handle: UInt32) -> Int {
        lock.lock()
        defer { lock.unlock() }
        let (dropped, events) = queue.dequeue(handle)
        send(events)
        return dropped
    }

    /// Lets files start (after `paused`).
    public func resume() {
        lock.lock()
        defer { lock.unlock() }
        paused = false
        pump()
    }

    /// Whether nothing waits and nothing is in progress.
    public var isIdle: Bool {
        lock.lock()
        defer { lock.unlock() }
        return queue.isEmpty && inFlight == 0
    }

    /// Whether finished thumbnails wait to be announced (call `tick()` within `readyDelay`).
    public var hasUnsentReady: Bool {
        lock.lock()
        defer { lock.unlock() }
        return queue.hasUnsentReady
    }

    /// Announces thumbnails that have waited long enough for company, and hands files to the pool
    /// if a worker freed itself unseen (one whose file had timed out returned).
    public func tick() {
        lock.lock()
        defer { lock.unlock() }
        send(queue.flushDue(now: Self.now()))
        pump()
    }

    /// Stops for a shutdown: files not started get `error` (code 7), files in progress finish; then
    /// waits for them and ends the worker threads.
    public func stopAndWait() {
        lock.lock()
        stopped = true
        send(queue.cancelAll(message: Self.shuttingDown))
        while inFlight > 0 { lock.wait() }
        lock.unlock()
        pool.shutdown()
    }

    /// The message of files dropped by a shutdown.
    static let shuttingDown = "the thumbnailer service is shutting down"

    /// Hands files to the pool while it has room (the lock is held).
    private func pump() {
        while !paused && !stopped {
            // A slot first: files stay in the queue (reorderable, droppable) until one is free.
            guard let reservation = try? pool.reserve() else { return }
            guard let (item, events) = queue.take() else {
                reservation.release()
                return
            }
            send(events)
            inFlight += 1
            Task { [self] in
                let failure: ThumbnailFailure?
                do {
                    failure = try await pool.run(timeout: timeout, in: reservation) { [self] in process(item) }
                } catch WorkPool.Refusal.timedOut {
                    failure = timedOut(item)
                } catch {
                    failure = ThumbnailFailure(.shuttingDown, Self.shuttingDown)
                }
                finish(item, failure: failure)
            }
        }
    }

    /// Records how a file ended and hands out the next.
    private func finish(_ item: ThumbnailQueue.Item, failure: ThumbnailFailure?) {
        lock.lock()
        defer { lock.unlock() }
        send(queue.complete(item, failure: failure, now: Self.now()))
        inFlight -= 1
        lock.broadcast()
        pump()
    }

    /// The failure of a file that ran out of time, recorded in the cache so it is not retried until it changes.
    private func timedOut(_ item: ThumbnailQueue.Item) -> ThumbnailFailure {
        let path = ThumbnailCache.localPath(ofURI: item.uri) ?? item.uri
        if let source = try? SourceFile(path: path) {
            _ = try? cache.storeFailure(for: source, mimeType: nil, extra: [(BatchWorker.outcomeKey, "failed")])
        }
        return ThumbnailFailure(.invalidFormat, "\(path): took longer than \(timeout.formatted()) s; stopped")
    }

    private func send(_ events: [ThumbnailQueueEvent]) {
        for event in events { emit(event) }
    }

    /// The worker of `flavor` (one per flavor, made on first use; the lock is held).
    private func worker(for flavor: ThumbnailFlavor) -> BatchWorker {
        if let worker = workers[flavor] { return worker }
        cache.removeStaleTemporaries(flavor: flavor)
        let worker = BatchWorker(pipeline: pipeline, destination: .cache(cache, [flavor]), force: false, retryFailed: false, dryRun: false)
        workers[flavor] = worker
        return worker
    }

    /// Thumbnails one file on a worker thread; nil when its thumbnail is in the cache.
    private func process(_ item: ThumbnailQueue.Item) -> ThumbnailFailure? {
        guard let path = ThumbnailCache.localPath(ofURI: item.uri) else {
            return ThumbnailFailure(.unsupported, "\(item.uri): only local files (file:// URIs) are supported")
        }
        if cache.contains(path) { return ThumbnailFailure(.isThumbnail, "\(path): is in the thumbnail cache itself") }
        lock.lock()
        let worker = worker(for: item.flavor)
        lock.unlock()
        let outcome = worker.process(WalkedFile(displayPath: path, absolutePath: path, relativePath: (path as NSString).lastPathComponent))
        return Self.failure(of: outcome, path: path)
    }

    /// The failure an outcome means for a client, nil for a thumbnail in the cache.
    static func failure(of outcome: BatchOutcome, path: String) -> ThumbnailFailure? {
        switch outcome.result {
        case .generated,
            .upToDate where outcome.thumbnail != nil:
            return nil
        case .upToDate, .icon:
            // The desktop draws its own type icon: no generator of ours pictures the type.
            return ThumbnailFailure(.unsupported, "\(path): no generator pictures this type")
        case .knownFailure:
            return ThumbnailFailure(.invalidFormat, "\(path): could not be thumbnailed before and has not changed since")
        case .failed, .wouldGenerate:
            return ThumbnailFailure(code(of: outcome), "\(path): \(outcome.error ?? "could not be thumbnailed")")
        }
    }

    /// The spec's error code for a failed outcome.
    static func code(of outcome: BatchOutcome) -> ThumbnailFailure.Code {
        switch outcome.errorCode {
        case .notFound?, .isDirectory?, .notRegularFile?, .brokenSymlink?, .permissionDenied?:
            return .connection
        case .io?:
            // Cache writes fail with an I/O error naming the cache; reading the original names it.
            return outcome.error?.contains("cache") == true ? .saveFailed : .connection
        default:
            return .invalidFormat
        }
    }

    private static func now() -> Double {
        Double(DispatchTime.now().uptimeNanoseconds) / 1e9
    }
}
