import Foundation
public import Logging
import VignetteBatch
public import VignetteCache
import VignetteCore
public import VignetteGenerators

/// `vignette thumbnailer-service`: the freedesktop thumbnail management D-Bus service
/// (`org.freedesktop.thumbnails.Thumbnailer1` and `Cache1` on the session bus), a drop-in for tumbler.
///
/// Requests go to a `ThumbnailQueueRunner`, which fills the freedesktop cache with the batch
/// command's rules; its events become the spec's signals, broadcast so that any client (and
/// `gdbus monitor`) sees them. One thread (the caller of `run`) reads the bus and answers calls;
/// the worker threads emit signals through the same connection.
///
/// The service ends when it has had nothing to do for `idleTimeout` seconds (the bus starts it
/// again on the next call), when the bus goes away, or on `stop()` (SIGTERM): the files in
/// progress are finished and reported first.
public final class ThumbnailerService: @unchecked Sendable {
    /// How the service runs.
    public struct Options: Sendable {
        /// Seconds without work or calls after which the service exits.
        public var idleTimeout: Double = 30
        /// Files thumbnailed at once.
        public var jobs: Int = ProcessInfo.processInfo.activeProcessorCount
        /// Seconds one file may take before it is reported as failed and its worker told to stop.
        public var fileTimeout: Double = 60
        /// Whether work waits for `org.vignette.Testing1.Resume` (tests make queue order deterministic with it).
        public var startPaused = false
        /// The bus address; nil for the session bus.
        public var address: String? = nil

        /// The defaults: 30 s idle timeout, one job per core, the session bus.
        public init() {}
    }

    private let options: Options
    private let pipeline: ThumbnailPipeline
    private let cache: ThumbnailCache
    private let logger: Logger
    private let lock = NSLock()
    private var stopping = false
    private var connection: DBusConnection?
    private lazy var supported: [String] = pipeline.registry.picturedMIMETypes()

    /// A service over `pipeline`, writing to `cache`.
    public init(pipeline: ThumbnailPipeline, cache: ThumbnailCache, options: Options, logger: Logger) {
        self.pipeline = pipeline
        self.cache = cache
        self.options = options
        self.logger = logger
    }

    /// Asks `run` to end after the files in progress (any thread; a signal handler's queue too).
    public func stop() {
        lock.lock()
        stopping = true
        let connection = self.connection
        lock.unlock()
        connection?.wake()
    }

    private var isStopping: Bool {
        lock.lock()
        defer { lock.unlock() }
        return stopping
    }

    /// Connects, owns the names and serves until idle, stopped or disconnected.
    ///
    /// - Throws: a `VignetteError` when the bus cannot be reached or another thumbnailer (tumbler)
    ///   already owns `org.freedesktop.thumbnails.Thumbnailer1`.
    public func run() throws {
        let bus = try DBusConnection(address: options.address)
        guard try bus.requestName(ThumbnailerInterfaces.thumbnailer) else {
            throw VignetteError(
                .io, "another thumbnailer (tumbler?) already owns \(ThumbnailerInterfaces.thumbnailer) on this bus")
        }
        if !(try bus.requestName(ThumbnailerInterfaces.cache)) {
            logger.warning(
                "another service owns the cache interface; serving the thumbnailer only",
                metadata: ["name": "\(ThumbnailerInterfaces.cache)"])
        }
        lock.lock()
        connection = bus
        lock.unlock()
        let runner = ThumbnailQueueRunner(
            pipeline: pipeline, cache: cache, jobs: options.jobs, timeout: options.fileTimeout, paused: options.startPaused
        ) { event in
            Self.emit(event, on: bus)
        }
        logger.info("serving", metadata: ["bus": "\(options.address ?? "session")", "idle-timeout": "\(options.idleTimeout)"])
        var lastActivity = Self.now()
        loop: while !isStopping {
            // While thumbnails wait to be announced, wake often enough to announce them; while
            // busy, once a second anyway (a worker whose file timed out frees itself unseen).
            let wait =
                runner.isIdle
                ? max(0, lastActivity + options.idleTimeout - Self.now()) : runner.hasUnsentReady ? 0.1 : 1
            switch bus.nextCall(timeout: wait) {
            case .call(let call):
                handle(call, runner: runner)
                lastActivity = Self.now()
            case .timeout:
                runner.tick()
                if !runner.isIdle { lastActivity = Self.now() }
                if runner.isIdle && Self.now() - lastActivity >= options.idleTimeout {
                    logger.info("idle; exiting")
                    break loop
                }
            case .disconnected:
                logger.info("the bus went away; exiting")
                break loop
            }
        }
        // The files in progress are finished and reported while the name is still ours (clients
        // match signals by it); new calls go to a new instance after that.
        runner.stopAndWait()
        bus.releaseName(ThumbnailerInterfaces.thumbnailer)
        bus.releaseName(ThumbnailerInterfaces.cache)
        lock.lock()
        connection = nil
        lock.unlock()
    }

    /// Sends the signal of `event`.
    static func emit(_ event: ThumbnailQueueEvent, on bus: DBusConnection) {
        let (member, arguments): (String, [DBusValue])
        switch event {
        case .started(let handle): (member, arguments) = ("Started", [.uint32(handle)])
        case .ready(let handle, let uris): (member, arguments) = ("Ready", [.uint32(handle), .strings(uris)])
        case .error(let handle, let uris, let code, let message):
            (member, arguments) = ("Error", [.uint32(handle), .strings(uris), .int32(code.rawValue), .string(message)])
        case .finished(let handle): (member, arguments) = ("Finished", [.uint32(handle)])
        }
        bus.emitSignal(path: ThumbnailerInterfaces.thumbnailerPath, interface: ThumbnailerInterfaces.thumbnailer, member: member, arguments)
    }

    /// Answers one call.
    func handle(_ call: DBusMethodCall, runner: ThumbnailQueueRunner) {
        let path = call.path
        let interface = call.interface
        let member = call.member
        if member == "Introspect" && (interface.isEmpty || interface == ThumbnailerInterfaces.introspectable) {
            let xml: String? =
                switch path {
                case ThumbnailerInterfaces.thumbnailerPath: ThumbnailerInterfaces.thumbnailerXML(testing: options.startPaused)
                case ThumbnailerInterfaces.cachePath: ThumbnailerInterfaces.cacheXML
                default: ThumbnailerInterfaces.parentXML(of: path)
                }
            if let xml { return call.reply([.string(xml)]) }
        }
        if path == ThumbnailerInterfaces.thumbnailerPath && (interface.isEmpty || interface == ThumbnailerInterfaces.thumbnailer) {
            if handleThumbnailer(call, member: member, runner: runner) { return }
        }
        if path == ThumbnailerInterfaces.cachePath && (interface.isEmpty || interface == ThumbnailerInterfaces.cache) {
            if handleCache(call, member: member) { return }
        }
        if path == ThumbnailerInterfaces.thumbnailerPath && interface == ThumbnailerInterfaces.testing && member == "Resume"
            && options.startPaused
        {
            runner.resume()
            return call.reply()
        }
        call.replyError(DBusMethodCall.unknownMethod, "no method \(interface.isEmpty ? "" : interface + ".")\(member) at \(path)")
    }

    /// Answers a `Thumbnailer1` method; false for an unknown one.
    private func handleThumbnailer(_ call: DBusMethodCall, member: String, runner: ThumbnailQueueRunner) -> Bool {
        switch member {
        case "Queue":
            guard let uris = call.readStrings(), call.readStrings() != nil, let flavor = call.readString(),
                let scheduler = call.readString(), let unqueue = call.readUInt32()
            else {
                call.replyError(
                    DBusMethodCall.invalidArgs,
                    "Queue takes (as uris, as mime_types, s flavor, s scheduler, u handle_to_unqueue), not (\(call.signature))")
                return true
            }
            let handle = runner.queue(uris, flavor: flavor, scheduler: scheduler, unqueue: unqueue)
            logger.debug(
                "queued", metadata: ["handle": "\(handle)", "files": "\(uris.count)", "flavor": "\(flavor)", "scheduler": "\(scheduler)"])
            call.reply([.uint32(handle)])
            // Only now: a fast answer (a cache hit) must not reach the client before its handle.
            runner.begin(handle)
        case "Dequeue":
            guard let handle = call.readUInt32() else {
                call.replyError(DBusMethodCall.invalidArgs, "Dequeue takes (u handle), not (\(call.signature))")
                return true
            }
            let dropped = runner.dequeue(handle)
            logger.debug("dequeued", metadata: ["handle": "\(handle)", "dropped": "\(dropped)"])
            call.reply()
        case "GetSupported":
            // The spec pairs schemes and MIME types one to one: every type is offered for local files.
            call.reply([.strings(Array(repeating: "file", count: supported.count)), .strings(supported)])
        case "GetSchedulers":
            call.reply([.strings(ThumbnailQueueRunner.schedulers)])
        case "GetFlavors":
            call.reply([.strings(ThumbnailQueueRunner.flavors)])
        default:
            return false
        }
        return true
    }

    /// Answers a `Cache1` method; false for an unknown one.
    private func handleCache(_ call: DBusMethodCall, member: String) -> Bool {
        switch member {
        case "Move", "Copy":
            guard let from = call.readStrings(), let to = call.readStrings(), from.count == to.count else {
                call.replyError(DBusMethodCall.invalidArgs, "\(member) takes two string arrays of the same length")
                return true
            }
            var entries = 0
            for (source, target) in zip(from, to) {
                entries += member == "Move" ? cache.moveEntries(from: source, to: target) : cache.copyEntries(from: source, to: target)
            }
            logger.debug("\(member.lowercased())", metadata: ["uris": "\(from.count)", "entries": "\(entries)"])
            call.reply()
        case "Delete":
            guard let uris = call.readStrings() else {
                call.replyError(DBusMethodCall.invalidArgs, "Delete takes (as uris), not (\(call.signature))")
                return true
            }
            let entries = uris.reduce(0) { $0 + cache.deleteEntries(of: $1) }
            logger.debug("delete", metadata: ["uris": "\(uris.count)", "entries": "\(entries)"])
            call.reply()
        case "Cleanup":
            guard let bases = call.readStrings(), let since = call.readUInt32() else {
                call.replyError(DBusMethodCall.invalidArgs, "Cleanup takes (as base_uris, u since), not (\(call.signature))")
                return true
            }
            let entries = cache.cleanUp(below: bases, since: Int(since))
            logger.debug("cleanup", metadata: ["bases": "\(bases.count)", "entries": "\(entries)"])
            call.reply()
        default:
            return false
        }
        return true
    }

    private static func now() -> Double {
        Double(DispatchTime.now().uptimeNanoseconds) / 1e9
    }
}
