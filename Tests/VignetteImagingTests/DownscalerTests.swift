import Testing
import VignetteCore

@testable import VignetteImaging

func downscale(_ bitmap: Bitmap, to w: Int, _ h: Int) -> Bitmap {
    let d = Downscaler(inWidth: bitmap.width, inHeight: bitmap.height, channels: 4, outWidth: w, outHeight: h)
    bitmap.pixels.withUnsafeBufferPointer { d.push($0.baseAddress!, stride: bitmap.width * 4, count: bitmap.height) }
    return d.finish()
}

@Suite("Resampling")
struct DownscalerTests {
    @Test func aSolidColourStaysExactlyThatColour() {
        for (w, h, ow, oh) in [(1000, 600, 256, 154), (37, 91, 5, 12), (300, 300, 299, 299), (8, 8, 1, 1)] {
            let out = downscale(solid(w, h, [200, 30, 90, 255]), to: ow, oh)
            #expect((out.width, out.height) == (ow, oh))
            #expect(out == solid(ow, oh, [200, 30, 90, 255]))
        }
    }

    @Test func transparentPixelsDoNotBleedColour() {
        // Left half fully transparent red, right half opaque blue: no visible pixel may turn red.
        var image = Bitmap(width: 64, height: 16)
        for y in 0..<16 {
            for x in 0..<64 {
                let px: [UInt8] = x < 32 ? [255, 0, 0, 0] : [0, 0, 255, 255]
                for c in 0..<4 { image.pixels[(y * 64 + x) * 4 + c] = px[c] }
            }
        }
        let out = downscale(image, to: 8, 2)
        for i in stride(from: 0, to: out.pixels.count, by: 4) where out.pixels[i + 3] > 0 {
            #expect(out.pixels[i] <= 2, "red leaked into \(out.pixels[i..<(i + 4)])")
        }
    }

    @Test func channelLayoutsAgree() {
        let gray: [UInt8] = (0..<(40 * 30)).map { UInt8($0 % 251) }
        let rgb = gray.flatMap { [$0, $0, $0] }
        func run(_ bytes: [UInt8], _ channels: Int) -> Bitmap {
            let d = Downscaler(inWidth: 40, inHeight: 30, channels: channels, outWidth: 10, outHeight: 7)
            bytes.withUnsafeBufferPointer { d.push($0.baseAddress!, stride: 40 * channels, count: 30) }
            return d.finish()
        }
        #expect(run(gray, 1) == run(rgb, 3))
        // Opaque RGBA takes the per-row path, RGB the column-first path: same pixels.
        let rgba = gray.flatMap { [$0, $0, $0, 255] as [UInt8] }
        let a = run(rgba, 4)
        let b = run(rgb, 3)
        #expect(zip(a.pixels, b.pixels).allSatisfy { abs(Int($0) - Int($1)) <= 1 })
        // RGBA said to be opaque (a TIFF without alpha) takes the column-first path: exactly the
        // per-row path's pixels, whatever its alpha bytes hold.
        let colour: [UInt8] = (0..<(40 * 30 * 4)).map { (i: Int) -> UInt8 in i % 4 == 3 ? 255 : UInt8(truncatingIfNeeded: i * 37) }
        let opaque = Downscaler(inWidth: 40, inHeight: 30, channels: 4, outWidth: 10, outHeight: 7, opaque: true)
        colour.withUnsafeBufferPointer { opaque.push($0.baseAddress!, stride: 40 * 4, count: 30) }
        #expect(opaque.columnFirst)
        #expect(opaque.finish() == run(colour, 4))
    }

    @Test func rowsPushedOneAtATimeGiveTheSameThumbnailAndMissingRowsAreTransparent() {
        // Output rows are made as soon as the intermediate rows they need are in (a ring of rows).
        let (w, h) = (300, 200)
        let pixels: [UInt8] = (0..<(w * h * 4)).map { (i: Int) -> UInt8 in
            i % 4 == 3 ? UInt8(128 + i / 4 % 97) : UInt8(truncatingIfNeeded: (i &* 31) ^ (i >> 7))
        }
        let image = Bitmap(width: w, height: h, pixels: pixels)
        // Box and Lanczos both ways, a 1×1 box, no horizontal resampling, no vertical resampling.
        for (ow, oh) in [(37, 23), (150, 100), (300, 101), (64, 200)] {
            let d = Downscaler(inWidth: w, inHeight: h, channels: 4, outWidth: ow, outHeight: oh)
            pixels.withUnsafeBufferPointer { buffer in
                for y in 0..<h { d.push(buffer.baseAddress! + y * w * 4, stride: w * 4, count: 1) }
            }
            #expect(d.finish() == downscale(image, to: ow, oh), "\(ow)×\(oh)")
        }
        let half = Downscaler(inWidth: w, inHeight: h, channels: 4, outWidth: 37, outHeight: 23)
        pixels.withUnsafeBufferPointer { half.push($0.baseAddress!, stride: w * 4, count: h / 2) }
        let cut = half.finish()
        let whole = downscale(image, to: 37, 23)
        #expect(cut.pixels.prefix(37 * 4 * 5) == whole.pixels.prefix(37 * 4 * 5))
        #expect(cut.pixels.suffix(37 * 4).allSatisfy { $0 == 0 })
    }

    @Test func outputSizeKeepsTheAspectAndNeverEnlargesUnlessAsked() {
        let r = ThumbnailRequest(maxPixelSize: 256)
        #expect(r.outputSize(width: 4000, height: 3000) == (256, 192))
        #expect(r.outputSize(width: 3000, height: 4000) == (192, 256))
        #expect(r.outputSize(width: 100, height: 50) == (100, 50))
        #expect(r.outputSize(width: 10000, height: 1) == (256, 1))
        #expect(ThumbnailRequest(maxPixelSize: 128, scale: 2).outputSize(width: 1000, height: 500) == (256, 128))
        #expect(ThumbnailRequest(maxPixelSize: 256, allowUpscale: true).outputSize(width: 100, height: 50) == (256, 128))
    }

    @Test func orientationsAreTheEightExifTransforms() {
        // 2×1 image: A B. After each orientation, where do A and B land?
        let a: [UInt8] = [1, 0, 0, 255]
        let b: [UInt8] = [2, 0, 0, 255]
        let image = Bitmap(width: 2, height: 1, pixels: a + b)
        let expected: [ImageOrientation: (Int, Int, [UInt8])] = [
            .up: (2, 1, a + b), .upMirrored: (2, 1, b + a), .down: (2, 1, b + a), .downMirrored: (2, 1, a + b),
            .leftMirrored: (1, 2, a + b), .right: (1, 2, a + b), .rightMirrored: (1, 2, b + a), .left: (1, 2, b + a),
        ]
        for (o, (w, h, px)) in expected {
            let out = image.applying(o)
            #expect((out.width, out.height, out.pixels) == (w, h, px), "\(o)")
        }
    }
}
