import Foundation
import Testing
import VignetteCore
import VignetteImaging

@testable import VignetteGenerators

/// Image files whose decoder reads files itself (TIFF) are thumbnailed through their descriptor:
/// libtiff reads the strips it needs, the file is never held whole.
@Suite("Image files read through their descriptor")
struct ImageFileThumbnailTests {
    static let resolver = TypeResolver(catalog: GeneratorFixtures.registry.catalog)

    /// A 64 × 48 uncompressed RGB TIFF in 6 strips of 8 rows (the directory first, then the
    /// strips): pixel (x, y) is (4x, 5y, 128).
    static func stripedTIFF() -> [UInt8] {
        func le16(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8)] }
        func le32(_ v: Int) -> [UInt8] { le16(v & 0xFFFF) + le16(v >> 16) }
        func entry(_ tag: Int, _ type: Int, _ count: Int, _ value: Int) -> [UInt8] {
            le16(tag) + le16(type) + le32(count) + (type == 3 && count == 1 ? le16(value) + [0, 0] : le32(value))
        }
        let (width, height, rows) = (64, 48, 8)
        let strip = width * rows * 3
        let (bps, offsets, counts, data) = (134, 140, 164, 188)
        let entries = [
            entry(256, 3, 1, width), entry(257, 3, 1, height), entry(258, 3, 3, bps), entry(259, 3, 1, 1), entry(262, 3, 1, 2),
            entry(273, 4, 6, offsets), entry(277, 3, 1, 3), entry(278, 3, 1, rows), entry(279, 4, 6, counts), entry(284, 3, 1, 1),
        ]
        var bytes = Array("II*\0".utf8) + le32(8) + le16(entries.count) + entries.flatMap { $0 } + le32(0)
        bytes += le16(8) + le16(8) + le16(8)
        bytes += (0..<6).flatMap { le32(data + $0 * strip) } + (0..<6).flatMap { _ in le32(strip) }
        #expect(bytes.count == data)
        for y in 0..<height {
            for x in 0..<width { bytes += [UInt8(4 * x), UInt8(5 * y), 128] }
        }
        return bytes
    }

    /// `bytes` in a temporary file named `name`, given to `body`, removed after.
    static func withFile<T>(_ bytes: [UInt8], name: String, _ body: (String) throws -> T) throws -> T {
        let dir = NSTemporaryDirectory() + "vignette-tiff-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/" + name
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return try body(path)
    }

    @Test func aTIFFFileIsThumbnailedThroughItsDescriptorAsItsBytesAre() throws {
        let bytes = Self.stripedTIFF()
        let request = ThumbnailRequest(maxPixelSize: 32)
        let generator = ImageGenerator(catalog: GeneratorFixtures.registry.catalog)
        let upload = GeneratorInput(bytes: bytes, filename: "stripes.tif", resolver: Self.resolver)
        let fromBytes = try generator.makeThumbnail(for: upload, request: request)
        try Self.withFile(bytes, name: "stripes.tif") { path in
            let input = try GeneratorInput(path: path, resolver: Self.resolver)
            #expect(generator.thumbnailer.readsFiles(of: input.type))
            let fromFile = try generator.makeThumbnail(for: input, request: request)
            #expect(fromFile.originalSize == PixelSize(width: 64, height: 48))
            #expect(fromFile.bitmap.width == 32 && fromFile.bitmap.height == 24)
            #expect(fromFile.bitmap.pixels == fromBytes.bitmap.pixels)
            // Straight from the descriptor, at full size: every pixel as stored.
            let fd = open(path, O_RDONLY | O_CLOEXEC)
            defer { close(fd) }
            let full = try generator.thumbnailer.thumbnail(
                descriptor: fd, size: bytes.count, type: input.type, request: ThumbnailRequest(maxPixelSize: 64))
            #expect(Array(full.bitmap.pixels[((47 * 64) + 63) * 4..<((47 * 64) + 63) * 4 + 4]) == [252, 235, 128, 255])
        }
        // An upload has only its bytes: the memory path.
        #expect(try upload.withDescriptor(limit: .max) { _, _ in true } == nil)
    }

    @Test func aTruncatedTIFFFileSaysWhereItsDataEndsAndNamesTheFile() throws {
        // Strips 0-2 whole, strip 3 (rows 24-31) cut short.
        let bytes = Array(Self.stripedTIFF().prefix(188 + 1536 * 3 + 100))
        let why = "truncated TIFF: tiff: the data ends before rows 24 to 31"
        try Self.withFile(bytes, name: "cut.tif") { path in
            let input = try GeneratorInput(path: path, resolver: Self.resolver)
            #expect(throws: VignetteError(.corrupt, path: path, why)) {
                try GeneratorFixtures.registry.thumbnail(for: input, request: ThumbnailRequest(maxPixelSize: 32), allowFallback: false)
            }
        }
        // The same words from the bytes in memory.
        let upload = GeneratorInput(bytes: bytes, filename: "cut.tif", resolver: Self.resolver)
        #expect(throws: VignetteError(.corrupt, path: "cut.tif", why)) {
            try GeneratorFixtures.registry.thumbnail(for: upload, request: ThumbnailRequest(maxPixelSize: 32), allowFallback: false)
        }
    }

    @Test func aTIFFFileOverTheSizeLimitIsRefusedAsItsBytesWouldBe() throws {
        let bytes = Self.stripedTIFF()
        try Self.withFile(bytes, name: "stripes.tif") { path in
            let input = try GeneratorInput(path: path, resolver: Self.resolver)
            #expect(throws: VignetteError(.limitExceeded, path: path, "file is 9.4 KB, over the limit of 1 KB")) {
                try input.withDescriptor(limit: 1000) { _, _ in true }
            }
            #expect(throws: VignetteError(.limitExceeded, path: path, "file is 9.4 KB, over the limit of 1 KB")) {
                try input.contents(limit: 1000)
            }
        }
    }
}
