import Foundation
import Testing
import VignetteCache

/// `vignette batch --watch` through the real binary: files that appear are thumbnailed once, quietly, until stopped.
@Suite("vignette batch --watch", .serialized)
struct BatchWatchTests {
    let dir: String
    let cache: String

    init() throws {
        dir = try CLI.tempDirectory()
        cache = dir + "/cache"
        try FileManager.default.createDirectory(atPath: dir + "/in", withIntermediateDirectories: true)
    }

    /// Starts `vignette batch --watch ARGS` and waits for its "watching" line, which must be `watching`.
    func startWatch(_ arguments: [String], watching: String, cacheHome: String? = nil) throws -> RunningCLI {
        let running = try RunningCLI(
            ["batch", "--watch"] + arguments, environment: ["XDG_CACHE_HOME": cacheHome ?? cache], currentDirectory: dir)
        let started = RunningCLI.poll(limit: 30) { running.stderr.contains("\n") }
        #expect(started, "no watching line; stderr: \(running.stderr)")
        #expect(running.stderr == watching + "\n")
        return running
    }

    /// Whether GLib finds a valid thumbnail of `file` in our cache.
    func gioValid(_ file: String, cacheHome: String? = nil) throws -> Bool {
        try GioInfo.thumbnail(file, cache: cacheHome ?? cache).valid == "TRUE"
    }

    /// The paths of the "generated" JSON-line events.
    func generatedPaths(_ stdout: String) -> [String] {
        BatchFixtures.events(stdout).filter { $0["result"] as? String == "generated" }.compactMap { $0["path"] as? String }
    }

    /// The summary JSON-line event.
    func summary(_ stdout: String) -> [String: Any]? {
        BatchFixtures.events(stdout).last { $0["event"] as? String == "summary" }
    }

    @Test(
        "a file copied into the watched folder gets a cache entry GLib finds valid",
        .enabled(if: GioInfo.isInstalled, "needs gio (libglib2.0-bin)"))
    func copiedFileGetsValidEntry() throws {
        try BatchFixtures.write(try BatchFixtures.png(seed: 5, width: 640, height: 480), dir + "/photo.png")
        let running = try startWatch(["in"], watching: "watching in (1 folder); Ctrl-C to stop")
        let target = dir + "/in/photo.png"
        let copied = Date()
        try FileManager.default.copyItem(atPath: dir + "/photo.png", toPath: target)
        let valid = try RunningCLI.poll(limit: 10) { try gioValid(target) }
        let latency = Date().timeIntervalSince(copied)
        print("batch --watch: copy to valid cache entry in \(String(format: "%.3f", latency)) s")
        #expect(valid, "no valid thumbnail within 10 s")
        let result = running.stop()
        #expect(result.status == 0)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "generated: in/photo.png")
        #expect(lines.count == 2)
        #expect(
            lines.last?.hasPrefix("batch: 1 file: 1 generated, 0 up to date, 0 failed, 0 fallback icons, 0 known failures skipped in ")
                == true)
    }

    @Test("a burst of files created at once: each is thumbnailed exactly once")
    func burstThumbnailedOnce() throws {
        let count = 10_000
        let running = try startWatch(["--json-lines", "in"], watching: "watching in (1 folder); Ctrl-C to stop")
        let bytes = try BatchFixtures.png(seed: 9, width: 32, height: 24)
        let started = Date()
        for i in 0..<count {
            try Data(bytes).write(to: URL(fileURLWithPath: "\(dir)/in/f-\(i).png"))
        }
        let written = Date().timeIntervalSince(started)
        let large = cache + "/thumbnails/large"
        let allThere = RunningCLI.poll(limit: 300, interval: 0.2) { BatchFixtures.pngs(in: large).count >= count }
        let seconds = Date().timeIntervalSince(started)
        print(
            "batch --watch: \(count) files written in \(String(format: "%.2f", written)) s, all in the cache after \(String(format: "%.2f", seconds)) s"
        )
        #expect(allThere)
        // Every outcome is printed before the next wake-up: wait for the last lines, then stop.
        _ = RunningCLI.poll(limit: 30, interval: 0.2) { generatedPaths(running.stdout).count >= count }
        let result = running.stop()
        #expect(result.status == 0)
        let generated = generatedPaths(result.stdout)
        #expect(generated.count == count)
        #expect(Set(generated).count == count)
        #expect(Set(generated) == Set((0..<count).map { "in/f-\($0).png" }))
        let totals = try #require(summary(result.stdout))
        #expect(totals["generated"] as? Int == count)
        #expect(totals["failed"] as? Int == 0)
        #expect(totals["interrupted"] as? Bool == false)
        #expect(BatchFixtures.pngs(in: large).count == count)
        print("batch --watch burst: \(totals["up-to-date"] ?? 0) up-to-date rechecks; stderr: \(result.stderr)")
    }

    @Test("when the kernel's event queue overflows, the tree is read again: every file is thumbnailed once")
    func overflowRescans() throws {
        let running = try startWatch(["--json-lines", "in"], watching: "watching in (1 folder); Ctrl-C to stop")
        // Stopped, the watcher reads nothing: 9,000 new files are 18,000 events, more than the
        // default queue of 16,384 (/proc/sys/fs/inotify/max_queued_events).
        running.send(SIGSTOP)
        let count = 9000
        let bytes = try BatchFixtures.png(seed: 3, width: 16, height: 16)
        for i in 0..<count {
            try Data(bytes).write(to: URL(fileURLWithPath: "\(dir)/in/o-\(i).png"))
        }
        running.send(SIGCONT)
        let large = cache + "/thumbnails/large"
        #expect(RunningCLI.poll(limit: 300, interval: 0.2) { BatchFixtures.pngs(in: large).count >= count })
        _ = RunningCLI.poll(limit: 30, interval: 0.2) { generatedPaths(running.stdout).count >= count }
        let result = running.stop()
        #expect(result.status == 0)
        let generated = generatedPaths(result.stdout)
        #expect(generated.count == count)
        #expect(Set(generated).count == count)
        #expect(
            result.stderr.hasSuffix(
                "vignette: in: warning: too many changes at once (the inotify queue overflowed); reading the tree again\n"))
    }

    @Test("a file rewritten twice quickly is thumbnailed once, from its final content and time")
    func rewrittenTwiceOnce() throws {
        let running = try startWatch(["--json-lines", "in"], watching: "watching in (1 folder); Ctrl-C to stop")
        let target = dir + "/in/twice.png"
        try BatchFixtures.write(try BatchFixtures.png(seed: 1, width: 64, height: 48), target)
        try BatchFixtures.write(try BatchFixtures.png(seed: 2, width: 300, height: 200), target)
        let source = try SourceFile(path: target)
        let entryPath = ThumbnailCache(root: cache + "/thumbnails", version: "test").thumbnailPath(for: source, flavor: .large)
        let made = RunningCLI.poll(limit: 10) { generatedPaths(running.stdout).contains("in/twice.png") }
        #expect(made)
        let result = running.stop()
        #expect(result.status == 0)
        #expect(generatedPaths(result.stdout) == ["in/twice.png"])
        let entry = try #require(CacheEntry(path: entryPath))
        #expect(entry.text["Thumb::MTime"] == String(source.modificationSeconds))
        #expect(entry.text["Thumb::Size"] == String(source.size))
        #expect(entry.text["Thumb::Image::Width"] == "300")
        #expect(entry.isValid(for: source))
    }

    @Test("SIGTERM or SIGINT ends the watch after the first pass's files with the summary, exit status 0", arguments: [SIGTERM, SIGINT])
    func signalEndsWatch(_ signal: Int32) throws {
        try BatchFixtures.write(try BatchFixtures.png(seed: 1), dir + "/in/a.png")
        try BatchFixtures.write(try BatchFixtures.jpeg(seed: 2), dir + "/in/sub/b.jpg")
        let running = try startWatch(["in"], watching: "watching in (2 folders); Ctrl-C to stop")
        let result = running.stop(signal)
        #expect(result.status == 0)
        #expect(
            result.stdout.hasPrefix("batch: 2 files: 2 generated, 0 up to date, 0 failed, 0 fallback icons, 0 known failures skipped in "))
        #expect(result.stdout.split(separator: "\n").count == 1)
        #expect(BatchFixtures.pngs(in: cache + "/thumbnails/large").count == 2)
    }

    @Test("a folder made after the start is watched, and so are folders made inside it")
    func newSubfolderWatched() throws {
        let running = try startWatch(["--json-lines", "in"], watching: "watching in (1 folder); Ctrl-C to stop")
        // The file is written at once, perhaps before the new folders are watched: the listing finds it.
        try BatchFixtures.write(try BatchFixtures.png(seed: 3), dir + "/in/new/deeper/a.png")
        #expect(RunningCLI.poll(limit: 10) { generatedPaths(running.stdout).contains("in/new/deeper/a.png") })
        try BatchFixtures.write(try BatchFixtures.png(seed: 4), dir + "/in/new/deeper/b.png")
        try BatchFixtures.write(try BatchFixtures.png(seed: 6), dir + "/in/new/c.png")
        #expect(RunningCLI.poll(limit: 10) { generatedPaths(running.stdout).count >= 3 })
        let result = running.stop()
        #expect(result.status == 0)
        #expect(generatedPaths(result.stdout).sorted() == ["in/new/c.png", "in/new/deeper/a.png", "in/new/deeper/b.png"])
        #expect(result.stderr == "watching in (1 folder); Ctrl-C to stop\n")
    }

    @Test("the thumbnail cache inside the watched folder is never watched or thumbnailed")
    func cacheInsideIsLeftAlone() throws {
        let inside = dir + "/in/cachehome"
        // XDG_CACHE_HOME itself is an ordinary folder; its thumbnails/ and vignette/ are what is left out.
        let running = try startWatch(["--json-lines", "in"], watching: "watching in (2 folders); Ctrl-C to stop", cacheHome: inside)
        try BatchFixtures.write(try BatchFixtures.png(seed: 8), dir + "/in/a.png")
        #expect(RunningCLI.poll(limit: 10) { generatedPaths(running.stdout).contains("in/a.png") })
        try BatchFixtures.write(try BatchFixtures.png(seed: 9), dir + "/in/b.png")
        #expect(RunningCLI.poll(limit: 10) { generatedPaths(running.stdout).contains("in/b.png") })
        let result = running.stop()
        #expect(result.status == 0)
        let paths = BatchFixtures.events(result.stdout).compactMap { $0["path"] as? String }
        #expect(paths.sorted() == ["in/a.png", "in/b.png"])
        #expect(BatchFixtures.pngs(in: inside + "/thumbnails/large").count == 2)
    }

    @Test(
        "a new folder that cannot be read is one warning line, and the watch goes on",
        .enabled(if: getuid() == 0, "needs root to run the watch as another user"))
    func unreadableFolderWarns() throws {
        // The watch runs as user 4242: the folders it writes to must be writable by it.
        chmod(dir, 0o777)
        chmod(dir + "/in", 0o777)
        let running = try RunningCLI(
            ["batch", "--watch", "in"], environment: ["XDG_CACHE_HOME": cache], user: "4242", currentDirectory: dir)
        #expect(RunningCLI.poll(limit: 30) { running.stderr.contains("\n") })
        #expect(mkdir(dir + "/in/locked", 0o700) == 0)
        try BatchFixtures.write(try BatchFixtures.png(seed: 2), dir + "/in/ok.png")
        #expect(RunningCLI.poll(limit: 10) { running.stdout.contains("generated: in/ok.png\n") })
        let result = running.stop()
        #expect(result.status == 0)
        #expect(
            result.stderr
                == "watching in (1 folder); Ctrl-C to stop\nvignette: in/locked: warning: cannot watch the directory (permission denied); skipped\n"
        )
    }

    @Test("a missing directory or a file is refused with the usual error")
    func badDirectories() throws {
        try BatchFixtures.write(try BatchFixtures.png(seed: 1), dir + "/file.png")
        let missing = try CLI.run(["batch", "--watch", "missing"], environment: ["XDG_CACHE_HOME": cache], currentDirectory: dir)
        #expect(missing.status == 1)
        #expect(missing.stderr == "vignette: missing: no such file or directory\n")
        #expect(missing.stdout.isEmpty)
        let file = try CLI.run(["batch", "--watch", "file.png"], environment: ["XDG_CACHE_HOME": cache], currentDirectory: dir)
        #expect(file.status == 2)
        #expect(file.stderr == "vignette: file.png: is not a directory (--watch watches directories)\n")
        let dry = try CLI.run(["batch", "--watch", "--dry-run", "in"], environment: ["XDG_CACHE_HOME": cache], currentDirectory: dir)
        #expect(dry.status == 2)
        #expect(dry.stderr.contains("--watch and --dry-run cannot be used together"))
    }
}
