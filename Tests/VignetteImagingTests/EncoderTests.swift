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

    /// Both ways of writing the image data round-trip exactly: whole through libdeflate (up to
    /// 8 MiB of filtered rows) and row by row through libpng's zlib above that.
    @Test(arguments: [(64, 40), (1500, 1500)])
    func pngRoundTripsAtEveryLevelOnBothWritingPaths(width: Int, height: Int) throws {
        var image = Bitmap(width: width, height: height)
        // Gradients, noise and flat runs, so that every row filter wins somewhere.
        var seed: UInt32 = 12345
        for y in 0..<height {
            for x in 0..<width {
                seed = seed &* 1_103_515_245 &+ 12345
                let i = (y * width + x) * 4
                let noisy = (y / 7) % 3 == 0
                image.pixels[i] = UInt8(truncatingIfNeeded: noisy ? Int(seed >> 16) : x)
                image.pixels[i + 1] = UInt8(truncatingIfNeeded: y * 3)
                image.pixels[i + 2] = UInt8(truncatingIfNeeded: (x + y) / 2)
                image.pixels[i + 3] = x % 5 == 0 ? 128 : 255
            }
        }
        for level in width > 100 ? [1] : [0, 1, 6, 9] {
            let png = try ImageEncoder.png(image, text: [("Thumb::MTime", "1")], compression: level)
            let back = try png.withUnsafeBytes { try ImageDecoder.png($0, request: fullSize) }
            #expect(back.bitmap == image, "level \(level)")
            #expect(Array(png.suffix(12)) == [0, 0, 0, 0, 0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82])
        }
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
