import Foundation
import Testing
import VignetteCore
import VignetteImaging

@testable import VignetteCache

@Suite("CachePruner")
struct CachePrunerTests {
    let dir: String

    init() throws {
        dir = NSTemporaryDirectory() + "vignette-prune-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    }

    func write(_ bytes: [UInt8], _ path: String) throws {
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
    }

    @Test("file URIs read back to paths like GLib's g_filename_from_uri")
    func localFileURIs() {
        #expect(LocalFileURI("file:///home/u/a%20b.jpg") == .path(Array("/home/u/a b.jpg".utf8)))
        #expect(LocalFileURI("FILE://localhost/x") == .path(Array("/x".utf8)))
        #expect(LocalFileURI("file:/x") == .path(Array("/x".utf8)))
        #expect(LocalFileURI("file:///caf%C3%a9%FF") == .path(Array("/café".utf8) + [0xFF]))
        #expect(LocalFileURI("file://server/share/x") == .notLocal)
        #expect(LocalFileURI("trash:///x") == .notLocal)
        #expect(LocalFileURI("fil") == .notLocal)
        for bad in ["file:///a#b", "file:///a%2Fb", "file:///a%00", "file:///a%4", "file:///a%zz", "file:relative", "file://"] {
            #expect(LocalFileURI(bad) == .malformed, "\(bad)")
        }
    }

    @Test("an entry matches a file by MTime (whole or fractional seconds) and Size when recorded")
    func matching() throws {
        func entry(_ text: [(String, String)]) throws -> CacheEntry {
            try #require(CacheEntry(pngBytes: try ImageEncoder.png(Bitmap(width: 1, height: 1), keepAlpha: true, text: text)))
        }
        let whole = try entry([("Thumb::MTime", "1700000000"), ("Thumb::Size", "10")])
        #expect(whole.matches(modificationSeconds: 1_700_000_000, modificationNanoseconds: 5, size: 10) == true)
        #expect(whole.matches(modificationSeconds: 1_700_000_001, modificationNanoseconds: 0, size: 10) == false)
        #expect(whole.matches(modificationSeconds: 1_700_000_000, modificationNanoseconds: 0, size: 11) == false)
        let fractional = try entry([("Thumb::MTime", "1700000000.25")])
        #expect(fractional.matches(modificationSeconds: 1_700_000_000, modificationNanoseconds: 250_000_000, size: 3) == true)
        #expect(fractional.matches(modificationSeconds: 1_700_000_000, modificationNanoseconds: 0, size: 3) == false)
        #expect(try entry([("Thumb::MTime", "1e300")]).matches(modificationSeconds: 1, modificationNanoseconds: 0, size: 1) == false)
        #expect(try entry([("Thumb::MTime", "soon")]).matches(modificationSeconds: 1, modificationNanoseconds: 0, size: 1) == nil)
        #expect(try entry([]).matches(modificationSeconds: 1, modificationNanoseconds: 0, size: 1) == nil)
    }

    @Test("hostile entries are read within bounds and left alone")
    func hostileEntries() throws {
        let large = dir + "/thumbnails/large"
        let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        // A chunk claiming 4 GiB, then 100 000 empty chunks, then a chunk cut short.
        try write(signature + [0xFF, 0xFF, 0xFF, 0xFF] + Array("tEXt".utf8) + [UInt8](repeating: 0, count: 64), large + "/huge.png")
        let empty: [UInt8] = [0, 0, 0, 0] + Array("abCd".utf8) + [0, 0, 0, 0]
        try write(signature + Array((0..<100_000).map { _ in empty }.joined()), large + "/many.png")
        try write(signature + [0, 0, 0, 40] + Array("tEXt".utf8) + Array("Thumb::URI".utf8), large + "/short.png")
        let report = CachePruner(root: dir + "/thumbnails").run()
        #expect(report.checked == 3)
        #expect(report.unreadable.map(\.reason) == ["no Thumb::URI", "no Thumb::URI", "no Thumb::URI"])
        #expect(report.removals.isEmpty && report.errors.isEmpty)
        #expect(FolderListing.names(large) == ["huge.png", "many.png", "short.png"])
    }

    @Test("a dry run reports removals and remaining bytes as a real run would, and removes nothing")
    func dryRunMatchesRealRun() throws {
        let uri = FileURI.string(forAbsolutePath: dir + "/missing.png")
        let png = try ImageEncoder.png(
            Bitmap(width: 2, height: 2), keepAlpha: true, text: [("Thumb::URI", uri), ("Thumb::MTime", "1")])
        try write(png, dir + "/thumbnails/normal/a.png")
        try write(png, dir + "/thumbnails/fail/other-1.0/b.png")
        let dry = CachePruner(root: dir + "/thumbnails", dryRun: true).run()
        #expect(dry.removals.map(\.reason) == [.fileGone, .fileGone])
        #expect(dry.freedBytes == 2 * png.count)
        #expect(FolderListing.names(dir + "/thumbnails/normal") == ["a.png"])
        let real = CachePruner(root: dir + "/thumbnails").run()
        #expect(real == CachePruneReport(copying: dry, dryRun: false))
        #expect(FolderListing.names(dir + "/thumbnails/normal") == [])
        #expect(FolderListing.names(dir + "/thumbnails/fail/other-1.0") == [])
    }
}

/// Sorted names in a folder.
enum FolderListing {
    static func names(_ dir: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []).sorted()
    }
}

extension CachePruneReport {
    /// `report` with another `dryRun`.
    init(copying report: CachePruneReport, dryRun: Bool) {
        self.init(dryRun: dryRun)
        checked = report.checked
        removals = report.removals
        unreadable = report.unreadable
        errors = report.errors
        remainingBytes = report.remainingBytes
    }
}
