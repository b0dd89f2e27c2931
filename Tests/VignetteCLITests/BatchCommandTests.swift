import Foundation
import Testing
import VignetteCache
import VignetteCore

@Suite("vignette batch")
struct BatchCommandTests {
    let dir: String
    let cache: String

    init() throws {
        dir = try CLI.tempDirectory()
        cache = dir + "/cache"
    }

    func batch(_ arguments: [String]) throws -> CLIResult {
        try CLI.run(["batch"] + arguments, environment: ["XDG_CACHE_HOME": cache], currentDirectory: dir)
    }

    /// a.png, b.jpg, sub/c.png, data.bin (binary nothing pictures: the fallback icon), .hidden.png.
    func smallTree() throws {
        try BatchFixtures.write(try BatchFixtures.png(seed: 1), dir + "/in/a.png")
        try BatchFixtures.write(try BatchFixtures.jpeg(seed: 2), dir + "/in/b.jpg")
        try BatchFixtures.write(try BatchFixtures.png(seed: 3), dir + "/in/sub/c.png")
        try BatchFixtures.write((0..<300).map { UInt8(($0 * 151 + 7) % 256) }, dir + "/in/data.bin")
        try BatchFixtures.write(try BatchFixtures.png(seed: 4), dir + "/in/.hidden.png")
    }

    @Test("a second run finds every thumbnail up to date")
    func incremental() throws {
        try smallTree()
        let first = try batch(["in"])
        #expect(first.status == 0)
        #expect(
            first.stdout.hasPrefix("batch: 4 files: 3 generated, 0 up to date, 0 failed, 1 fallback icon, 0 known failures skipped in "))
        #expect(BatchFixtures.pngs(in: cache + "/thumbnails/large").count == 3)
        let second = try batch(["in"])
        #expect(second.status == 0)
        #expect(
            second.stdout.hasPrefix("batch: 4 files: 0 generated, 4 up to date, 0 failed, 0 fallback icons, 0 known failures skipped in "))
        let forced = try batch(["--force", "in"])
        #expect(forced.stdout.hasPrefix("batch: 4 files: 3 generated, 0 up to date, 0 failed, 1 fallback icon, "))
    }

    @Test("--dry-run says what would be done and writes nothing")
    func dryRun() throws {
        try smallTree()
        let r = try batch(["--dry-run", "in"])
        #expect(r.status == 0)
        let lines = r.stdout.split(separator: "\n").map(String.init)
        #expect(
            Array(lines.prefix(4)).sorted() == [
                "would generate: in/a.png", "would generate: in/b.jpg", "would generate: in/data.bin", "would generate: in/sub/c.png",
            ])
        #expect(lines.last?.hasPrefix("batch: 4 files: 4 to generate, 0 up to date, ") == true)
        #expect(!FileManager.default.fileExists(atPath: cache))
    }

    @Test("walk options: --no-recursive, --hidden, --include, --exclude")
    func walkOptions() throws {
        try smallTree()
        func paths(_ options: [String]) throws -> [String] {
            let r = try batch(["--dry-run", "--json-lines"] + options + ["in"])
            return BatchFixtures.events(r.stdout).compactMap { $0["path"] as? String }.sorted()
        }
        #expect(try paths(["--no-recursive"]) == ["in/a.png", "in/b.jpg", "in/data.bin"])
        #expect(try paths(["--hidden", "--include", "*.png"]) == ["in/.hidden.png", "in/a.png", "in/sub/c.png"])
        #expect(try paths(["--exclude", "sub", "--exclude", "*.bin"]) == ["in/a.png", "in/b.jpg"])
        #expect(try paths(["--include", "sub/*"]) == ["in/sub/c.png"])
    }

    @Test("--follow-symlinks walks each directory once, loops included; without it links are skipped")
    func symlinkLoops() throws {
        try smallTree()
        try FileManager.default.createSymbolicLink(atPath: dir + "/in/sub/loop", withDestinationPath: "..")
        try FileManager.default.createSymbolicLink(atPath: dir + "/in/link.png", withDestinationPath: "a.png")
        let followed = try batch(["--dry-run", "--json-lines", "--follow-symlinks", "in"])
        let paths = BatchFixtures.events(followed.stdout).compactMap { $0["path"] as? String }.sorted()
        #expect(paths == ["in/a.png", "in/b.jpg", "in/data.bin", "in/link.png", "in/sub/c.png"])
        let plain = try batch(["--dry-run", "--json-lines", "in"])
        #expect(BatchFixtures.events(plain.stdout).compactMap { $0["path"] as? String }.count == 4)
    }

    @Test("the thumbnail cache inside the walked tree is not thumbnailed")
    func skipsTheCache() throws {
        try smallTree()
        let r = try CLI.run(["batch", "--hidden", "."], environment: ["XDG_CACHE_HOME": dir + "/in/.cache"], currentDirectory: dir + "/in")
        #expect(r.status == 0)
        #expect(r.stdout.hasPrefix("batch: 5 files: 4 generated, "))
        let again = try CLI.run(
            ["batch", "--hidden", "."], environment: ["XDG_CACHE_HOME": dir + "/in/.cache"], currentDirectory: dir + "/in")
        #expect(again.stdout.hasPrefix("batch: 5 files: 0 generated, 5 up to date, "))
    }

    @Test("a thumbnail the cache cannot take fails this run only: the message names both files, no fail entry, the next run makes it")
    func unwritableCacheLeavesNoFailEntry() throws {
        try BatchFixtures.write(try BatchFixtures.png(seed: 1), dir + "/in/a.png")
        // The flavor's folder is a file: every write into it fails, as on a full or read-only disk
        // (which root, running the tests, would not meet through permissions).
        try FileManager.default.createDirectory(atPath: cache + "/thumbnails", withIntermediateDirectories: true)
        try Data().write(to: URL(fileURLWithPath: cache + "/thumbnails/large"))
        let r = try batch(["in"])
        #expect(r.status == 1)
        let entry = try #require(r.stderr.split(separator: " ").last { $0.hasSuffix(".png:") })
        #expect(entry.hasPrefix(cache + "/thumbnails/large/"))
        #expect(r.stderr == "vignette: in/a.png: its thumbnail could not be written: \(entry) a component of the path is not a directory\n")
        #expect(BatchFixtures.pngs(in: cache + "/thumbnails/fail/vignette-0.1.0").isEmpty)
        try FileManager.default.removeItem(atPath: cache + "/thumbnails/large")
        let again = try batch(["in"])
        #expect(again.status == 0)
        #expect(again.stdout.hasPrefix("batch: 1 file: 1 generated, 0 up to date, 0 failed, "))
    }

    @Test("walking the --out folder itself is an error naming it, not a silent empty run")
    func walkingTheOutFolder() throws {
        try smallTree()
        let r = try batch(["--out", "in", "--size", "32", "in"])
        #expect(r.status == 1)
        #expect(r.stderr == "vignette: in: is where the thumbnails go (the --out folder or the cache), so it is not walked\n")
        #expect(r.stdout.hasPrefix("batch: 1 file: 0 generated, 0 up to date, 1 failed, "))
        #expect(!FileManager.default.fileExists(atPath: dir + "/in/a.png.png"))
    }

    @Test("shards are disjoint and together cover every file")
    func shards() throws {
        try BatchFixtures.manyImages(40, in: dir + "/in")
        var seen: [String] = []
        for i in 0..<3 {
            let r = try batch(["--dry-run", "--json-lines", "--shard", "\(i)/3", "in"])
            #expect(r.status == 0)
            let paths = BatchFixtures.events(r.stdout).compactMap { $0["path"] as? String }
            #expect(!paths.isEmpty)
            seen += paths
        }
        #expect(seen.count == 40)
        #expect(Set(seen).count == 40)
    }

    @Test("one bad file is listed, the others done, exit 1; then it is a known failure until --retry-failed")
    func badFile() throws {
        try smallTree()
        try BatchFixtures.write(
            [0xFF, 0xD8, 0xFF, 0xE0, 0, 16] + Array("JFIF".utf8) + [UInt8](repeating: 0x55, count: 200), dir + "/in/bad.jpg")
        let r = try batch(["in"])
        #expect(r.status == 1)
        #expect(r.stderr.hasPrefix("vignette: in/bad.jpg: image: failed: "))
        #expect(r.stderr.split(separator: "\n").count == 1)
        #expect(r.stdout.hasPrefix("batch: 5 files: 3 generated, 0 up to date, 1 failed, 1 fallback icon, "))
        #expect(BatchFixtures.pngs(in: cache + "/thumbnails/fail/vignette-0.1.0").count == 2)
        let again = try batch(["in"])
        #expect(again.status == 0)
        #expect(
            again.stdout.hasPrefix("batch: 5 files: 0 generated, 4 up to date, 0 failed, 0 fallback icons, 1 known failure skipped in "))
        let retried = try batch(["--retry-failed", "in"])
        #expect(retried.status == 1)
        #expect(retried.stdout.hasPrefix("batch: 5 files: 0 generated, 3 up to date, 1 failed, 1 fallback icon, "))
    }

    @Test(
        "on a terminal a progress bar is drawn on stderr; off a terminal there is none",
        .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/script"), "needs script (util-linux)"))
    func progressBarOnlyOnATerminal() throws {
        try smallTree()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
        // script(1) gives the command a pseudo-terminal; its output (stdout and stderr) comes back here.
        process.arguments = ["-qec", "'\(CLI.binary)' batch in", "/dev/null"]
        var env = ProcessInfo.processInfo.environment
        env["XDG_CACHE_HOME"] = cache
        process.environment = env
        process.currentDirectoryURL = URL(fileURLWithPath: dir)
        let out = Pipe()
        process.standardOutput = out
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(text.contains("\r\u{1B}[K"))
        #expect(text.contains(" files/s"))
        #expect(text.contains("batch: 4 files: 3 generated, "))
        let plain = try batch(["--force", "in"])
        #expect(plain.stderr.isEmpty)
    }

    @Test("a missing path is reported and counted as failed")
    func missingPath() throws {
        let r = try batch(["nowhere"])
        #expect(r.status == 1)
        #expect(r.stderr == "vignette: nowhere: no such file or directory\n")
    }

    @Test("a file name that is not UTF-8 is reported, not silently dropped")
    func undecodableName() throws {
        try smallTree()
        let raw: [UInt8] = Array((dir + "/in/b").utf8) + [0xFF] + Array(".png".utf8) + [0]
        let fd = raw.withUnsafeBufferPointer { p in
            p.baseAddress!.withMemoryRebound(to: CChar.self, capacity: raw.count) { creat($0, 0o644) }
        }
        #expect(fd >= 0)
        close(fd)
        let r = try batch(["--dry-run", "in"])
        #expect(r.status == 1)
        #expect(r.stderr == "vignette: in/b\\xFF.png: the file name is not valid UTF-8; skipped\n")
    }

    @Test("--json-lines gives one event per file and a summary; --report writes them as JSON")
    func jsonLinesAndReport() throws {
        try smallTree()
        let r = try batch(["--json-lines", "--report", "report.json", "in"])
        #expect(r.status == 0)
        let events = BatchFixtures.events(r.stdout)
        #expect(events.count == 5)
        let files = events.filter { $0["event"] as? String == "file" }
        #expect(files.map { $0["path"] as? String ?? "" }.sorted() == ["in/a.png", "in/b.jpg", "in/data.bin", "in/sub/c.png"])
        let a = try #require(files.first { $0["path"] as? String == "in/a.png" })
        #expect(a["result"] as? String == "generated")
        #expect(a["generator"] as? String == "image")
        #expect((a["thumbnail"] as? String)?.hasPrefix(cache + "/thumbnails/large/") == true)
        let bin = try #require(files.first { $0["path"] as? String == "in/data.bin" })
        #expect(bin["result"] as? String == "icon")
        let summary = try #require(events.last)
        #expect(summary["event"] as? String == "summary")
        #expect(summary["generated"] as? Int == 3)
        #expect(summary["icon"] as? Int == 1)
        let report = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: dir + "/report.json"))) as? [String: Any])
        #expect((report["results"] as? [[String: Any]])?.count == 4)
        #expect((report["summary"] as? [String: Any])?["generated"] as? Int == 3)
        let nowhere = try batch(["--report", "missing/report.json", "in"])
        #expect(nowhere.status == 1)
        #expect(nowhere.stderr == "vignette: missing/report.json: cannot create the file: no such file or directory\n")
    }

    @Test("--report into a FIFO is written into it, and through a symbolic link to its target; neither is replaced")
    func reportIntoAFIFOAndThroughALink() throws {
        try smallTree()
        #expect(mkfifo(dir + "/pipe", 0o600) == 0)
        // Opened for reading first, without blocking, so that batch's open does not wait; the
        // report of four files fits in the pipe's buffer.
        let reader = open(dir + "/pipe", O_RDONLY | O_NONBLOCK)
        #expect(reader >= 0)
        defer { close(reader) }
        let piped = try batch(["--report", "pipe", "in"])
        #expect(piped.status == 0)
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while case let n = read(reader, &buffer, buffer.count), n > 0 { received += buffer[0..<n] }
        let report = try #require(try JSONSerialization.jsonObject(with: Data(received)) as? [String: Any])
        #expect((report["results"] as? [[String: Any]])?.count == 4)
        var st = stat()
        #expect(lstat(dir + "/pipe", &st) == 0 && st.st_mode & S_IFMT == S_IFIFO)

        try Data().write(to: URL(fileURLWithPath: dir + "/real.json"))
        try FileManager.default.createSymbolicLink(atPath: dir + "/link.json", withDestinationPath: "real.json")
        #expect(try batch(["--report", "link.json", "in"]).status == 0)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: dir + "/link.json") == "real.json")
        let linked = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: dir + "/real.json"))) as? [String: Any]
        #expect((linked?["results"] as? [[String: Any]])?.count == 4)
    }

    @Test("--contact-sheet links relative to where the page lands: a link's target, or by absolute URIs into a pipe")
    func contactSheetThroughALinkAndIntoAFIFO() throws {
        try smallTree()
        try FileManager.default.createDirectory(atPath: dir + "/thumbs", withIntermediateDirectories: true)
        try Data().write(to: URL(fileURLWithPath: dir + "/thumbs/index.html"))
        try FileManager.default.createSymbolicLink(atPath: dir + "/sheet.html", withDestinationPath: "thumbs/index.html")
        #expect(try batch(["--out", "thumbs", "--size", "32", "--contact-sheet", "sheet.html", "in"]).status == 0)
        let html = try String(contentsOfFile: dir + "/thumbs/index.html", encoding: .utf8)
        #expect(html.contains("<img loading=\"lazy\" src=\"sub/c.png.png\" alt=\"\"><figcaption>in/sub/c.png</figcaption>"))

        #expect(mkfifo(dir + "/pipe", 0o600) == 0)
        let reader = open(dir + "/pipe", O_RDONLY | O_NONBLOCK)
        #expect(reader >= 0)
        defer { close(reader) }
        #expect(try batch(["--out", "thumbs", "--size", "24", "--contact-sheet", "pipe", "in/sub"]).status == 0)
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while case let n = read(reader, &buffer, buffer.count), n > 0 { received += buffer[0..<n] }
        let uri = FileURI.string(forAbsolutePath: SourceFile.absolute(dir + "/thumbs/c.png.png"))
        let piped = String(decoding: received, as: UTF8.self)
        #expect(piped.contains("<img loading=\"lazy\" src=\"\(uri)\" alt=\"\">"))
        #expect(piped.hasSuffix("</div><p>1 file.</p></body></html>\n"))
    }

    @Test("--out mirrors the tree at --size, up to date by modification time; --contact-sheet shows every file")
    func outFolderAndContactSheet() throws {
        try smallTree()
        let r = try batch(["--out", "thumbs", "--size", "32", "--contact-sheet", "sheet.html", "in"])
        #expect(r.status == 0)
        #expect(r.stdout.hasSuffix("contact sheet: sheet.html\n"))
        for name in ["a.png.png", "b.jpg.png", "data.bin.png", "sub/c.png.png"] {
            let size = pngSize(try Data(contentsOf: URL(fileURLWithPath: dir + "/thumbs/" + name)))
            #expect(size.map { max($0.0, $0.1) } == 32, "\(name)")
        }
        let html = try String(contentsOfFile: dir + "/sheet.html", encoding: .utf8)
        #expect(html.contains("<img loading=\"lazy\" src=\"thumbs/sub/c.png.png\" alt=\"\"><figcaption>in/sub/c.png</figcaption>"))
        #expect(html.components(separatedBy: "<figure").count == 5)
        #expect(html.hasSuffix("</div><p>4 files.</p></body></html>\n"))
        let again = try batch(["--out", "thumbs", "--size", "32", "in"])
        #expect(again.stdout.hasPrefix("batch: 4 files: 0 generated, 4 up to date, "))
        // Another size makes every thumbnail stale.
        let resized = try batch(["--out", "thumbs", "--size", "24", "in"])
        #expect(resized.stdout.hasPrefix("batch: 4 files: 3 generated, 0 up to date, 0 failed, 1 fallback icon, "))
        let jpeg = try batch(["--out", "jthumbs", "--format", "jpeg", "in/a.png"])
        #expect(jpeg.status == 0)
        #expect(Array(try Data(contentsOf: URL(fileURLWithPath: dir + "/jthumbs/a.png.jpg")).prefix(3)) == [0xFF, 0xD8, 0xFF])
    }

    @Test("--flavor normal,large,x-large fills each flavor from one decode; a later run makes only the missing flavor")
    func severalFlavors() throws {
        try BatchFixtures.write(try BatchFixtures.jpeg(seed: 5, width: 900, height: 600), dir + "/in/big.jpg")
        try BatchFixtures.write((0..<300).map { UInt8(($0 * 151 + 7) % 256) }, dir + "/in/data.bin")
        let first = try batch(["--flavor", "normal,x-large", "in"])
        #expect(first.status == 0)
        #expect(first.stdout.hasPrefix("batch: 2 files: 1 generated, 0 up to date, 0 failed, 1 fallback icon, "))
        let source = try SourceFile(path: dir + "/in/big.jpg")
        let thumbnails = ThumbnailCache(root: cache + "/thumbnails", version: "test")
        for (flavor, side) in [(ThumbnailFlavor.normal, 128), (.xLarge, 512)] {
            let path = thumbnails.thumbnailPath(for: source, flavor: flavor)
            let entry = try #require(CacheEntry(path: path), "\(flavor)")
            #expect(entry.isValid(for: source))
            #expect(pngSize(try Data(contentsOf: URL(fileURLWithPath: path))).map { max($0.0, $0.1) } == side)
        }
        #expect(!FileManager.default.fileExists(atPath: thumbnails.thumbnailPath(for: source, flavor: .large)))
        // The file nothing pictures has one fail entry, shared by every flavor: skipped in all of them.
        let second = try batch(["--flavor", "normal,large,x-large", "in"])
        #expect(second.stdout.hasPrefix("batch: 2 files: 1 generated, 1 up to date, 0 failed, 0 fallback icons, "))
        let large = thumbnails.thumbnailPath(for: source, flavor: .large)
        #expect(pngSize(try Data(contentsOf: URL(fileURLWithPath: large))).map { max($0.0, $0.1) } == 256)
        let third = try batch(["--flavor", "x-large,normal,large", "in"])
        #expect(third.stdout.hasPrefix("batch: 2 files: 0 generated, 2 up to date, "))
    }

    @Test("--out with --crop fill cuts exactly the box; another --crop makes it stale")
    func outWithCrop() throws {
        try BatchFixtures.write(try BatchFixtures.png(seed: 6, width: 300, height: 120), dir + "/in/wide.png")
        let fill = try batch(["--out", "sq", "--size", "40", "--crop", "fill", "in"])
        #expect(fill.status == 0)
        let path = dir + "/sq/wide.png.png"
        #expect(pngSize(try Data(contentsOf: URL(fileURLWithPath: path))).map { [$0.0, $0.1] } == [40, 40])
        let again = try batch(["--out", "sq", "--size", "40", "--crop", "fill", "in"])
        #expect(again.stdout.hasPrefix("batch: 1 file: 0 generated, 1 up to date, "))
        let smart = try batch(["--out", "sq", "--size", "40", "--crop", "smart", "in"])
        #expect(smart.stdout.hasPrefix("batch: 1 file: 1 generated, 0 up to date, "))
        let fit = try batch(["--out", "sq", "--size", "40", "in"])
        #expect(fit.stdout.hasPrefix("batch: 1 file: 1 generated, 0 up to date, "))
        #expect(pngSize(try Data(contentsOf: URL(fileURLWithPath: path))).map { [$0.0, $0.1] } == [40, 16])
    }

    @Test(
        "flavor, crop and shard mistakes are usage errors with a reason",
        arguments: [
            (["--shard", "3/2", "in"], "--shard must be I/N with 0 <= I < N, like 3/8, not 3/2"),
            (["--flavor", "normal,huge", "in"], "'huge' is not a flavor: use normal, large, x-large or xx-large, comma-separated"),
            (["--flavor", "normal,", "in"], "an empty name is not a flavor: use normal, large, x-large or xx-large, comma-separated"),
            (["--crop", "fill", "in"], "Error: --crop needs --out (the cache's thumbnails show the whole picture)"),
        ])
    func flavorAndCropMistakes(arguments: [String], message: String) throws {
        let r = try batch(arguments)
        #expect(r.status == 2)
        #expect(r.stderr.contains(message))
    }

    @Test(
        "usage errors exit 2",
        arguments: [
            ["--size", "64", "in"], ["--out", "x", "--flavor", "large", "in"], ["--shard", "3/3", "in"], ["--jobs", "0", "in"],
            ["--flavor", "huge", "in"],
        ])
    func usageErrors(arguments: [String]) throws {
        let r = try batch(arguments)
        #expect(r.status == 2)
    }
}
