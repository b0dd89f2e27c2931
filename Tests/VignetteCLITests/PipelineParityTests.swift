import Foundation
import Testing
import VignetteCache
import VignetteCore
import VignetteImaging
import VignetteTestSupport

/// Every edge goes through the one thumbnail pipeline: the service draws what the CLI draws, and
/// the cache records what the pipeline learnt about the image.
@Suite("One pipeline behind every edge")
struct PipelineParityTests {
    /// The pixels of a PNG.
    func pixels(_ png: [UInt8]) throws -> Bitmap {
        try png.withUnsafeBytes { try ImageDecoder.png($0, request: ThumbnailRequest(maxPixelSize: 4096)).bitmap }
    }

    @Test func theServicesIconModeDrawsTheCLIsIconPixelForPixel() throws {
        let server = try ServeProcess()
        let dir = try CLI.tempDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let cli = try CLI.run(["thumbnail", "--icon", "-s", "48", server.root + "/notes.txt", "-o", dir + "/icon.png"])
        #expect(cli.status == 0, "\(cli.stderr)")
        let fromCLI = try pixels(Array(try Data(contentsOf: URL(fileURLWithPath: dir + "/icon.png"))))
        let icon = try #require(LoopbackSocket.fetch(port: server.port, "/v1/thumbnail?path=notes.txt&size=48&icon=1"))
        #expect(icon.head.hasPrefix("HTTP/1.1 200 OK"))
        let fromService = try pixels(icon.body)
        #expect(fromService.width == fromCLI.width && fromService.height == fromCLI.height)
        #expect(fromService.pixels == fromCLI.pixels)
        // Without icon=1 the picture is the page alone, not framed: other pixels.
        let plain = try #require(LoopbackSocket.fetch(port: server.port, "/v1/thumbnail?path=notes.txt&size=48"))
        #expect(try pixels(plain.body).pixels != fromService.pixels)
    }

    @Test func theServicesJPEGQualityIsTheCLIs() throws {
        let server = try ServeProcess()
        let dir = try CLI.tempDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try FileManager.default.copyItem(atPath: CLI.packageRoot + "/Samples/photo.jpg", toPath: server.root + "/photo.jpg")
        for quality in [20, 95] {
            let cli = try CLI.run([
                "thumbnail", "-f", "jpg", "-q", String(quality), "-s", "128", server.root + "/photo.jpg", "-o", dir + "/q.jpg",
            ])
            #expect(cli.status == 0, "\(cli.stderr)")
            let expected = Array(try Data(contentsOf: URL(fileURLWithPath: dir + "/q.jpg")))
            let answer = try #require(
                LoopbackSocket.fetch(port: server.port, "/v1/thumbnail?path=photo.jpg&size=128&format=jpeg&quality=\(quality)"))
            #expect(answer.head.lowercased().contains("content-type: image/jpeg"))
            #expect(answer.body == expected, "quality \(quality)")
        }
        let low = try #require(LoopbackSocket.fetch(port: server.port, "/v1/thumbnail?path=photo.jpg&size=128&format=jpeg&quality=20"))
        let high = try #require(LoopbackSocket.fetch(port: server.port, "/v1/thumbnail?path=photo.jpg&size=128&format=jpeg&quality=95"))
        #expect(low.body.count < high.body.count)
        let bad = try #require(LoopbackSocket.fetch(port: server.port, "/v1/thumbnail?path=photo.jpg&quality=0"))
        #expect(bad.head.hasPrefix("HTTP/1.1 400"))
        #expect(String(decoding: bad.body, as: UTF8.self).contains("quality must be a whole number from 1 to 100, not 0"))
    }

    @Test(
        "cache entries carry the original's size (Thumb::Image::Width/Height) and GLib still finds them valid",
        .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/gio"), "needs gio (libglib2.0-bin)"))
    func cacheEntriesRecordTheImageSize() throws {
        let dir = try CLI.tempDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try FileManager.default.createDirectory(atPath: dir + "/pics", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: CLI.packageRoot + "/Samples/photo.jpg", toPath: dir + "/pics/photo.jpg")
        try FileManager.default.copyItem(atPath: CLI.packageRoot + "/Samples/notes.txt", toPath: dir + "/pics/notes.txt")
        let batch = try CLI.run(
            ["batch", "--no-system-thumbnailers", "pics"], environment: ["XDG_CACHE_HOME": dir + "/cache"], currentDirectory: dir)
        #expect(batch.status == 0, "\(batch.stderr)")
        let cache = ThumbnailCache(root: dir + "/cache/thumbnails", version: VignetteVersion.string)
        let photo = try SourceFile(path: dir + "/pics/photo.jpg")
        let entry = try #require(CacheEntry(path: cache.thumbnailPath(for: photo, flavor: .large)))
        #expect(entry.text["Thumb::Image::Width"] == "640")
        #expect(entry.text["Thumb::Image::Height"] == "400")
        #expect(entry.text["Thumb::Mimetype"] == "image/jpeg")
        // A text page has no "original size": the keys are left out rather than invented.
        let notes = try SourceFile(path: dir + "/pics/notes.txt")
        let page = try #require(CacheEntry(path: cache.thumbnailPath(for: notes, flavor: .large)))
        #expect(page.text["Thumb::Image::Width"] == nil)
        let gio = try CLI.runProgram(
            "/usr/bin/gio", ["info", "-a", "thumbnail::is-valid", dir + "/pics/photo.jpg"], environment: ["XDG_CACHE_HOME": dir + "/cache"])
        #expect(gio.stdout.contains("thumbnail::is-valid: TRUE"))
    }
}
