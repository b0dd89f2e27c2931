import CVignetteCodecs
import Foundation
import Testing
import VignetteCore

@testable import VignetteImaging

/// OpenEXR through OpenEXRCore: files FFmpeg's encoder writes (compressed, half and float) against
/// libvips' reading converted to sRGB, and uncompressed scanline and tiled files written here
/// with known values; a mipmapped file made by OpenEXR's exrmaketiled, read at the level covering
/// the thumbnail.
@Suite("OpenEXR")
struct OpenEXRTests {
    @Test(arguments: [("zip16", "float", "gbrapf32le"), ("rle", "half", "gbrpf32le"), ("none", "float", "gbrpf32le")])
    func aFileFFmpegWroteMatchesLibvipsReading(compression: String, format: String, pixelFormat: String) throws {
        let folder = try JPEG2000Tests.workFolder("exr-\(compression)")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let flower = Fixtures.root + "/jpeg/pillow/flower.jpg"
        let encode = [
            "-i", flower, "-vf", "scale=61:45,format=\(pixelFormat)", "-compression", compression, "-format", format, "-c:v", "exr",
            folder + "/t.exr",
        ]
        #expect(try RasterFormatTests.ffmpeg(encode) == 0)
        #expect(try FormatCorpusTests.run(["vips", "colourspace", folder + "/t.exr", folder + "/t.png", "srgb"]) == 0)
        let exr = Array(try Data(contentsOf: URL(fileURLWithPath: folder + "/t.exr")))
        let ours = try StreamedFormatTests.thumbnail(exr, name: "t.exr", size: 61)
        let reference = try referencePNG(folder + "/t.png", side: 61)
        #expect(ours.bitmap.width == 61 && ours.bitmap.height == 45)
        #expect(psnr(ours.bitmap, reference) >= 45, "\(psnr(ours.bitmap, reference)) dB")
    }

    /// An uncompressed OpenEXR of `width` × `height` 32-bit float B, G, R channels (value(x, y, c),
    /// c 0 for R), in scanlines or in `tile` × `tile` tiles.
    static func exr(width: Int, height: Int, tile: Int?, _ value: (Int, Int, Int) -> Float) -> [UInt8] {
        func i32(_ v: Int) -> [UInt8] { withUnsafeBytes(of: Int32(v).littleEndian) { Array($0) } }
        func f32(_ v: Float) -> [UInt8] { withUnsafeBytes(of: v.bitPattern.littleEndian) { Array($0) } }
        func attribute(_ name: String, _ type: String, _ value: [UInt8]) -> [UInt8] {
            Array(name.utf8) + [0] + Array(type.utf8) + [0] + i32(value.count) + value
        }
        // Channels in the file's (alphabetical) order: B, G, R.
        var channelList: [UInt8] = []
        for name in ["B", "G", "R"] { channelList += Array(name.utf8) + [0] + i32(2) + [0, 0, 0, 0] + i32(1) + i32(1) }
        channelList.append(0)
        let window = i32(0) + i32(0) + i32(width - 1) + i32(height - 1)
        let version: [UInt8] = tile == nil ? [2, 0, 0, 0] : [2, 2, 0, 0]
        var header: [UInt8] = [0x76, 0x2F, 0x31, 0x01] + version
        header += attribute("channels", "chlist", channelList) + attribute("compression", "compression", [0])
        header += attribute("dataWindow", "box2i", window) + attribute("displayWindow", "box2i", window)
        header += attribute("lineOrder", "lineOrder", [0]) + attribute("pixelAspectRatio", "float", f32(1))
        header += attribute("screenWindowCenter", "v2f", f32(0) + f32(0)) + attribute("screenWindowWidth", "float", f32(1))
        if let tile { header += attribute("tiles", "tiledesc", i32(tile) + i32(tile) + [0]) }
        header += [0]
        // The chunks: a scanline each, or a tile each (row by row); a line holds each channel in turn.
        var chunks: [[UInt8]] = []
        let side = tile ?? 1
        let (across, down) = tile == nil ? (1, height) : ((width + side - 1) / side, (height + side - 1) / side)
        for ty in 0..<down {
            for tx in 0..<across {
                let x0 = tile == nil ? 0 : tx * side
                let x1 = tile == nil ? width : min(width, x0 + side)
                let y0 = ty * side
                var data: [UInt8] = []
                for y in y0..<min(height, y0 + side) {
                    for channel in [2, 1, 0] { for x in x0..<x1 { data += f32(value(x, y, channel)) } }
                }
                chunks.append((tile == nil ? i32(y0) : i32(tx) + i32(ty) + i32(0) + i32(0)) + i32(data.count) + data)
            }
        }
        var offset = header.count + 8 * chunks.count
        var table: [UInt8] = []
        for chunk in chunks {
            table += withUnsafeBytes(of: UInt64(offset).littleEndian) { Array($0) }
            offset += chunk.count
        }
        return header + table + chunks.flatMap { $0 }
    }

    @Test func scanlinesAndTilesGiveTheSamePictureThroughTheSRGBCurve() throws {
        // Red rises along x, green along y, blue is 2.0 (over-exposed: clamped to white).
        let value: (Int, Int, Int) -> Float = { x, y, c in c == 0 ? Float(x) / 36 : c == 1 ? Float(y) / 22 : 2 }
        let scanlines = try StreamedFormatTests.thumbnail(Self.exr(width: 37, height: 23, tile: nil, value), name: "s.exr", size: 37)
        let tiles = try StreamedFormatTests.thumbnail(Self.exr(width: 37, height: 23, tile: 16, value), name: "t.exr", size: 37)
        #expect(tiles.bitmap == scanlines.bitmap)
        // Linear 0.5 is sRGB 188; 0 is 0; 1 is 255.
        let pixel = { (x: Int, y: Int) in Array(scanlines.bitmap.pixels[((y * 37 + x) * 4)..<((y * 37 + x) * 4 + 4)]) }
        #expect(pixel(0, 0) == [0, 0, 255, 255])
        #expect(pixel(18, 11) == [188, 188, 255, 255])
        #expect(pixel(36, 22) == [255, 255, 255, 255])
    }

    @Test func aSmallThumbnailOfAMipmappedFileIsReadFromTheLevelCoveringIt() throws {
        let folder = try JPEG2000Tests.workFolder("exr-mipmap")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // FFmpeg's 480 × 360 scanline file, made a 64 × 64-tiled mipmap by OpenEXR's own exrmaketiled:
        // levels of 240 × 180, 120 × 90, 60 × 45, …
        let flower = Fixtures.root + "/jpeg/pillow/flower.jpg"
        let encode = ["-i", flower, "-vf", "scale=480:360,format=gbrpf32le", "-compression", "zip16", "-c:v", "exr", folder + "/s.exr"]
        #expect(try RasterFormatTests.ffmpeg(encode) == 0)
        #expect(try FormatCorpusTests.run(["exrmaketiled", "-m", "-t", "64", "64", folder + "/s.exr", folder + "/m.exr"]) == 0)
        let exr = Array(try Data(contentsOf: URL(fileURLWithPath: folder + "/m.exr")))
        #expect(Self.levelSize(exr, target: 64)! == (120, 90))
        #expect(Self.levelSize(exr, target: 121)! == (240, 180))
        #expect(Self.levelSize(exr, target: 0)! == (480, 360))
        let small = try StreamedFormatTests.thumbnail(exr, name: "m.exr", size: 64)
        #expect(small.sourceWidth == 480 && small.sourceHeight == 360)
        #expect(small.bitmap.width == 64 && small.bitmap.height == 48)
        // The same picture as the full level shrunk by our box filter (exrmaketiled's own filter differs).
        let full = try StreamedFormatTests.thumbnail(exr, name: "m.exr", size: 1 << 14)
        let shrunk = StreamedFormatTests.shrunk(full.bitmap, 64, 48)
        #expect(psnr(small.bitmap, shrunk) >= 30, "\(psnr(small.bitmap, shrunk)) dB")
    }

    /// The size of the rows the OpenEXR decoder reads for `target` (in `vignette-decode`, as in use).
    static func levelSize(_ bytes: [UInt8], target: UInt32) -> (Int, Int)? {
        isolatedRowSize(bytes, vgn_exr_open, "OpenEXR", target: target)
    }

    @Test func aFileCutBeforeItsPixelsSaysSo() throws {
        let whole = Self.exr(width: 8, height: 8, tile: nil) { _, _, _ in 0.5 }
        let error = try #require(throws: VignetteError.self) {
            try StreamedFormatTests.thumbnail(Array(whole.prefix(whole.count - 100)), name: "cut.exr")
        }
        #expect(error.code == .corrupt)
        #expect(
            error.reason.hasPrefix("corrupt OpenEXR: cannot decode the pixels (OpenEXR: ") || error.reason.hasPrefix("truncated OpenEXR: "),
            "\(error.reason)")
    }
}
