import Foundation
public import Hummingbird
public import Logging
import NIOCore
public import Prometheus
import ServiceLifecycle
import Synchronization
public import VignetteCore
import VignetteGenerators

/// The HTTP preview service: routes over a generator registry, a served root and a work pool.
///
/// Build one, then either `router()` (tests through the router) or `application(…)` (a
/// real server), or `run(…)`, which also stops gracefully on SIGTERM/SIGINT. Routes throw; every
/// error is answered as `{"error":{"code":…,"message":…}}` by `HTTPFailure`, which renders itself.
public final class VignetteService: Sendable {
    /// Limits and the served root.
    public let configuration: ServerConfiguration
    /// The generators.
    public let registry: GeneratorRegistry
    /// Files to thumbnails: the one pipeline every edge shares.
    let thumbnails: ThumbnailPipeline
    /// Files to previews.
    let previews: PreviewPipeline
    /// Where generator calls run.
    public let pool: WorkPool
    /// The Prometheus registry behind `/metrics`.
    public let metricsRegistry: PrometheusCollectorRegistry
    let metrics: ServerMetrics
    /// The access log and service messages.
    public let logger: Logger
    let state = ServiceState()

    /// A service over `registry`, with metrics in `metricsRegistry` and messages to `logger`.
    public init(
        configuration: ServerConfiguration, registry: GeneratorRegistry,
        metricsRegistry: PrometheusCollectorRegistry = PrometheusCollectorRegistry(),
        logger: Logger = Logger(label: "vignette.serve")
    ) {
        self.configuration = configuration
        self.registry = registry
        self.thumbnails = ThumbnailPipeline(registry: registry)
        self.previews = PreviewPipeline(registry: registry)
        self.pool = WorkPool(concurrency: configuration.concurrency, queue: configuration.queue)
        self.metricsRegistry = metricsRegistry
        self.metrics = ServerMetrics(factory: PrometheusMetricsFactory(registry: metricsRegistry))
        self.logger = logger
    }

    /// The router with every route and the access-log middleware.
    public func router() -> Router<VignetteRequestContext> {
        let router = Router(context: VignetteRequestContext.self)
        router.middlewares.add(AccessLogMiddleware(service: self))
        // Every GET route answers HEAD too (ResponsePolicy drops the body); the paths and
        // methods are listed once more in ResponsePolicy.routes for 405 and Allow.
        func get(_ path: RouterPath, _ handler: @escaping @Sendable (Request, VignetteRequestContext) async throws -> Response) {
            router.get(path, use: handler)
            router.head(path, use: handler)
        }
        get("/v1/thumbnail", thumbnail(path:_:))
        router.post("/v1/thumbnail", use: thumbnail(upload:_:))
        get("/v1/preview", preview(path:_:))
        router.post("/v1/preview", use: preview(upload:_:))
        router.post(RouterPath(Self.pipelinePath), use: pipeline(_:_:))
        get("/v1/type", type(_:_:))
        get("/v1/generators") { _, _ in try self.generatorList() }
        get("/view", view(_:_:))
        get("/healthz") { _, _ in Self.json(["status": "ok"]) }
        get("/readyz") { _, _ in self.readiness() }
        get("/metrics") { _, _ in self.metricsText() }
        return router
    }

    /// A Hummingbird application serving `router()` on `host:port` (port 0: any free port).
    ///
    /// `onRunning` receives the bound port once the server listens.
    public func application(
        host: String, port: Int, onRunning: @escaping @Sendable (Int) async -> Void = { _ in }
    ) -> some ApplicationProtocol {
        let limits = ConnectionGuard.Limits(
            headerTimeout: .nanoseconds(Int64(configuration.headerTimeoutSeconds * 1e9)),
            bodyTimeout: .nanoseconds(Int64(configuration.bodyTimeoutSeconds * 1e9)),
            minimumBodyRate: configuration.minimumBodyRate, maxConnections: configuration.maxConnections)
        let connections = ConnectionCount()
        return Application(
            router: router(),
            server: .http1(configuration: .init(additionalChannelHandlers: [ConnectionGuard(limits: limits, count: connections)])),
            configuration: .init(address: .hostname(host, port: port), serverName: "vignette"),
            onServerRunning: { channel in await onRunning(channel.localAddress?.port ?? port) },
            logger: logger
        )
    }

    /// Serves until SIGTERM or SIGINT, then stops accepting, lets in-flight requests finish
    /// (at most the request timeout plus `grace` seconds) and returns.
    public func run(host: String, port: Int, grace: Double = 5, onRunning: @escaping @Sendable (Int) async -> Void = { _ in }) async throws
    {
        let listening = Mutex(false)
        let base = application(host: host, port: port) { bound in
            listening.withLock { $0 = true }
            await onRunning(bound)
        }
        let app = DrainingService(base: base, state: state)
        var config = ServiceGroupConfiguration(services: [app], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
        config.maximumGracefulShutdownDuration = .milliseconds(Int64((configuration.timeoutSeconds + grace) * 1000))
        do {
            try await ServiceGroup(configuration: config).run()
        } catch  where !listening.withLock({ $0 }) {
            throw Self.listenFailure(error, host: host, port: port)
        }
        pool.shutdown()
    }

    /// A failure to start listening in words: NIO says `bind(descriptor:ptr:bytes:): Address
    /// already in use) (errno: 98)`, which names neither the address nor what to do.
    static func listenFailure(_ error: any Error, host: String, port: Int) -> any Error {
        let address = "\(host):\(port)"
        if let error = error as? IOError {
            let reason: String
            switch error.errnoCode {
            case EADDRINUSE: reason = "the address is already in use (another server listens there; choose another --port)"
            case EADDRNOTAVAIL: reason = "the address is not one of this machine's (see --host)"
            case EACCES, EPERM: reason = "permission denied (ports below 1024 need root or CAP_NET_BIND_SERVICE)"
            default: reason = String(cString: strerror(error.errnoCode)).lowercased()
            }
            return VignetteError(.io, path: address, "cannot listen: " + reason)
        }
        if error is SocketAddressError || error is SocketAddressError.UnknownHost {
            return VignetteError(.io, path: address, "cannot listen: the host name does not resolve (see --host)")
        }
        return error
    }
}
