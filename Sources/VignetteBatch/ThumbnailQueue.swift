public import VignetteCache

/// The thumbnailer service's queue of requests, without the bus: handles, schedulers, dequeuing,
/// and the batching of `Ready` URIs. Not thread-safe: its owner (`ThumbnailQueueRunner`) locks.
///
/// A request is a list of URIs in one flavor with one scheduler. `take()` hands out one file at a
/// time: every foreground request before any default one before any background one; foreground
/// requests newest first, the others in arrival order; within a request, files in order. The
/// first file taken makes `started`; finished files make `ready` (collected: up to `readyBatch`
/// URIs, or what finished within `readyDelay` seconds) or `error` (one per file, with the
/// reason); the request's last file makes `finished`.
public struct ThumbnailQueue: Sendable {
    /// One file handed out by `take()`.
    public struct Item: Sendable, Equatable {
        /// The request it belongs to.
        public let handle: UInt32
        /// The file's URI, as the client gave it.
        public let uri: String
        /// The flavor asked for.
        public let flavor: ThumbnailFlavor
    }

    struct Request {
        let flavor: ThumbnailFlavor
        let scheduler: ThumbnailScheduler
        let uris: [String]
        var next = 0
        var inFlight = 0
        var started = false
        var ready: [String] = []
        var readySince: Double? = nil
        var held: Bool

        var hasPending: Bool { next < uris.count }
        var isDone: Bool { !hasPending && inFlight == 0 }
    }

    /// `Ready` carries at most this many URIs.
    public var readyBatch = 32
    /// A finished thumbnail waits at most this many seconds for others to share its `Ready` (checked on each event and by `flushDue`).
    public var readyDelay = 0.1
    private var requests: [UInt32: Request] = [:]
    /// Handles waiting per scheduler rank; foreground's are taken from the end (newest first).
    private var lanes: [[UInt32]] = [[], [], []]
    private var lastHandle: UInt32 = 0

    /// An empty queue.
    public init() {}

    /// Whether no request is waiting or being worked on.
    public var isEmpty: Bool { requests.isEmpty }

    /// Files not handed out yet, over all requests.
    public var pendingCount: Int { requests.values.reduce(0) { $0 + $1.uris.count - $1.next } }

    /// Adds a request and returns its handle (never 0); a `held` one is not handed out before `release`.
    ///
    /// A request with no URIs is finished at once: its events are returned with the handle.
    public mutating func add(
        _ uris: [String], flavor: ThumbnailFlavor, scheduler: ThumbnailScheduler, held: Bool = false
    ) -> (UInt32, [ThumbnailQueueEvent]) {
        let handle = newHandle()
        if uris.isEmpty { return (handle, [.started(handle: handle), .finished(handle: handle)]) }
        requests[handle] = Request(flavor: flavor, scheduler: scheduler, uris: uris, held: held)
        lanes[scheduler.rank].append(handle)
        return (handle, [])
    }

    /// Lets the files of a held request be handed out (the service holds a request until its
    /// handle is sent, so no signal about it reaches the client first).
    public mutating func release(_ handle: UInt32) {
        requests[handle]?.held = false
    }

    /// A fresh handle for a request the queue never holds (an unsupported flavor answered at once).
    public mutating func newHandle() -> UInt32 {
        lastHandle = lastHandle == UInt32.max ? 1 : lastHandle + 1
        return lastHandle
    }

    /// The next file to work on, with the events taking it makes (`started`), or nil when none waits.
    public mutating func take() -> (Item, [ThumbnailQueueEvent])? {
        for rank in lanes.indices {
            // Foreground from the newest request back, the others from the oldest on.
            var index = rank == 0 ? lanes[rank].count - 1 : 0
            while lanes[rank].indices.contains(index) {
                let handle = lanes[rank][index]
                guard var request = requests[handle], request.hasPending else {
                    lanes[rank].remove(at: index)
                    if rank == 0 { index -= 1 }
                    continue
                }
                if request.held {
                    index += rank == 0 ? -1 : 1
                    continue
                }
                let item = Item(handle: handle, uri: request.uris[request.next], flavor: request.flavor)
                request.next += 1
                request.inFlight += 1
                var events: [ThumbnailQueueEvent] = []
                if !request.started {
                    request.started = true
                    events.append(.started(handle: handle))
                }
                requests[handle] = request
                return (item, events)
            }
        }
        return nil
    }

    /// Records how `item` ended (`failure` nil: its thumbnail is in the cache) at time `now` (seconds, any origin).
    public mutating func complete(_ item: Item, failure: ThumbnailFailure?, now: Double) -> [ThumbnailQueueEvent] {
        guard var request = requests[item.handle] else { return [] }
        request.inFlight -= 1
        var events: [ThumbnailQueueEvent] = []
        if let failure {
            events += flush(&request, handle: item.handle)
            events.append(.error(handle: item.handle, uris: [item.uri], code: failure.code, message: failure.message))
        } else {
            request.ready.append(item.uri)
            if request.readySince == nil { request.readySince = now }
            if request.ready.count >= readyBatch || now - (request.readySince ?? now) >= readyDelay {
                events += flush(&request, handle: item.handle)
            }
        }
        events += settle(request, handle: item.handle)
        return events
    }

    /// Drops the files of `handle` not handed out yet; returns how many, and the events (`finished`
    /// when nothing of it is in progress and it had started). An unknown handle is ignored.
    public mutating func dequeue(_ handle: UInt32) -> (dropped: Int, events: [ThumbnailQueueEvent]) {
        guard var request = requests[handle] else { return (0, []) }
        let dropped = request.uris.count - request.next
        request.next = request.uris.count
        guard request.started else {
            requests[handle] = nil
            return (dropped, [])
        }
        return (dropped, settle(request, handle: handle))
    }

    /// Ends every request for a shutdown: the files not handed out get `error` (shutting down);
    /// requests with nothing in progress finish now, the others when their files come back.
    public mutating func cancelAll(message: String) -> [ThumbnailQueueEvent] {
        var events: [ThumbnailQueueEvent] = []
        for handle in requests.keys.sorted() {
            guard var request = requests[handle] else { continue }
            if request.hasPending {
                if !request.started {
                    request.started = true
                    events.append(.started(handle: handle))
                }
                let left = Array(request.uris[request.next...])
                request.next = request.uris.count
                events += flush(&request, handle: handle)
                events.append(.error(handle: handle, uris: left, code: .shuttingDown, message: message))
            }
            events += settle(request, handle: handle)
        }
        return events
    }

    /// The `ready` events of requests whose oldest unsent URI is at least `readyDelay` seconds old at `now`.
    public mutating func flushDue(now: Double) -> [ThumbnailQueueEvent] {
        var events: [ThumbnailQueueEvent] = []
        for handle in requests.keys.sorted() {
            guard var request = requests[handle], let since = request.readySince, now - since >= readyDelay else { continue }
            events += flush(&request, handle: handle)
            requests[handle] = request
        }
        return events
    }

    /// Whether some request holds URIs not yet sent in a `ready`.
    public var hasUnsentReady: Bool { requests.values.contains { !$0.ready.isEmpty } }

    /// The `ready` event of the request's collected URIs, if any, which are then cleared.
    private func flush(_ request: inout Request, handle: UInt32) -> [ThumbnailQueueEvent] {
        guard !request.ready.isEmpty else { return [] }
        defer {
            request.ready = []
            request.readySince = nil
        }
        return [.ready(handle: handle, uris: request.ready)]
    }

    /// Stores `request`, or, when it is done, sends what it collected, finishes and forgets it.
    private mutating func settle(_ request: Request, handle: UInt32) -> [ThumbnailQueueEvent] {
        var request = request
        guard request.isDone else {
            requests[handle] = request
            return []
        }
        requests[handle] = nil
        return flush(&request, handle: handle) + [.finished(handle: handle)]
    }
}
