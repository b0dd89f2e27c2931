import Foundation
public import VignetteCache

/// What the service serves and the limits it keeps.
public struct ServerConfiguration: Sendable {
    /// The directory whose files may be previewed by path.
    public var root: ServedRoot
    /// Where generated thumbnails are kept between requests, if anywhere.
    public var cache: ResponseCache?
    /// Largest request body (upload) in bytes.
    public var maxUploadBytes: Int
    /// Generator calls running at once.
    public var concurrency: Int
    /// Generator calls waiting for a worker; beyond concurrency + queue the answer is 503.
    public var queue: Int
    /// Longest a request may wait for its result, in seconds; past it the answer is 504.
    public var timeoutSeconds: Double
    /// `max-age` for responses about files by path, in seconds.
    public var maxAgeSeconds: Int
    /// The keys URLs must be signed with; nil: unsigned URLs are served.
    public var signing: URLSigning?
    /// The keys `POST /pipeline` must be given as `key` (Nextcloud's `preview_imaginary_key`);
    /// nil: none is asked. With keys, `/pipeline` is exempt from URL signing.
    public var pipelineKeys: PipelineKeys?
    /// Longest a client may take to send a request's head (and to start the next one on a
    /// kept-alive connection), in seconds; then the connection is closed.
    public var headerTimeoutSeconds: Double = 10
    /// After this many seconds of a request body, and again every as many, the body must have
    /// come at `minimumBodyRate` bytes a second on average, or the connection is closed.
    public var bodyTimeoutSeconds: Double = 20
    /// Slowest average upload accepted past `bodyTimeoutSeconds`, in bytes a second.
    public var minimumBodyRate: Int = 4096
    /// Connections open at once; more are closed as they arrive.
    public var maxConnections: Int = 1024

    /// Creates a configuration (nil concurrency: one worker per core); defaults: 64 MiB uploads, one worker per core, 32 queued, 30 s, 1 hour.
    public init(
        root: ServedRoot, cache: ResponseCache? = nil, maxUploadBytes: Int = 64 << 20,
        concurrency: Int? = nil, queue: Int = 32,
        timeoutSeconds: Double = 30, maxAgeSeconds: Int = 3600, signing: URLSigning? = nil
    ) {
        self.root = root
        self.cache = cache
        self.maxUploadBytes = maxUploadBytes
        self.concurrency = concurrency ?? ProcessInfo.processInfo.activeProcessorCount
        self.queue = queue
        self.timeoutSeconds = timeoutSeconds
        self.maxAgeSeconds = maxAgeSeconds
        self.signing = signing
    }
}
