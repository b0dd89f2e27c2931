import ArgumentParser
import Foundation
import Logging
import VignetteCache
import VignetteCore
import VignetteDBus
import VignetteGenerators

/// `vignette thumbnailer-service`: the freedesktop D-Bus thumbnailer (a drop-in for tumbler).
struct ThumbnailerServiceCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "thumbnailer-service",
        abstract: "Serve the freedesktop thumbnailer D-Bus interface (a drop-in for tumbler).",
        discussion: """
            Owns org.freedesktop.thumbnails.Thumbnailer1 and org.freedesktop.thumbnails.Cache1 on \
            the session bus and implements the thumbnail management D-Bus specification: Queue, \
            Dequeue, GetSupported, GetSchedulers (default, foreground, background), GetFlavors \
            (normal, large, x-large, xx-large) and the signals Started, Ready, Error and Finished \
            (broadcast); Cache1's Move, Copy, Delete and Cleanup keep the cache in step with files \
            that moved, were copied or deleted.

            Thumbnails go to the freedesktop cache ($XDG_CACHE_HOME/thumbnails) with the rules \
            of `vignette batch`: a valid entry is answered at once, a file that failed gets a fail \
            entry and is not retried until it changes. Foreground requests are served before \
            default ones, default before background. Error codes follow tumbler: 0 no generator \
            for the type (or not a file:// URI), 1 the file cannot be read, 2 damaged content, \
            3 the file is a thumbnail, 4 the cache cannot be written, 5 unknown flavor, 7 shutting \
            down.

            The bus starts the service on demand through the activation files that `make install` \
            puts in PREFIX/share/dbus-1/services; it exits after --idle-timeout seconds without \
            work, and on SIGTERM or SIGINT after the files in progress. A file that takes longer \
            than --timeout seconds gets error 2 and a fail entry; its worker is told to stop. It \
            refuses to start while another thumbnailer (tumbler) owns the name.

            Examples:
              vignette thumbnailer-service --idle-timeout 60
              gdbus call --session --dest org.freedesktop.thumbnails.Thumbnailer1 \\
                --object-path /org/freedesktop/thumbnails/Thumbnailer1 \\
                --method org.freedesktop.thumbnails.Thumbnailer1.Queue \\
                "['file:///home/me/cat.jpg']" "['image/jpeg']" large default 0
              gdbus monitor --session --dest org.freedesktop.thumbnails.Thumbnailer1
            """
    )

    @Option(
        name: .long, parsing: .unconditional,
        help: ArgumentHelp("Exit after this many seconds without work or calls.", valueName: "SECONDS"))
    var idleTimeout: Double = 30

    @Option(name: [.short, .customLong("jobs")], parsing: .unconditional, help: "Files thumbnailed at once (default: all cores).")
    var jobs: Int?

    @Option(
        name: .long, parsing: .unconditional,
        help: ArgumentHelp("Seconds one file may take; then error 2 and a fail entry.", valueName: "SECONDS"))
    var timeout: Double = 60

    @Option(
        name: .long, parsing: .unconditional,
        help: ArgumentHelp("Connect to this bus address instead of the session bus.", valueName: "ADDRESS"))
    var address: String?

    @Flag(name: .long, help: "Log every call on stderr.")
    var verbose = false

    @Flag(name: .long, help: ArgumentHelp("Start no work before org.vignette.Testing1.Resume is called (for tests).", visibility: .hidden))
    var startPaused = false

    @OptionGroup var registryOptions: RegistryOptions

    func validate() throws {
        if let jobs { try OptionBounds.within(jobs, 1...256, "--jobs") }
        try OptionBounds.positive(timeout, "--timeout", atMost: 3600, "seconds")
        try OptionBounds.positive(idleTimeout, "--idle-timeout", atMost: 86400, "seconds")
    }

    func run() throws {
        LoggingSystem.bootstrap(StreamLogHandler.standardError)
        var logger = Logger(label: "vignette.thumbnailer")
        logger.logLevel = verbose ? .debug : .notice
        let pipeline = ThumbnailPipeline(registry: try registryOptions.makeRegistry())
        let cache = ThumbnailCache(root: ThumbnailCache.defaultRoot(), version: VignetteVersion.string)
        var options = ThumbnailerService.Options()
        options.idleTimeout = idleTimeout
        options.jobs = jobs ?? ProcessInfo.processInfo.activeProcessorCount
        options.fileTimeout = timeout
        options.startPaused = startPaused
        options.address = address
        let service = ThumbnailerService(pipeline: pipeline, cache: cache, options: options, logger: logger)
        InterruptFlag().install(signals: [SIGINT, SIGTERM]) { service.stop() }
        try service.run()
    }
}
