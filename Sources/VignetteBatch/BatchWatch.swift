import Foundation
import VignetteCache
import VignetteCore

/// `batch --watch`: after the batch pass, thumbnails the files that appear or change in folders, until stopped.
///
/// The folders are watched with inotify before the pass starts, so nothing written during the
/// pass is missed. Events are coalesced per path: a path is handed to the worker once it has had
/// no event for `quiet` seconds, and never while a job for it is still running, so a file written
/// several times, or a burst of thousands of files, gives one job per file. At most as many files
/// as a batch keeps in flight are given to the pool at once; the rest wait as paths, not jobs.
public final class BatchWatch: @unchecked Sendable {
    /// Which files and folders are wanted (hidden, globs, recursion, shard, the cache left out).
    public let walker: BatchWalker
    /// What is done with each file.
    public let worker: BatchWorker
    /// Files processed at once.
    public let jobs: Int
    /// Seconds a file must go without events before it is thumbnailed.
    public var quiet = 0.2
    private let watcher: DirectoryWatcher
    private let lock = NSLock()
    private var stopped = false
    private var busy = Set<String>()
    private var wakeRead: Int32 = -1
    private var wakeWrite: Int32 = -1
    private var roots: [(display: String, absolute: String)] = []
    private var skippedIDs = Set<FileIdentity>()
    private var skippedPaths = Set<String>()
    private var warned = Set<String>()
    private var limitWarned = false
    private var console: (any BatchConsole)?

    /// A watch with the choices of `walker`, handing files to `worker`, `jobs` at a time.
    ///
    /// - Throws: a `VignetteError` when inotify cannot be used.
    public init(walker: BatchWalker, worker: BatchWorker, jobs: Int) throws {
        self.walker = walker
        self.worker = worker
        self.jobs = max(1, jobs)
        watcher = try DirectoryWatcher()
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { throw VignetteError.fromErrno(errno, path: "pipe") }
        for fd in fds {
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        }
        wakeRead = fds[0]
        wakeWrite = fds[1]
    }

    deinit {
        close(wakeRead)
        close(wakeWrite)
    }

    /// The number of folders watched now.
    public var folderCount: Int { watcher.count }

    /// Whether `stop()` was called.
    public var isStopped: Bool {
        lock.lock()
        defer { lock.unlock() }
        return stopped
    }

    /// Ends `run` once the files in progress are done (safe from any thread, a signal handler's queue too).
    public func stop() {
        lock.lock()
        stopped = true
        lock.unlock()
        wake()
    }

    /// Starts watching `directories` and the wanted folders below them; call before the batch pass.
    ///
    /// Folders that cannot be watched are left out silently here: the pass reports them.
    /// - Throws: a `VignetteError` when a directory does not exist or is no directory.
    public func watch(_ directories: [String], console: any BatchConsole) throws {
        self.console = console
        skippedIDs = Set(walker.skippedDirectories.compactMap(BatchWalker.identity))
        skippedPaths = Set(walker.skippedDirectories.map(SourceFile.absolute))
        for argument in directories {
            var st = stat()
            guard stat(argument, &st) == 0 else { throw VignetteError.fromErrno(errno, path: argument) }
            guard (st.st_mode & S_IFMT) == S_IFDIR else {
                throw VignetteError(.invalidRequest, path: argument, "is not a directory (--watch watches directories)")
            }
            let display = argument.count > 1 && argument.hasSuffix("/") ? String(argument.dropLast()) : argument
            roots.append((display, SourceFile.absolute(argument)))
        }
        for root in roots {
            var ignored: [String] = []
            watchTree(root.absolute, depth: 0, warn: false, files: &ignored)
        }
    }

    /// Thumbnails files as they appear or change until `stop()`, counting in `tally` and recording in `recorder`.
    public func run(tally: BatchTally, recorder: BatchRecorder) {
        let pool = WorkPool(concurrency: jobs, queue: jobs * 4)
        let capacity = jobs * 5
        var pending = PendingPaths(quiet: quiet)
        let worker = self.worker
        while !isStopped && !roots.isEmpty {
            var timeout: Int32 = -1
            if pool.inFlight < capacity, let due = pending.nextDue() {
                timeout = Int32(max(0, min(60_000, ((due - Self.now()) * 1000).rounded(.up))))
            }
            var fds = [
                pollfd(fd: watcher.descriptor, events: Int16(POLLIN), revents: 0), pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0),
            ]
            _ = poll(&fds, 2, timeout)
            var drain = [UInt8](repeating: 0, count: 256)
            while Glibc.read(wakeRead, &drain, drain.count) > 0 {}
            for event in watcher.read() { handle(event, pending: &pending) }
            if isStopped { break }
            let now = Self.now()
            for path in pending.take(now: now, limit: max(0, capacity - pool.inFlight)) {
                guard claim(path) else {
                    // A job for it is running: it is looked at again once quiet after that.
                    pending.add(path, now: now)
                    continue
                }
                guard let file = wantedFile(path) else {
                    release(path)
                    continue
                }
                tally.foundFile()
                let taken = pool.submit { [self] in
                    let outcome = worker.process(file)
                    tally.add(outcome.result)
                    recorder.record(outcome)
                    release(path)
                    wake()
                }
                if !taken { release(path) }
            }
        }
        pool.cancelPending()
        pool.waitUntilIdle()
        pool.shutdown()
    }

    private func handle(_ event: DirectoryWatcher.Event, pending: inout PendingPaths) {
        switch event {
        case .file(let path):
            pending.add(path, now: Self.now())
        case .directory(let path):
            guard wantsDirectory(path) else { return }
            var files: [String] = []
            watchTree(path, depth: depth(of: path), warn: true, files: &files)
            // Files written before the watch was in place are found by this listing instead.
            let now = Self.now()
            for file in files { pending.add(file, now: now) }
        case .gone(let path):
            guard let index = roots.firstIndex(where: { $0.absolute == path }) else { return }
            warn(roots[index].display, "the watched directory is gone; no longer watched")
            roots.remove(at: index)
        case .overflow:
            warn(
                roots.map(\.display).joined(separator: ", "),
                "too many changes at once (the inotify queue overflowed); reading the tree again")
            var files: [String] = []
            for root in roots { watchTree(root.absolute, depth: 0, warn: true, files: &files) }
            let now = Self.now()
            for file in files { pending.add(file, now: now) }
        }
    }

    /// Watches `path` and the wanted folders below it, collecting the files found in `files`.
    private func watchTree(_ path: String, depth: Int, warn shouldWarn: Bool, files: inout [String]) {
        var st = stat()
        guard stat(path, &st) == 0, !skippedIDs.contains(FileIdentity(st)), !skippedPaths.contains(path) else { return }
        do {
            try watcher.watch(path)
        } catch {
            switch error {
            case .limitReached:
                if !limitWarned {
                    limitWarned = true
                    warn(
                        displayPath(path),
                        "the inotify watch limit is reached; this folder and others are not watched (raise /proc/sys/fs/inotify/max_user_watches)"
                    )
                }
            case .other(let number):
                if shouldWarn {
                    warn(displayPath(path), "cannot watch the directory (\(VignetteError.fromErrno(number, path: path).reason)); skipped")
                }
            }
            return
        }
        guard let (names, _) = BatchWalker.list(path) else {
            if shouldWarn {
                warn(displayPath(path), "cannot list the directory (\(VignetteError.fromErrno(errno, path: path).reason)); skipped")
            }
            return
        }
        for name in names {
            if !walker.hidden && name.hasPrefix(".") { continue }
            let child = path == "/" ? "/" + name : path + "/" + name
            var entry = stat()
            guard lstat(child, &entry) == 0 else { continue }
            if (entry.st_mode & S_IFMT) == S_IFLNK {
                guard walker.followSymlinks, stat(child, &entry) == 0 else { continue }
            }
            switch entry.st_mode & S_IFMT {
            case S_IFDIR:
                if depth < walker.maxDepth, wantsDirectory(child) { watchTree(child, depth: depth + 1, warn: shouldWarn, files: &files) }
            case S_IFREG:
                files.append(child)
            default:
                continue
            }
        }
    }

    /// The root `path` is in, and its path below that root.
    private func place(_ path: String) -> (root: (display: String, absolute: String), relative: String)? {
        for root in roots where path.hasPrefix(root.absolute == "/" ? "/" : root.absolute + "/") {
            return (root, String(path.dropFirst(root.absolute == "/" ? 1 : root.absolute.count + 1)))
        }
        return nil
    }

    /// `path` as the user would name it (below its root argument).
    private func displayPath(_ path: String) -> String {
        guard let (root, relative) = place(path) else { return path }
        return root.display == "." ? relative : root.display + "/" + relative
    }

    private func depth(of path: String) -> Int {
        place(path).map { $0.relative.split(separator: "/").count } ?? 0
    }

    /// Whether the walk would enter the folder at `path` (recursive, hidden, excludes, not the cache).
    private func wantsDirectory(_ path: String) -> Bool {
        guard walker.recursive, let (_, relative) = place(path), !skippedPaths.contains(path) else { return false }
        let name = (path as NSString).lastPathComponent
        if !walker.hidden && name.hasPrefix(".") { return false }
        return !walker.matches(walker.excludes, name: name, relative: relative)
    }

    /// The file at `path` as the walk would give it, if it is a regular file the walk would take.
    private func wantedFile(_ path: String) -> WalkedFile? {
        guard let (root, relative) = place(path) else { return nil }
        let name = (path as NSString).lastPathComponent
        if !walker.hidden && name.hasPrefix(".") { return nil }
        if walker.matches(walker.excludes, name: name, relative: relative) { return nil }
        if !walker.includes.isEmpty && !walker.matches(walker.includes, name: name, relative: relative) { return nil }
        if let shard = walker.shard, !shard.contains(path) { return nil }
        if skippedPaths.contains(where: { path.hasPrefix($0 + "/") }) { return nil }
        var st = stat()
        // Gone again already (a temporary): nothing to do, and no failure to report.
        guard lstat(path, &st) == 0 else { return nil }
        if (st.st_mode & S_IFMT) == S_IFLNK {
            guard walker.followSymlinks, stat(path, &st) == 0 else { return nil }
        }
        guard (st.st_mode & S_IFMT) == S_IFREG else { return nil }
        return WalkedFile(
            displayPath: root.display == "." ? relative : root.display + "/" + relative, absolutePath: path, relativePath: relative)
    }

    /// One warning line per path (repeated events for the same folder stay quiet).
    private func warn(_ path: String, _ text: String) {
        guard warned.insert(path + "\u{0}" + text).inserted else { return }
        console?.printError("vignette: \(path): warning: \(text)")
    }

    /// Marks `path` as having a job; false when it already has one.
    private func claim(_ path: String) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        return busy.insert(path).inserted
    }

    private func release(_ path: String) {
        lock.lock()
        busy.remove(path)
        lock.unlock()
    }

    /// Wakes the loop (a job ended, or stop).
    private func wake() {
        var byte: UInt8 = 1
        _ = Glibc.write(wakeWrite, &byte, 1)
    }

    private static func now() -> Double {
        Double(DispatchTime.now().uptimeNanoseconds) / 1e9
    }
}
