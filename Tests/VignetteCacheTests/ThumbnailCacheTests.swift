import Foundation
import Testing
import VignetteCache
import VignetteCore
import VignetteImaging

@Suite("ThumbnailCache")
struct ThumbnailCacheTests {
    let dir: String
    let cache: ThumbnailCache

    init() throws {
        dir = NSTemporaryDirectory() + "vignette-cache-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        cache = ThumbnailCache(root: dir + "/xdg/thumbnails", version: "9.9")
    }

    func source(mtime: Int = 1_700_000_000, nanos: Int = 0, size: Int = 1234) -> SourceFile {
        SourceFile(path: "/photos/a b.jpg", modificationSeconds: mtime, modificationNanoseconds: nanos, size: size)
    }

    static func png(_ text: [(String, String)]) throws -> [UInt8] {
        try ImageEncoder.png(Bitmap(width: 2, height: 2), keepAlpha: true, text: text)
    }

    @Test("the root comes from XDG_CACHE_HOME, else HOME/.cache; a relative XDG_CACHE_HOME is ignored")
    func defaultRoot() {
        #expect(ThumbnailCache.defaultRoot(environment: ["XDG_CACHE_HOME": "/x/cache", "HOME": "/home/u"]) == "/x/cache/thumbnails")
        #expect(ThumbnailCache.defaultRoot(environment: ["HOME": "/home/u"]) == "/home/u/.cache/thumbnails")
        #expect(ThumbnailCache.defaultRoot(environment: ["XDG_CACHE_HOME": "rel", "HOME": "/home/u"]) == "/home/u/.cache/thumbnails")
    }

    @Test("flavors map to their folders and sizes")
    func flavors() {
        #expect(ThumbnailFlavor.allCases.map(\.pixelSize) == [128, 256, 512, 1024])
        #expect(cache.directory(for: .xLarge) == dir + "/xdg/thumbnails/x-large")
        #expect(
            cache.thumbnailPath(for: source(), flavor: .large) == dir + "/xdg/thumbnails/large/"
                + ThumbnailURI.cacheName(forURI: "file:///photos/a%20b.jpg"))
        #expect(cache.failDirectory == dir + "/xdg/thumbnails/fail/vignette-9.9")
    }

    @Test("a stored thumbnail reads back with the spec's keys, is valid, and is 0600 in 0700 folders")
    func storeAndReadBack() throws {
        let path = try cache.store(Bitmap(width: 4, height: 3), for: source(), flavor: .normal, mimeType: "image/jpeg")
        let entry = try #require(CacheEntry(path: path))
        #expect(entry.uri == "file:///photos/a%20b.jpg")
        #expect(entry.text["Thumb::MTime"] == "1700000000")
        #expect(entry.size == 1234)
        #expect(entry.mimeType == "image/jpeg")
        #expect(entry.software == "vignette 9.9")
        #expect(entry.isValid(for: source()))
        #expect(cache.state(of: source(), flavor: .normal) == .valid)
        #expect(mode(path) == 0o600)
        #expect(mode(cache.directory(for: .normal)) == 0o700)
        #expect(mode(cache.root) == 0o700)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: cache.directory(for: .normal))
        #expect(leftovers == [ThumbnailURI.cacheName(forURI: source().uri)])
    }

    @Test("an entry is stale when MTime differs either way or the size differs")
    func staleness() throws {
        let entry = try #require(
            CacheEntry(pngBytes: try Self.png([("Thumb::URI", source().uri), ("Thumb::MTime", "1700000000"), ("Thumb::Size", "1234")])))
        #expect(entry.isValid(for: source()))
        #expect(!entry.isValid(for: source(mtime: 1_700_000_001)))
        #expect(!entry.isValid(for: source(mtime: 1_699_999_999)))
        #expect(!entry.isValid(for: source(size: 1235)))
        let moved = SourceFile(path: "/photos/other.jpg", modificationSeconds: 1_700_000_000, size: 1234)
        #expect(!entry.isValid(for: moved))
    }

    @Test("an MTime no integer holds (1e300, -1e300) is stale, not a crash")
    func hugeMTime() throws {
        for text in ["1e300", "-1e300", "9.3e18", "1.5e12"] {
            let entry = try #require(CacheEntry(pngBytes: try Self.png([("Thumb::URI", source().uri), ("Thumb::MTime", text)])))
            #expect(!entry.isValid(for: source()))
        }
    }

    @Test("without Thumb::Size only URI and MTime count; without MTime nothing is valid")
    func optionalSize() throws {
        let noSize = try #require(CacheEntry(pngBytes: try Self.png([("Thumb::URI", source().uri), ("Thumb::MTime", "1700000000")])))
        #expect(noSize.isValid(for: source(size: 99)))
        let noTime = try #require(CacheEntry(pngBytes: try Self.png([("Thumb::URI", source().uri)])))
        #expect(!noTime.isValid(for: source()))
    }

    @Test("a fractional MTime (as tumbler writes) is compared to the microsecond")
    func fractionalMTime() throws {
        let entry = try #require(CacheEntry(pngBytes: try Self.png([("Thumb::URI", source().uri), ("Thumb::MTime", "1700000000.250000")])))
        #expect(entry.isValid(for: source(nanos: 250_000_000)))
        #expect(!entry.isValid(for: source(nanos: 0)))
    }

    @Test("bytes that are not a PNG are no entry; a truncated PNG keeps the keys before the cut")
    func hostileEntries() throws {
        #expect(CacheEntry(pngBytes: Array("hello".utf8)) == nil)
        let bytes = try Self.png([("Thumb::URI", "file:///x")])
        let cut = try #require(CacheEntry(pngBytes: Array(bytes.prefix(bytes.count - 20))))
        #expect(cut.uri == "file:///x")
    }

    @Test("a failure is recorded in fail/vignette-VERSION and is cleared by a later thumbnail")
    func failEntries() throws {
        let failPath = try cache.storeFailure(for: source(), mimeType: nil, extra: [("Vignette::Outcome", "failed")])
        #expect(failPath == dir + "/xdg/thumbnails/fail/vignette-9.9/" + ThumbnailURI.cacheName(forURI: source().uri))
        let entry = try #require(CacheEntry(path: failPath))
        #expect(cache.state(of: source(), flavor: .large) == .failed(entry))
        #expect(entry.text["Vignette::Outcome"] == "failed")
        #expect(cache.state(of: source(mtime: 5), flavor: .large) == .missing)
        try cache.store(Bitmap(width: 1, height: 1), for: source(), flavor: .large, mimeType: nil)
        #expect(!FileManager.default.fileExists(atPath: failPath))
        #expect(cache.state(of: source(), flavor: .large) == .valid)
    }

    @Test("the cache knows its own files")
    func containsItsFiles() {
        #expect(cache.contains(cache.root + "/large/x.png"))
        #expect(!cache.contains(cache.root + "-other/x.png"))
    }

    @Test("old temporaries of a killed writer are removed, young ones and real entries kept")
    func staleTemporaries() throws {
        try cache.store(Bitmap(width: 1, height: 1), for: source(), flavor: .large, mimeType: nil)
        let large = cache.directory(for: .large)
        let old = large + "/.abc.png.tmp-123456"
        let young = large + "/.def.png.tmp-654321"
        #expect(FileManager.default.createFile(atPath: old, contents: Data([1, 2])))
        #expect(FileManager.default.createFile(atPath: young, contents: Data([1, 2])))
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -3600)], ofItemAtPath: old)
        #expect(cache.removeStaleTemporaries(flavor: .large) == 1)
        let names = try FileManager.default.contentsOfDirectory(atPath: large).sorted()
        #expect(names == [".def.png.tmp-654321", ThumbnailURI.cacheName(forURI: source().uri)].sorted())
    }

    @Test("a temporary whose writer process is gone is removed at once; one of a live process is kept")
    func temporariesOfDeadWriters() throws {
        try cache.store(Bitmap(width: 1, height: 1), for: source(), flavor: .large, mimeType: nil)
        let large = cache.directory(for: .large)
        let child = Process()
        child.executableURL = URL(fileURLWithPath: "/bin/true")
        try child.run()
        child.waitUntilExit()
        let dead = large + "/.abc.png.tmp-vignette\(child.processIdentifier)-Ab12Cd"
        let live = large + "/.def.png.tmp-vignette1-Ef34Gh"
        #expect(FileManager.default.createFile(atPath: dead, contents: Data([1])))
        #expect(FileManager.default.createFile(atPath: live, contents: Data([1])))
        #expect(cache.removeStaleTemporaries(flavor: .large) == 1)
        #expect(!FileManager.default.fileExists(atPath: dead))
        #expect(FileManager.default.fileExists(atPath: live))
    }

    func mode(_ path: String) -> Int {
        var st = stat()
        guard stat(path, &st) == 0 else { return -1 }
        return Int(st.st_mode & 0o777)
    }
}
