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

    @Test func anAnimationGivesItsFirstFrame() throws {
        let first = try Self.webp(try Fixtures.bytes("webp/animated.webp"), fullSize)
        #expect(first.bitmap.width == 64 && first.bitmap.height == 40)
        // The first frame as libvips composes it (vips copy 'animated.webp[page=0]' animated-frame1.png).
        let reference = try Fixtures.bytes("webp/animated-frame1.png").withUnsafeBytes { try ImageDecoder.png($0, request: fullSize) }
        #expect(first.bitmap.pixels == reference.bitmap.pixels, "the first frame differs from libvips'")
    }

    @Test func aTenThousandFrameAnimationIsReadForItsFirstFrameOnly() throws {
        // Frames 2…10,000 have valid headers over undecodable data: decoding any of them would fail.
        let bytes = Self.longAnimation(from: try Fixtures.bytes("webp/animated.webp"), frames: 10_000)
        let first = try Self.webp(bytes, ThumbnailRequest(maxPixelSize: 32))
        #expect(first.sourceWidth == 64 && first.bitmap.width == 32)
    }

    /// `webp`'s VP8X, ANIM and first frame, then `frames - 1` lossless frames of the canvas size
    /// whose headers are valid and whose data is not.
    static func longAnimation(from webp: [UInt8], frames: Int) -> [UInt8] {
        var kept: [UInt8] = []
        var offset = 12
        var sawFrame = false
        while offset + 8 <= webp.count, !sawFrame {
            let size = Int(webp[offset + 4]) | Int(webp[offset + 5]) << 8 | Int(webp[offset + 6]) << 16 | Int(webp[offset + 7]) << 24
            let end = min(webp.count, offset + 8 + size + (size & 1))
            sawFrame = webp[offset..<(offset + 4)].elementsEqual("ANMF".utf8)
            kept += webp[offset..<end]
            offset = end
        }
        func le(_ v: Int, _ n: Int) -> [UInt8] { (0..<n).map { UInt8((v >> (8 * $0)) & 0xFF) } }
        // VP8L: signature, 14-bit width-1 and height-1, no alpha, version 0; then junk.
        let bits = 63 | 39 << 14
        let vp8l: [UInt8] = [0x2F] + le(bits, 4) + [UInt8](repeating: 0xFF, count: 7)
        let frame = le(0, 6) + le(63, 3) + le(39, 3) + le(100, 3) + [0] + Array("VP8L".utf8) + le(vp8l.count, 4) + vp8l
        let anmf = Array("ANMF".utf8) + le(frame.count, 4) + frame
        for _ in 1..<frames { kept += anmf }
        return Array("RIFF".utf8) + le(kept.count + 4, 4) + Array("WEBP".utf8) + kept
    }

    @Test func itsBuffersComeFromTheMemoryBudget() throws {
        #expect(throws: VignetteError(.refused, "the image needs 3.1 MB of memory to decode, over the budget of 100 KB")) {
            try Self.webp(
                try Fixtures.bytes("webp/photo.webp"), fullSize, limits: ImageLimits(memoryBudget: MemoryBudget(bytes: 100_000)))
        }
    }
}
