public import CoreMetrics

/// The service's metrics, made through one factory (the Prometheus one behind `/metrics`).
///
/// Names: `vignette_http_requests_total{route,status}`, `vignette_http_request_duration_seconds{route}`
/// (histogram), `vignette_generations_total{generator,capability}`, `vignette_cache_hits_total`,
/// `vignette_cache_misses_total`, `vignette_work_queue_depth`, `vignette_work_running`,
/// `vignette_http_requests_in_flight`.
public struct ServerMetrics: Sendable {
    private let factory: any MetricsFactory
    private let cacheHits: Counter
    private let cacheMisses: Counter
    private let queueDepth: Gauge
    private let running: Gauge
    private let inFlight: Gauge

    /// Metrics made by `factory`.
    public init(factory: any MetricsFactory) {
        self.factory = factory
        cacheHits = Counter(label: "vignette_cache_hits_total", factory: factory)
        cacheMisses = Counter(label: "vignette_cache_misses_total", factory: factory)
        queueDepth = Gauge(label: "vignette_work_queue_depth", factory: factory)
        running = Gauge(label: "vignette_work_running", factory: factory)
        inFlight = Gauge(label: "vignette_http_requests_in_flight", factory: factory)
    }

    /// Counts one answered request and records how long it took.
    func request(route: String, status: Int, nanoseconds: Int64) {
        Counter(label: "vignette_http_requests_total", dimensions: [("route", route), ("status", String(status))], factory: factory)
            .increment()
        Timer(label: "vignette_http_request_duration_seconds", dimensions: [("route", route)], factory: factory).recordNanoseconds(
            nanoseconds)
    }

    /// Records the number of requests being answered.
    func requestsInFlight(_ count: Int) {
        inFlight.record(count)
    }

    /// Counts one result made by `generator`.
    func generated(by generator: String, capability: String) {
        Counter(label: "vignette_generations_total", dimensions: [("generator", generator), ("capability", capability)], factory: factory)
            .increment()
    }

    /// Counts a thumbnail-cache lookup.
    func cache(hit: Bool) {
        (hit ? cacheHits : cacheMisses).increment()
    }

    /// Records the work pool's state.
    func pool(queueDepth depth: Int, running count: Int) {
        queueDepth.record(depth)
        running.record(count)
    }
}
