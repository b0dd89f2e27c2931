import CVignetteCodecs
import Foundation
import Testing
import VignetteCore

@testable import VignetteImaging

/// Radiance HDR (RGBE) from our own decoder: ImageMagick's run-length coded files against its own
/// reading converted to sRGB; files written here with flat scanlines in each of the resolution
/// line's orderings, and known values; what a damaged file says.
@Suite("Radiance HDR")
struct RadianceTests {
    @Test func aFileImageMagickWroteMatchesItsOwnReadingInSRGB() throws {
        let folder = try JPEG2000Tests.workFolder("hdr")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let flower = Fixtures.root + "/jpeg/pillow/flower.jpg"
        // 97 × 61: scanlines of a width run-length coding takes (8 to 32767), every value in range.
        #expect(try FormatCorpusTests.run(["convert", flower, "-resize", "97x61!", "-colorspace", "RGB", folder + "/f.hdr"]) == 0)
        #expect(try FormatCorpusTests.run(["convert", folder + "/f.hdr", "-colorspace", "sRGB", "PNG24:" + folder + "/f.png"]) == 0)
        let hdr = Array(try Data(contentsOf: URL(fileURLWithPath: folder + "/f.hdr")))
        let ours = try StreamedFormatTests.thumbnail(hdr, name: "f.hdr", size: 97)
        let theirs = try referencePNG(folder + "/f.png", side: 97)
        #expect(ours.bitmap.width == 97 && ours.bitmap.height == 61)
        #expect(psnr(ours.bitmap, theirs) >= 50, "\(psnr(ours.bitmap, theirs)) dB")
    }

    /// A 3 × 2 picture (columns red, green, blue; the bottom row at half the top's light) stored with
    /// the resolution line `axes`, flat RGBE pixels in the order that line gives.
    static func file(_ axes: String) -> [UInt8] {
        // Linear 1.0 is mantissa 128 at exponent 129; 0.5 is 128 at 128.
        func pixel(_ x: Int, _ y: Int) -> [UInt8] {
            var p: [UInt8] = [0, 0, 0, y == 0 ? 129 : 128]
            p[x] = 128
            return p
        }
        let parts = axes.split(separator: " ").map(String.init)
        // The first axis is the slow one: its sign says from which side its lines start.
        let xMajor = parts[0].hasSuffix("X")
        let (slow, fast) = (parts[0], parts[2])
        var body: [UInt8] = []
        let slowCount = xMajor ? 3 : 2
        let fastCount = xMajor ? 2 : 3
        for s in 0..<slowCount {
            for f in 0..<fastCount {
                let i = slow.hasPrefix("-") == (slow.hasSuffix("Y")) ? s : slowCount - 1 - s
                let j = fast.hasPrefix("+") == (fast.hasSuffix("X")) ? f : fastCount - 1 - f
                body += xMajor ? pixel(i, j) : pixel(j, i)
            }
        }
        return Array("#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\n\(axes)\n".utf8) + body
    }

    @Test(arguments: ["-Y 2 +X 3", "-Y 2 -X 3", "+Y 2 -X 3", "+Y 2 +X 3", "+X 3 -Y 2", "-X 3 -Y 2", "-X 3 +Y 2", "+X 3 +Y 2"])
    func everyOrderingOfTheResolutionLineGivesTheSamePicture(axes: String) throws {
        let bitmap = try StreamedFormatTests.thumbnail(Self.file(axes), name: "t.hdr", size: 3).bitmap
        #expect(bitmap.width == 3 && bitmap.height == 2)
        // 1.0 is 255 and 0.5 is sRGB 188.
        #expect(
            bitmap.pixels == [
                255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 188, 0, 0, 255, 0, 188, 0, 255, 0, 0, 188, 255,
            ], "\(axes)")
    }

    @Test func aCutFileAndXYZEPixelsSaySo() throws {
        let whole = Self.file("-Y 2 +X 3")
        let cut = try #require(throws: VignetteError.self) {
            try StreamedFormatTests.thumbnail(Array(whole.prefix(whole.count - 6)), name: "cut.hdr", size: 3)
        }
        #expect(cut.reason == "truncated Radiance HDR: the scanlines end early")
        // A million scanlines promised in a few bytes: refused at open, before anything is allocated.
        let bomb = Array("#?RADIANCE\n\n-Y 1000000 +X 1000000\n".utf8) + [UInt8](repeating: 2, count: 64)
        let refused = try #require(throws: VignetteError.self) { try StreamedFormatTests.thumbnail(bomb, name: "bomb.hdr") }
        #expect(refused.reason == "truncated Radiance HDR: the file is too short for the scanlines its header gives")
        let xyze = Array("#?RADIANCE\nFORMAT=32-bit_rle_xyze\n\n-Y 2 +X 3\n".utf8) + [UInt8](repeating: 128, count: 24)
        let error = try #require(throws: VignetteError.self) { try StreamedFormatTests.thumbnail(xyze, name: "x.hdr") }
        #expect(error.reason == "unsupported Radiance HDR: XYZE pixels are not supported")
    }
}
