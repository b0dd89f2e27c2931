import Foundation
import Testing
import VignetteCore
import VignetteImaging

/// WebP through libwebp, scaled while it decodes, under the same header-first limits.
@Suite("WebP decoding")
struct WebPDecodingTests {
    static let samples =
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .path + "/Samples"

    static func webp(_ bytes: [UInt8], _ request: ThumbnailRequest, limits: ImageLimits = .standard) throws -> DecodedImage {
        try bytes.withUnsafeBytes { try ImageDecoder.webp($0, request: request, limits: limits) }
    }

    @Test func aLosslessFileDecodesToThePNGItCameFromExactly() throws {
        let fromWebP = try Self.webp(try Fixtures.bytes("webp/logo-lossless.webp"), fullSize)
        let png = Array(try Data(contentsOf: URL(fileURLWithPath: Self.samples + "/logo.png")))
        let fromPNG = try png.withUnsafeBytes { try ImageDecoder.png($0, request: fullSize) }
        #expect(fromWebP.bitmap.width == 256 && fromWebP.bitmap.height == 256)
        let same = fromWebP.bitmap.pixels == fromPNG.bitmap.pixels
        #expect(same, "the lossless WebP's pixels differ from the PNG's")
    }

    @Test func aLossyPhotoThumbnailLooksLikeTheJPEGsItCameFrom() throws {
        let request = ThumbnailRequest(maxPixelSize: 128)
        let fromWebP = try Self.webp(try Fixtures.bytes("webp/photo.webp"), request)
        let jpeg = Array(try Data(contentsOf: URL(fileURLWithPath: Self.samples + "/photo.jpg")))
        let fromJPEG = try jpeg.withUnsafeBytes { try ImageDecoder.jpeg($0, request: request) }
        #expect(fromWebP.sourceWidth == 640 && fromWebP.sourceHeight == 400)
        #expect(fromWebP.bitmap.width == fromJPEG.bitmap.width && fromWebP.bitmap.height == fromJPEG.bitmap.height)
        let a = fromWebP.bitmap.pixels
        let b = fromJPEG.bitmap.pixels
        let difference = zip(a, b).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }
        let mean = Double(difference) / Double(a.count)
        #expect(mean < 4, "mean difference \(mean) per channel")
    }

    @Test func aTruncatedFileIsReportedSo() throws {
        let bytes = Array(try Fixtures.bytes("webp/photo.webp").prefix(500))
        #expect(throws: VignetteError(.corrupt, "truncated WebP: the data ends too early")) {
            try Self.webp(bytes, ThumbnailRequest(maxPixelSize: 128))
        }
    }

    @Test func aHeaderOfFourGigapixelsIsRefusedBeforeDecoding() throws {
        // A VP8X header of 65535 × 65535 and nothing else.
        let side: [UInt8] = [0xFE, 0xFF, 0x00]
        let vp8x: [UInt8] = Array("VP8X".utf8) + [10, 0, 0, 0] + [0, 0, 0, 0] + side + side
        let bytes = Array("RIFF".utf8) + [UInt8(4 + vp8x.count), 0, 0, 0] + Array("WEBP".utf8) + vp8x
        #expect(throws: VignetteError(.refused, "image is 65535 × 65535 pixels (4295 MP), over the limit of 100 MP")) {
            try Self.webp(bytes, ThumbnailRequest(maxPixelSize: 128))
        }
    }

    @Test func anAnimationIsLeftToOtherGenerators() throws {
        #expect(throws: VignetteError(.unsupported, "animated WebP is not decoded here")) {
            try Self.webp(try Fixtures.bytes("webp/animated.webp"), ThumbnailRequest(maxPixelSize: 128))
        }
    }

    @Test func itsBuffersComeFromTheMemoryBudget() throws {
        #expect(throws: VignetteError(.refused, "the image needs 3.1 MB of memory to decode, over the budget of 100 KB")) {
            try Self.webp(
                try Fixtures.bytes("webp/photo.webp"), fullSize, limits: ImageLimits(memoryBudget: MemoryBudget(bytes: 100_000)))
        }
    }
}
