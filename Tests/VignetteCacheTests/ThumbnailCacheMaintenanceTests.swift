import Foundation
import Testing
import VignetteCore
import VignetteImaging

@testable import VignetteCache

/// The cache side of the D-Bus `Cache1` interface: Move, Copy, Delete, Cleanup.
@Suite("ThumbnailCache maintenance")
struct ThumbnailCacheMaintenanceTests {
    let dir: String
    let cache: ThumbnailCache

    init() throws {
        dir = NSTemporaryDirectory() + "vignette-maintenance-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir + "/files", withIntermediateDirectories: true)
        cache = ThumbnailCache(root: dir + "/thumbnails", version: "1.0")
    }

    /// A file at `name` with a thumbnail in two flavors.
    func thumbnailed(_ name: String) throws -> SourceFile {
        let path = dir + "/files/" + name
        try Data("content of \(name)".utf8).write(to: URL(fileURLWithPath: path))
        let source = try SourceFile(path: path)
        for flavor in [ThumbnailFlavor.normal, .large] {
            try cache.store(Bitmap(width: 4, height: 3), for: source, flavor: flavor, mimeType: "text/plain")
        }
        return source
    }

    @Test("Move renames every flavor's entry and rewrites Thumb::URI; the entry is valid for the moved file")
    func move() throws {
        let old = try thumbnailed("a b.txt")
        let target = dir + "/files/moved #1.txt"
        try FileManager.default.moveItem(atPath: old.path, toPath: target)
        let moved = try SourceFile(path: target)
        #expect(cache.moveEntries(from: old.uri, to: moved.uri) == 2)
        for flavor in [ThumbnailFlavor.normal, .large] {
            #expect(!FileManager.default.fileExists(atPath: cache.thumbnailPath(for: old, flavor: flavor)))
            let entry = try #require(CacheEntry(path: cache.thumbnailPath(for: moved, flavor: flavor)))
            #expect(entry.uri == moved.uri)
            #expect(entry.mimeType == "text/plain")
            #expect(entry.isValid(for: moved))
        }
        #expect(cache.state(of: moved, flavor: .large) == .valid)
    }

    @Test("Move skips a FIFO planted under an entry's name instead of blocking on it, and moves the rest")
    func moveSkipsAFIFO() throws {
        let old = try thumbnailed("p.txt")
        let planted = cache.thumbnailPath(for: old, flavor: .normal)
        try FileManager.default.removeItem(atPath: planted)
        #expect(mkfifo(planted, 0o600) == 0)
        let target = dir + "/files/q.txt"
        try FileManager.default.moveItem(atPath: old.path, toPath: target)
        let moved = try SourceFile(path: target)
        #expect(cache.moveEntries(from: old.uri, to: moved.uri) == 1)
        #expect(cache.state(of: moved, flavor: .large) == .valid)
        #expect(cache.state(of: moved, flavor: .normal) == .missing)
    }

    @Test("Copy keeps the original's entries; Delete removes every flavor's and the fail entry")
    func copyAndDelete() throws {
        let source = try thumbnailed("c.txt")
        try cache.storeFailure(for: source, mimeType: nil)
        let copy = dir + "/files/c copy.txt"
        try FileManager.default.copyItem(atPath: source.path, toPath: copy)
        #expect(cache.copyEntries(from: source.uri, to: FileURI.string(forAbsolutePath: copy)) == 3)
        #expect(cache.state(of: source, flavor: .normal) == .valid)
        #expect(cache.deleteEntries(of: source.uri) == 3)
        #expect(cache.state(of: source, flavor: .normal) == .missing)
        #expect(!FileManager.default.fileExists(atPath: cache.failPath(for: source)))
    }

    @Test("Cleanup removes the entries of gone or changed files below a base URI, and only there")
    func cleanup() throws {
        let kept = try thumbnailed("kept.txt")
        let gone = try thumbnailed("gone.txt")
        try FileManager.default.removeItem(atPath: gone.path)
        #expect(cache.cleanUp(below: ["file:///elsewhere"], since: 0) == 0)
        #expect(cache.cleanUp(below: [FileURI.string(forAbsolutePath: dir + "/files") + "/"], since: 0) == 2)
        #expect(cache.state(of: kept, flavor: .large) == .valid)
        #expect(!FileManager.default.fileExists(atPath: cache.thumbnailPath(for: gone, flavor: .large)))
    }

    @Test("A rewritten PNG keeps its pixels and other keys; chunk CRCs are PNG's CRC-32")
    func rewrite() throws {
        let bytes = try ImageEncoder.png(
            Bitmap(width: 2, height: 2), keepAlpha: true, text: [("Thumb::URI", "file:///a"), ("Thumb::MTime", "5")])
        let rewritten = try #require(PNGTextChunks.replacing("Thumb::URI", with: "file:///b", in: bytes))
        #expect(PNGTextChunks.read(rewritten) == ["Thumb::URI": "file:///b", "Thumb::MTime": "5"])
        let decoded = try rewritten.withUnsafeBytes { try ImageDecoder.png($0, request: ThumbnailRequest(maxPixelSize: 2)) }
        #expect(decoded.bitmap.width == 2)
        #expect(PNGTextChunks.replacing("Thumb::URI", with: "x", in: Array("not a png at all, really not".utf8)) == nil)
        #expect(PNGTextChunks.crc32(Array("IEND".utf8)) == 0xAE42_6082)
    }
}
