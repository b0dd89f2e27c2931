import Foundation
import Testing
import VignetteCache
import VignetteCore
import VignetteImaging

@Suite("vignette cache prune")
struct CachePruneCommandTests {
    let dir: String
    let cache: String
    var thumbnails: String { cache + "/thumbnails" }
    var failFolder: String { thumbnails + "/fail/vignette-" + VignetteVersion.string }

    init() throws {
        // The cache names come from real paths: resolve a linked temporary folder first.
        dir = URL(fileURLWithPath: try CLI.tempDirectory()).resolvingSymlinksInPath().path
        cache = dir + "/cache"
    }

    func vignette(_ arguments: [String], user: String? = nil) throws -> CLIResult {
        try CLI.run(arguments, environment: ["XDG_CACHE_HOME": cache], user: user, currentDirectory: dir)
    }

    func prune(_ arguments: [String] = [], user: String? = nil) throws -> CLIResult {
        try vignette(["cache", "prune"] + arguments, user: user)
    }

    /// The cache file name of `relative` (below the test folder).
    func entry(_ relative: String) -> String {
        ThumbnailURI.cacheName(forURI: FileURI.string(forAbsolutePath: dir + "/" + relative))
    }

    /// The size in bytes of the file at `path` (not following a link).
    func size(_ path: String) -> Int {
        var st = stat()
        return lstat(path, &st) == 0 ? Int(st.st_size) : -1
    }

    /// Whether something (a link included, dangling or not) is at `path`.
    func exists(_ path: String) -> Bool {
        var st = stat()
        return lstat(path, &st) == 0
    }

    /// Sets a file's access and modification times (whole seconds), not following a link.
    func setTimes(_ path: String, access: Int, modification: Int) {
        var times = [timespec(tv_sec: access, tv_nsec: 0), timespec(tv_sec: modification, tv_nsec: 0)]
        #expect(utimensat(AT_FDCWD, path, &times, AT_SYMLINK_NOFOLLOW) == 0, "\(path)")
    }

    /// A cache entry PNG with these text keys.
    static func entryPNG(_ text: [(String, String)]) throws -> [UInt8] {
        try ImageEncoder.png(Bitmap(width: 2, height: 2), keepAlpha: true, text: text)
    }

    /// The summary line a real run prints.
    static func summary(checked: Int, gone: Int, changed: Int, over: Int, unreadable: Int, freed: Int, remaining: Int) -> String {
        "cache prune: \(checked) entries checked: \(gone) removed (file gone), \(changed) removed (file changed), "
            + "\(over) removed (over --max-size), \(unreadable) unreadable left alone; "
            + "\(ByteCount.text(freed)) freed (cache now \(ByteCount.text(remaining)))"
    }

    /// Samples/logo.png and photo.jpg, two drawn PNGs, a broken JPEG (a fail entry) and a binary
    /// nothing pictures (a fail entry marked as an icon), thumbnailed in `flavors`.
    func thumbnailTree(flavors: [String]) throws {
        for name in ["logo.png", "photo.jpg"] {
            try FileManager.default.createDirectory(atPath: dir + "/in", withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: CLI.packageRoot + "/Samples/" + name, toPath: dir + "/in/" + name)
        }
        try BatchFixtures.write(try BatchFixtures.png(seed: 1), dir + "/in/keep.png")
        try BatchFixtures.write(try BatchFixtures.png(seed: 2), dir + "/in/resized.png")
        try BatchFixtures.write(
            [0xFF, 0xD8, 0xFF, 0xE0, 0, 16] + Array("JFIF".utf8) + [UInt8](repeating: 0x55, count: 200), dir + "/in/bad.jpg")
        try BatchFixtures.write((0..<300).map { UInt8(($0 * 151 + 7) % 256) }, dir + "/in/data.bin")
        for flavor in flavors {
            let r = try vignette(["batch", "--flavor", flavor, "in"])
            #expect(r.stdout.hasPrefix("batch: 6 files: "), "\(r.stdout)")
        }
    }

    @Test("removes the entries of gone and changed files in every flavor and fail folder, and only those")
    func removesGoneAndChanged() throws {
        let flavors = ["normal", "large", "x-large"]
        try thumbnailTree(flavors: flavors)
        let thumbnailed = ["in/keep.png", "in/logo.png", "in/photo.jpg", "in/resized.png"]
        for flavor in flavors {
            #expect(BatchFixtures.pngs(in: thumbnails + "/" + flavor) == thumbnailed.map(entry).sorted(), "\(flavor)")
        }
        #expect(BatchFixtures.pngs(in: failFolder) == ["in/bad.jpg", "in/data.bin"].map(entry).sorted())

        // photo.jpg and bad.jpg go; logo.png is touched; resized.png changes size but keeps its time.
        try FileManager.default.removeItem(atPath: dir + "/in/photo.jpg")
        try FileManager.default.removeItem(atPath: dir + "/in/bad.jpg")
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: 3600)], ofItemAtPath: dir + "/in/logo.png")
        var before = stat()
        #expect(stat(dir + "/in/resized.png", &before) == 0)
        try BatchFixtures.write(try BatchFixtures.png(seed: 2, width: 80), dir + "/in/resized.png")
        var times = [before.st_atim, before.st_mtim]
        #expect(utimensat(AT_FDCWD, dir + "/in/resized.png", &times, 0) == 0)

        var expectedLines: [String] = []
        var freed = 0
        for folder in flavors + ["fail/vignette-" + VignetteVersion.string] {
            let reasons = [
                "in/photo.jpg": "file gone", "in/bad.jpg": "file gone", "in/logo.png": "file changed", "in/resized.png": "file changed",
            ]
            let removed = reasons.keys.map { (name: entry($0), file: $0) }.filter { exists(thumbnails + "/" + folder + "/" + $0.name) }
            for (name, file) in removed.sorted(by: { $0.name < $1.name }) {
                let path = thumbnails + "/" + folder + "/" + name
                freed += size(path)
                let uri = FileURI.string(forAbsolutePath: dir + "/" + file)
                expectedLines.append("removed (\(reasons[file]!)): \(path) (\(uri))")
            }
        }
        let kept = flavors.map { "\($0)/\(entry("in/keep.png"))" } + ["fail/vignette-\(VignetteVersion.string)/\(entry("in/data.bin"))"]
        let remaining = kept.map { size(thumbnails + "/" + $0) }.reduce(0, +)

        let r = try prune(["--verbose"])
        #expect(r.status == 0)
        #expect(r.stderr == "")
        let summary = Self.summary(checked: 14, gone: 4, changed: 6, over: 0, unreadable: 0, freed: freed, remaining: remaining)
        #expect(r.stdout == (expectedLines + [summary]).joined(separator: "\n") + "\n")
        for flavor in flavors {
            #expect(BatchFixtures.pngs(in: thumbnails + "/" + flavor) == [entry("in/keep.png")], "\(flavor)")
        }
        #expect(BatchFixtures.pngs(in: failFolder) == [entry("in/data.bin")])

        let again = try prune()
        #expect(again.status == 0)
        #expect(
            again.stdout == Self.summary(checked: 4, gone: 0, changed: 0, over: 0, unreadable: 0, freed: 0, remaining: remaining) + "\n")
        // What is left is still valid for the desktop: batch finds it up to date.
        let batch = try vignette(["batch", "--flavor", "normal", "in/keep.png"])
        #expect(batch.stdout.hasPrefix("batch: 1 file: 0 generated, 1 up to date, "))
    }

    @Test("--max-size removes the least recently used entries (later of access and modification time) until the rest fit")
    func maxSizeRemovesLeastRecentlyUsed() throws {
        for (i, name) in ["a", "b", "c", "d", "gone"].enumerated() {
            try BatchFixtures.write(try BatchFixtures.png(seed: i, width: 40 + i * 7), dir + "/in/\(name).png")
        }
        #expect(try vignette(["batch", "--flavor", "normal", "in"]).status == 0)
        try FileManager.default.removeItem(atPath: dir + "/in/gone.png")
        let normal = thumbnails + "/normal/"
        func path(_ name: String) -> String { normal + entry("in/\(name).png") }
        // Last use, oldest first: c, a, d, then b, whose access time is the oldest of all but
        // whose modification time is the newest (as on a noatime mount).
        setTimes(path("c"), access: 1_600_000_000, modification: 1_500_000_000)
        setTimes(path("a"), access: 1_600_001_000, modification: 1_500_000_000)
        setTimes(path("d"), access: 1_600_002_000, modification: 1_500_000_000)
        setTimes(path("b"), access: 1_400_000_000, modification: 1_700_000_000)
        let gone = size(path("gone"))
        let total = ["a", "b", "c", "d"].map { size(path($0)) }.reduce(0, +)
        let limit = total - size(path("c")) - size(path("a"))
        var expected = [
            "removed (file gone): \(path("gone")) (\(FileURI.string(forAbsolutePath: dir + "/in/gone.png")))",
            "removed (over --max-size): \(path("c")) (\(FileURI.string(forAbsolutePath: dir + "/in/c.png")))",
            "removed (over --max-size): \(path("a")) (\(FileURI.string(forAbsolutePath: dir + "/in/a.png")))",
        ]
        expected.append(
            Self.summary(checked: 5, gone: 1, changed: 0, over: 2, unreadable: 0, freed: gone + total - limit, remaining: limit))

        let r = try prune(["--verbose", "--max-size", String(limit)])
        #expect(r.status == 0)
        #expect(r.stderr == "")
        #expect(r.stdout == expected.joined(separator: "\n") + "\n")
        #expect(BatchFixtures.pngs(in: normal) == [entry("in/b.png"), entry("in/d.png")].sorted())

        // Already within the limit (2 G): nothing more goes.
        let again = try prune(["--max-size", "2G"])
        #expect(again.stdout == Self.summary(checked: 2, gone: 0, changed: 0, over: 0, unreadable: 0, freed: 0, remaining: limit) + "\n")
        // Pruning did not make the entries look used: d is still the least recently used.
        let one = try prune(["--max-size", String(size(path("b")))])
        #expect(one.stdout.contains(": 0 removed (file gone), 0 removed (file changed), 1 removed (over --max-size), "))
        #expect(BatchFixtures.pngs(in: normal) == [entry("in/b.png")])
    }

    @Test("--dry-run says what it would remove, stale and over --max-size, and removes nothing")
    func dryRun() throws {
        try thumbnailTree(flavors: ["large"])
        try FileManager.default.removeItem(atPath: dir + "/in/photo.jpg")
        let photo = thumbnails + "/large/" + entry("in/photo.jpg")
        let everything =
            BatchFixtures.pngs(in: thumbnails + "/large").map { thumbnails + "/large/" + $0 }
            + BatchFixtures.pngs(in: failFolder).map { failFolder + "/" + $0 }
        let total = everything.map(size).reduce(0, +)

        let r = try prune(["--dry-run", "--verbose"])
        #expect(r.status == 0)
        #expect(
            r.stdout == """
                would remove (file gone): \(photo) (\(FileURI.string(forAbsolutePath: dir + "/in/photo.jpg")))
                cache prune (dry run): 6 entries checked: 1 to remove (file gone), 0 to remove (file changed), \
                0 to remove (over --max-size), 0 unreadable left alone; \(ByteCount.text(size(photo))) to free \
                (cache would be \(ByteCount.text(total - size(photo))))

                """)
        let all = try prune(["--dry-run", "--max-size", "0"])
        #expect(
            all.stdout == """
                cache prune (dry run): 6 entries checked: 1 to remove (file gone), 0 to remove (file changed), \
                5 to remove (over --max-size), 0 unreadable left alone; \(ByteCount.text(total)) to free (cache would be 0 bytes)

                """)
        #expect(everything.allSatisfy(exists))
        #expect(everything.count == 6)
    }

    @Test("links, folders, hidden files, other names and files outside the folders are never touched; unreadable entries are counted")
    func onlyEntriesAreTouched() throws {
        let root = dir + "/elsewhere/thumbnails"
        let large = root + "/large"
        let outside = dir + "/outside"
        let stale = try Self.entryPNG([("Thumb::URI", FileURI.string(forAbsolutePath: dir + "/nothing.png")), ("Thumb::MTime", "1")])
        for path in [
            outside + "/victim.png", outside + "/folder/victim.png", large + "/stale.png", large + "/.hidden.png", large + "/notes.txt",
            large + "/folder.png/stale.png", root + "/fail/direct.png", root + "/stray/stale.png",
        ] {
            try BatchFixtures.write(stale, path)
        }
        try BatchFixtures.write(Array("hello, not a PNG".utf8), large + "/fake.png")
        try BatchFixtures.write(try Self.entryPNG([("Software", "x")]), large + "/nouri.png")
        try BatchFixtures.write(try Self.entryPNG([("Thumb::URI", "trash:///nothing.png"), ("Thumb::MTime", "1")]), large + "/trash.png")
        try BatchFixtures.write(
            try Self.entryPNG([("Thumb::URI", "file://otherhost/nothing.png"), ("Thumb::MTime", "1")]), large + "/remote.png")
        try BatchFixtures.write(
            try Self.entryPNG([("Thumb::URI", "file:///tmp/%zz.png"), ("Thumb::MTime", "1")]), large + "/badescape.png")
        try FileManager.default.createSymbolicLink(atPath: large + "/link.png", withDestinationPath: outside + "/victim.png")
        try FileManager.default.createSymbolicLink(atPath: large + "/dangling.png", withDestinationPath: outside + "/none.png")
        try FileManager.default.createSymbolicLink(atPath: root + "/x-large", withDestinationPath: outside + "/folder")
        try FileManager.default.createSymbolicLink(atPath: root + "/fail/linked", withDestinationPath: outside + "/folder")
        #expect(mkfifo(large + "/fifo.png", 0o600) == 0)
        let readable = size(large + "/trash.png") + size(large + "/remote.png")
        let unreadable = ["badescape", "fake", "nouri"].map { size(large + "/\($0).png") }.reduce(0, +)

        let r = try CLI.run(["cache", "prune", "--verbose", "--cache-dir", root], currentDirectory: dir)
        #expect(r.status == 0)
        #expect(r.stderr == "")
        let summary = Self.summary(
            checked: 6, gone: 1, changed: 0, over: 0, unreadable: 3, freed: size(outside + "/victim.png"), remaining: readable + unreadable)
        #expect(
            r.stdout == """
                removed (file gone): \(large)/stale.png (\(FileURI.string(forAbsolutePath: dir + "/nothing.png")))
                left alone (not a valid file URI): \(large)/badescape.png
                left alone (not a PNG): \(large)/fake.png
                left alone (no Thumb::URI): \(large)/nouri.png
                \(summary)

                """)
        let untouched = [
            outside + "/victim.png", outside + "/folder/victim.png", large + "/.hidden.png", large + "/notes.txt",
            large + "/folder.png/stale.png", root + "/fail/direct.png", root + "/stray/stale.png", large + "/fake.png",
            large + "/nouri.png", large + "/trash.png", large + "/remote.png", large + "/badescape.png", large + "/link.png",
            large + "/dangling.png", root + "/x-large", root + "/fail/linked", large + "/fifo.png",
        ]
        #expect(untouched.filter { !exists($0) } == [])
        #expect(!exists(large + "/stale.png"))

        // Even with no room at all only the readable entries go.
        let all = try CLI.run(["cache", "prune", "--max-size", "0", "--cache-dir", root], currentDirectory: dir)
        #expect(
            all.stdout
                == Self.summary(checked: 5, gone: 0, changed: 0, over: 2, unreadable: 3, freed: readable, remaining: unreadable) + "\n")
        #expect(!exists(large + "/trash.png") && !exists(large + "/remote.png"))
        #expect(untouched.filter { !exists($0) } == [large + "/trash.png", large + "/remote.png"])
    }

    @Test(
        "a bad --max-size is a usage error (exit 2) that says what a size looks like",
        arguments: ["lots", "5X", "1.2.3", "1e6", "-1", "99999999999T"])
    func badMaxSize(value: String) throws {
        // As a separate word too: "-1" is the option's value, not an unknown option.
        let r = try prune(["--max-size", value])
        #expect(r.status == 2)
        #expect(
            r.stderr == """
                Error: --max-size must be a number of bytes, or one with K, M, G or T (like 500M, 2G or 1048576), not '\(value)'
                Usage: vignette cache prune [--cache-dir <DIR>] [--max-size <SIZE>] [--dry-run] [--verbose]
                  See 'vignette cache prune --help' for more information.

                """)
        #expect(r.stdout == "")
    }

    @Test("one entry is counted in the singular")
    func oneEntry() throws {
        try FileManager.default.createDirectory(atPath: dir + "/in", withIntermediateDirectories: true)
        try BatchFixtures.write(try BatchFixtures.png(seed: 3), dir + "/in/one.png")
        let batch = try vignette(["batch", "--flavor", "normal", "in"])
        #expect(
            batch.stdout.hasPrefix("batch: 1 file: 1 generated, 0 up to date, 0 failed, 0 fallback icons, 0 known failures skipped in "))
        let path = thumbnails + "/normal/" + entry("in/one.png")
        let freed = size(path)
        try FileManager.default.removeItem(atPath: dir + "/in/one.png")
        let r = try prune()
        #expect(r.status == 0)
        #expect(
            r.stdout == "cache prune: 1 entry checked: 1 removed (file gone), 0 removed (file changed), 0 removed (over --max-size), "
                + "0 unreadable left alone; \(ByteCount.text(freed)) freed (cache now 0 bytes)\n")
        #expect(!exists(path))
    }

    @Test("a missing cache is an empty one")
    func missingCache() throws {
        let r = try prune()
        #expect(r.status == 0)
        #expect(r.stdout == Self.summary(checked: 0, gone: 0, changed: 0, over: 0, unreadable: 0, freed: 0, remaining: 0) + "\n")
    }

    @Test("a --cache-dir that is missing or not a folder is an error, not an empty cache")
    func namedCacheDirMustExist() throws {
        let missing = try prune(["--cache-dir", dir + "/typo"])
        #expect(missing.status == 1)
        #expect(missing.stderr == "vignette: \(dir)/typo: no such file or directory\n")
        #expect(missing.stdout == "")
        try Data("x".utf8).write(to: URL(fileURLWithPath: dir + "/file"))
        let file = try prune(["--cache-dir", dir + "/file"])
        #expect(file.status == 2)
        #expect(file.stderr == "vignette: \(dir)/file: is not a directory\n")
    }

    /// Who runs the permission tests: root reads everything, so nobody (65534) when we are root,
    /// after handing them the test folder.
    func unprivilegedUser() throws -> String? {
        guard getuid() == 0 else { return nil }
        for path in [dir] + (try FileManager.default.subpathsOfDirectory(atPath: dir)).map({ dir + "/" + $0 }) {
            #expect(lchown(path, 65534, 65534) == 0, "\(path)")
        }
        return "65534"
    }

    @Test("an unreadable entry or folder and an entry that cannot be removed are reported; the rest goes on (exit 1)")
    func permissionErrors() throws {
        try FileManager.default.createDirectory(atPath: dir + "/in", withIntermediateDirectories: true)
        for (i, name) in ["a", "b"].enumerated() { try BatchFixtures.write(try BatchFixtures.png(seed: i), dir + "/in/\(name).png") }
        try BatchFixtures.write(
            [0xFF, 0xD8, 0xFF, 0xE0, 0, 16] + Array("JFIF".utf8) + [UInt8](repeating: 0x55, count: 200), dir + "/in/bad.jpg")
        _ = try vignette(["batch", "--flavor", "normal", "in"])
        _ = try vignette(["batch", "--flavor", "large", "in"])
        try FileManager.default.removeItem(atPath: dir + "/in/b.png")
        try FileManager.default.removeItem(atPath: dir + "/in/bad.jpg")
        let user = try unprivilegedUser()
        let a = thumbnails + "/normal/" + entry("in/a.png")
        let b = thumbnails + "/normal/" + entry("in/b.png")
        let bad = failFolder + "/" + entry("in/bad.jpg")
        chmod(a, 0)
        chmod(thumbnails + "/large", 0)
        chmod(failFolder, 0o500)
        defer {
            chmod(thumbnails + "/large", 0o700)
            chmod(failFolder, 0o700)
        }
        let freed = size(b)
        let remaining = size(a) + size(bad)

        let r = try prune(user: user)
        #expect(r.status == 1)
        #expect(
            r.stderr == """
                vignette: \(thumbnails)/large: cannot read the cache folder: permission denied
                vignette: \(a): cannot read the entry: permission denied
                vignette: \(bad): cannot remove the entry: permission denied

                """)
        #expect(
            r.stdout
                == Self.summary(checked: 3, gone: 1, changed: 0, over: 0, unreadable: 1, freed: freed, remaining: remaining) + "\n")
        #expect(!exists(b))
        #expect(exists(a) && exists(bad))
    }

    @Test("an unreadable cache root is reported (exit 1)")
    func unreadableRoot() throws {
        try FileManager.default.createDirectory(atPath: thumbnails + "/large", withIntermediateDirectories: true)
        let user = try unprivilegedUser()
        chmod(thumbnails, 0)
        defer { chmod(thumbnails, 0o700) }
        let r = try prune(user: user)
        #expect(r.status == 1)
        #expect(r.stderr == "vignette: \(thumbnails): cannot read the cache: permission denied\n")
        #expect(r.stdout == Self.summary(checked: 0, gone: 0, changed: 0, over: 0, unreadable: 0, freed: 0, remaining: 0) + "\n")
    }
}
