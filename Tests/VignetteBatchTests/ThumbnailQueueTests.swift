import Testing
import VignetteBatch
import VignetteCache

/// The thumbnailer's queue without a bus: order, handles, dequeuing, batching of Ready.
@Suite("ThumbnailQueue")
struct ThumbnailQueueTests {
    /// Takes every file in order, completing each at once; the URIs in the order taken.
    func drain(_ queue: inout ThumbnailQueue) -> [String] {
        var taken: [String] = []
        while let (item, _) = queue.take() {
            taken.append(item.uri)
            _ = queue.complete(item, failure: nil, now: 0)
        }
        return taken
    }

    @Test("Foreground before default before background; foreground newest first, the others in arrival order")
    func order() {
        var queue = ThumbnailQueue()
        _ = queue.add(["b1", "b2"], flavor: .large, scheduler: .background)
        _ = queue.add(["d1"], flavor: .large, scheduler: .default)
        _ = queue.add(["f1"], flavor: .large, scheduler: .foreground)
        _ = queue.add(["d2"], flavor: .large, scheduler: .default)
        _ = queue.add(["f2", "f3"], flavor: .normal, scheduler: .foreground)
        #expect(drain(&queue) == ["f2", "f3", "f1", "d1", "d2", "b1", "b2"])
        #expect(queue.isEmpty)
    }

    @Test("Started with the first file, Ready batched, Error per file (after the Ready before it), Finished last")
    func events() {
        var queue = ThumbnailQueue()
        queue.readyBatch = 2
        queue.readyDelay = 10
        let (handle, none) = queue.add(["a", "b", "c", "d"], flavor: .large, scheduler: .default)
        #expect(handle != 0)
        #expect(none.isEmpty)
        var events: [ThumbnailQueueEvent] = []
        while let (item, started) = queue.take() {
            events += started
            let failure = item.uri == "c" ? ThumbnailFailure(.invalidFormat, "c: damaged") : nil
            events += queue.complete(item, failure: failure, now: 1)
        }
        #expect(
            events == [
                .started(handle: handle), .ready(handle: handle, uris: ["a", "b"]),
                .error(handle: handle, uris: ["c"], code: .invalidFormat, message: "c: damaged"), .ready(handle: handle, uris: ["d"]),
                .finished(handle: handle),
            ])
    }

    @Test("Ready waits at most readyDelay for company")
    func readyDelay() {
        var queue = ThumbnailQueue()
        let (handle, _) = queue.add(["a", "b"], flavor: .large, scheduler: .default)
        let (a, _) = queue.take()!
        let (b, _) = queue.take()!
        #expect(queue.complete(a, failure: nil, now: 10).isEmpty)
        #expect(queue.flushDue(now: 10.05).isEmpty)
        #expect(queue.flushDue(now: 10.2) == [.ready(handle: handle, uris: ["a"])])
        #expect(queue.complete(b, failure: nil, now: 10.3) == [.ready(handle: handle, uris: ["b"]), .finished(handle: handle)])
    }

    @Test("Dequeue drops the pending files; a started request finishes when its file in progress comes back")
    func dequeue() {
        var queue = ThumbnailQueue()
        let (waiting, _) = queue.add(["w1", "w2", "w3"], flavor: .large, scheduler: .background)
        let (running, _) = queue.add(["r1", "r2"], flavor: .large, scheduler: .foreground)
        let (item, _) = queue.take()!
        #expect(item.uri == "r1")
        #expect(queue.dequeue(waiting) == (3, []))
        let (dropped, events) = queue.dequeue(running)
        #expect(dropped == 1)
        #expect(events.isEmpty)
        #expect(queue.complete(item, failure: nil, now: 0) == [.ready(handle: running, uris: ["r1"]), .finished(handle: running)])
        #expect(queue.take() == nil)
        #expect(queue.isEmpty)
    }

    @Test("A shutdown reports every file not started as code 7, then finishes")
    func cancelAll() {
        var queue = ThumbnailQueue()
        let (handle, _) = queue.add(["a", "b"], flavor: .large, scheduler: .default)
        #expect(
            queue.cancelAll(message: "stopping") == [
                .started(handle: handle), .error(handle: handle, uris: ["a", "b"], code: .shuttingDown, message: "stopping"),
                .finished(handle: handle),
            ])
    }

    @Test("A held request is passed over until released; the others go on meanwhile")
    func held() {
        var queue = ThumbnailQueue()
        let (first, _) = queue.add(["h1"], flavor: .large, scheduler: .foreground, held: true)
        _ = queue.add(["f1"], flavor: .large, scheduler: .foreground, held: true)
        _ = queue.add(["d1"], flavor: .large, scheduler: .default)
        #expect(queue.take()?.0.uri == "d1")
        #expect(queue.take() == nil)
        queue.release(first)
        #expect(queue.take()?.0.uri == "h1")
        #expect(queue.take() == nil)
    }
}
