import Foundation

/// State shared by the routes: whether the service is shutting down, and requests in progress.
final class ServiceState: @unchecked Sendable {
    private let lock = NSLock()
    private var isDraining = false
    private var requests = 0

    /// Adds `delta` to the requests in progress and returns the new count.
    func requestsInFlight(adding delta: Int) -> Int {
        lock.lock()
        defer { lock.unlock() }
        requests += delta
        return requests
    }

    var draining: Bool {
        get {
            lock.lock()
            defer { lock.unlock() }
            return isDraining
        }
        set {
            lock.lock()
            isDraining = newValue
            lock.unlock()
        }
    }
}
