import ArgumentParser
import Foundation
import Logging
import Metrics
import Prometheus
import VignetteCache
import VignetteCore
import VignetteServer

/// `vignette serve`: the HTTP preview service.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve thumbnails and previews over HTTP.",
        discussion: """
            Files are served by path relative to --root only (no "..", no absolute paths, no \
            symbolic links out of the root, no dotfiles unless --serve-dotfiles: such requests \
            get 404); responses show only root-relative paths. Uploads (POST) are previewed \
            from their bytes and name. At most --concurrency generations run at once and \
            --queue more wait; beyond that the answer is 503 with Retry-After, and a request \
            waiting longer than --timeout gets 504. SIGTERM or SIGINT stops accepting \
            connections, lets in-flight requests finish, and exits 0. One structured log line \
            per request goes to stderr; the bound address is printed on stdout.

            Endpoints: GET/POST /v1/thumbnail, GET/POST /v1/preview, GET /v1/type, \
            GET /v1/generators, GET /view, GET /healthz, GET /readyz, GET /metrics, and POST \
            /pipeline (imaginary's, for Nextcloud's preview_imaginary_url). HEAD works \
            wherever GET does; another method on a known path is 405 with Allow. HTML responses \
            carry a Content-Security-Policy that allows no script and no fetch.

            Slow clients are cut off: a request head must arrive within --header-timeout \
            (also the idle time allowed on a kept-alive connection), an upload must average \
            --min-body-rate bytes a second once --body-timeout has passed, and connections \
            beyond --max-connections are closed as they arrive. The defaults suit a public \
            deployment.

            With --signing-key-file, every request but /healthz, /readyz and /metrics must end \
            with a sig parameter: the HMAC-SHA256 of the URL's path and query before it, \
            base64url (`vignette sign` makes one). Unsigned or altered URLs get 403 before any \
            work. The file holds one key per line (at least 32 bytes each; several lines let a \
            new key roll out before the old one is dropped).

            With --pipeline-key-file, POST /pipeline answers only requests whose key parameter \
            is one of the file's keys (Nextcloud's preview_imaginary_key; at least 16 bytes each), \
            401 otherwise; Nextcloud cannot sign URLs, so /pipeline is then exempt from \
            --signing-key-file.

            Examples:
              vignette serve --root ~/Pictures --cache-dir /var/cache/vignette
              curl 'http://127.0.0.1:8080/v1/thumbnail?path=cat.jpg&size=128' -o cat.png
              curl --data-binary @report.pdf -o t.png \\
                'http://127.0.0.1:8080/v1/thumbnail?filename=report.pdf'
              vignette serve --root /srv/media --signing-key-file /etc/vignette/keys
              vignette serve --root /srv/empty \\
                --pipeline-key-file /etc/vignette/nextcloud-key
            """
    )

    @Option(name: .long, parsing: .unconditional, help: "Address to listen on.")
    var host = "127.0.0.1"

    @Option(name: .long, parsing: .unconditional, help: "Port to listen on (0: any free port, printed on stdout).")
    var port = 8080

    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp("The directory whose files may be previewed.", valueName: "DIR"))
    var root: String

    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp("Keep generated thumbnails here between requests.", valueName: "DIR"))
    var cacheDir: String?

    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp("Largest upload in bytes.", valueName: "BYTES"))
    var maxUpload = 64 << 20

    @Option(name: .long, parsing: .unconditional, help: "Generations running at once (default: the number of cores).")
    var concurrency: Int?

    @Option(name: .long, parsing: .unconditional, help: "Generations waiting for a worker before requests get 503.")
    var queue = 32

    @Option(
        name: .long, parsing: .unconditional, help: ArgumentHelp("Longest a request may take, in seconds (then 504).", valueName: "SECONDS")
    )
    var timeout: Double = 30

    @Option(
        name: .long, parsing: .unconditional,
        help: ArgumentHelp(
            "Seconds a client has to send a request's head (and to start the next on a kept-alive connection).",
            valueName: "SECONDS"))
    var headerTimeout: Double = 10

    @Option(
        name: .long, parsing: .unconditional,
        help: ArgumentHelp("Seconds after which, and every as many, a body must have averaged --min-body-rate.", valueName: "SECONDS"))
    var bodyTimeout: Double = 20

    @Option(
        name: .long, parsing: .unconditional, help: ArgumentHelp("Slowest average upload accepted, in bytes a second.", valueName: "BYTES"))
    var minBodyRate = 4096

    @Option(name: .long, parsing: .unconditional, help: "Connections open at once; more are closed as they arrive.")
    var maxConnections = 1024

    @Flag(name: .long, help: "Serve files and folders whose names start with a dot (.env, .git/…).")
    var serveDotfiles = false

    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp("Serve only URLs signed with a key of this file.", valueName: "FILE"))
    var signingKeyFile: String?

    @Option(
        name: .long, parsing: .unconditional,
        help: ArgumentHelp("POST /pipeline only with a key parameter from this file.", valueName: "FILE"))
    var pipelineKeyFile: String?

    @OptionGroup var registryOptions: RegistryOptions

    func validate() throws {
        try OptionBounds.nonEmpty(root, "--root", give: "the directory to serve")
        try OptionBounds.nonEmpty(cacheDir, "--cache-dir", give: "a directory")
        try OptionBounds.within(port, 0...65535, "--port")
        guard maxUpload > 0 else { throw ValidationError("--max-upload must be at least 1, not \(maxUpload)") }
        if let concurrency { try OptionBounds.within(concurrency, 1...256, "--concurrency") }
        try OptionBounds.within(queue, 0...1_000_000, "--queue")
        try OptionBounds.positive(timeout, "--timeout", atMost: 86400, "seconds")
        try OptionBounds.positive(headerTimeout, "--header-timeout", atMost: 86400, "seconds")
        try OptionBounds.positive(bodyTimeout, "--body-timeout", atMost: 86400, "seconds")
        guard minBodyRate >= 0 else { throw ValidationError("--min-body-rate must be 0 or more, not \(minBodyRate)") }
        try OptionBounds.within(maxConnections, 1...1_000_000, "--max-connections")
    }

    func run() async throws {
        // The service group drains in-flight requests on SIGTERM/SIGINT; the CLI's
        // exit-at-once handlers would cut them off.
        InterruptCleanup.uninstall()
        guard let servedRoot = ServedRoot(root, servesDotfiles: serveDotfiles) else {
            throw VignetteError(.notFound, path: root, "the root is not an existing directory")
        }
        let registry = try registryOptions.makeRegistry()
        let cache = try cacheDir.map { try ResponseCache(directory: $0) }
        var configuration = ServerConfiguration(
            root: servedRoot, cache: cache, maxUploadBytes: maxUpload,
            concurrency: concurrency ?? ProcessInfo.processInfo.activeProcessorCount, queue: queue, timeoutSeconds: timeout,
            signing: try signingKeyFile.map { try URLSigning(keyFile: $0) })
        configuration.headerTimeoutSeconds = headerTimeout
        configuration.bodyTimeoutSeconds = bodyTimeout
        configuration.minimumBodyRate = minBodyRate
        configuration.maxConnections = maxConnections
        configuration.pipelineKeys = try pipelineKeyFile.map { try PipelineKeys(keyFile: $0) }
        LoggingSystem.bootstrap(StreamLogHandler.standardError)
        let metricsRegistry = PrometheusCollectorRegistry()
        // The one bootstrap of the process: libraries' metrics land in the same registry as ours.
        MetricsSystem.bootstrap(PrometheusMetricsFactory(registry: metricsRegistry))
        let service = VignetteService(configuration: configuration, registry: registry, metricsRegistry: metricsRegistry)
        let host = self.host
        do {
            try await service.run(host: host, port: port) { bound in
                FileHandle.standardOutput.write(Data("vignette: listening on http://\(host):\(bound)\n".utf8))
            }
        } catch {
            Diagnostics.report(error)
            throw ExitCode(1)
        }
    }
}
