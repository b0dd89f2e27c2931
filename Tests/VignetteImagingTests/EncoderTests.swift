import Testing
import VignetteCore

@testable import VignetteImaging

@Suite("Encoding")
struct EncoderTests {
    @Test func pngRoundTripsPixelsAndCarriesTextChunks() throws {
        var image = Bitmap(width: 7, height: 5)
        for i in 0..<image.pixels.count { image.pixels[i] = UInt8((i * 37) & 255) }
        let png = try ImageEncoder.png(
            image, text: [("Thumb::URI", "file:///tmp/a%20b.png"), ("Software", "vignette"), ("Comment", "café ☕")])
        let back = try png.withUnsafeBytes { try ImageDecoder.png($0, request: fullSize) }
        #expect(back.bitmap == image)
        let text = String(decoding: png, as: UTF8.self)
        #expect(text.contains("Thumb::URI\u{0}file:///tmp/a%20b.png"))
        #expect(text.contains("Software\u{0}vignette"))
        // tEXt is Latin-1: é is one byte (0xE9); characters outside Latin-1 become "?".
        let comment = Array("Comment".utf8) + [0] + Array("caf".utf8) + [0xE9, 0x20, UInt8(ascii: "?")]
        #expect(png.indices.contains { png[$0...].starts(with: comment) })
    }

    @Test func opaquePngCanDropAlpha() throws {
        let image = solid(4, 4, [10, 20, 30, 255])
        let rgb = try ImageEncoder.png(image, keepAlpha: false)
        #expect(rgb[25] == 2)  // IHDR colour type 2: RGB
        let back = try rgb.withUnsafeBytes { try ImageDecoder.png($0, request: fullSize) }
        #expect(back.bitmap == image)
    }

    @Test func jpegEncodesAndDecodesCloseToTheOriginalWithAlphaOnWhite() throws {
        let image = solid(64, 48, [40, 120, 200, 255])
        let jpeg = try ImageEncoder.jpeg(image, quality: 90)
        #expect(Array(jpeg.prefix(3)) == [0xFF, 0xD8, 0xFF])
        let back = try jpeg.withUnsafeBytes { try ImageDecoder.jpeg($0, request: fullSize) }
        #expect(psnr(back.bitmap, image) > 35)
        let transparent = solid(16, 16, [0, 0, 0, 0])
        let white = try ImageEncoder.jpeg(transparent).withUnsafeBytes { try ImageDecoder.jpeg($0, request: fullSize) }
        #expect(white.bitmap.pixels[0] > 250)
    }
}
