import Foundation
import Testing
import VignetteCore

@testable import VignetteImaging

/// PCX, SGI and Sun raster, written at test time by ImageMagick in each of their codings and read
/// back against ImageMagick's own reading (where ImageMagick misreads its own files, netpbm's
/// tools are the reference: 1-bit PCX, run-length coded Sun).
@Suite("PCX, SGI and Sun raster")
struct LegacyRasterTests {
    /// flower.jpg as a 97 × 61 picture (an odd width: padded rows) written as `name` with `options`,
    /// our thumbnail of it, and the reference's reading of it: ImageMagick's, or the `netpbm`
    /// converter's to PNM piped to pnmtopng.
    static func roundTrip(_ name: String, _ options: [String], netpbm: String? = nil) throws -> (ours: Bitmap, theirs: Bitmap) {
        let folder = try JPEG2000Tests.workFolder("legacy-\(name)")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let flower = Fixtures.root + "/jpeg/pillow/flower.jpg"
        let file = folder + "/" + name
        #expect(try FormatCorpusTests.run(["convert", flower, "-resize", "97x61!"] + options + [file]) == 0)
        let read = netpbm.map { ["sh", "-c", "\($0) \"$0\" | pnmtopng > \"$1\"", file, folder + "/t.png"] }
        #expect(try FormatCorpusTests.run(read ?? ["convert", file, "PNG32:" + folder + "/t.png"]) == 0)
        let ours = try StreamedFormatTests.thumbnail(Array(try Data(contentsOf: URL(fileURLWithPath: file))), name: name, size: 97)
        let png = Array(try Data(contentsOf: URL(fileURLWithPath: folder + "/t.png")))
        let theirs = try png.withUnsafeBytes { try ImageDecoder.png($0, request: ThumbnailRequest(maxPixelSize: 97)) }
        return (ours.bitmap, theirs.bitmap)
    }

    @Test(arguments: [
        ("rgb.pcx", ["-type", "truecolor"]), ("palette.pcx", ["-type", "palette"]),
        ("rle.sgi", ["-compress", "RLE"]), ("verbatim.sgi", ["-compress", "none"]), ("grey.sgi", ["-colorspace", "gray"]),
        ("rgba.sgi", ["-alpha", "set", "-channel", "A", "-fx", "j/h", "+channel"]), ("rgb.ras", ["-type", "truecolor"]),
        ("palette.ras", ["-type", "palette"]), ("mono.ras", ["-monochrome"]),
        ("rgba.ras", ["-alpha", "set", "-channel", "A", "-fx", "j/h", "+channel"]),
    ])
    func aFileImageMagickWroteMatchesItsOwnReading(name: String, options: [String]) throws {
        let (ours, theirs) = try Self.roundTrip(name, options)
        #expect(ours.width == 97 && ours.height == 61)
        #expect(ours == theirs)
    }

    @Test func runLengthCodedSunRasterAndOneBitPCXMatchNetpbm() throws {
        // ImageMagick loses the end of run-length coded Sun files and inverts 1-bit PCX: netpbm reads them as written.
        let sun = try Self.roundTrip(
            "rle.ras", ["-type", "palette", "-compress", "RLE"], netpbm: "rasttopnm")
        #expect(sun.ours == sun.theirs)
        let pcx = try Self.roundTrip("mono.pcx", ["-monochrome"], netpbm: "pcxtoppm")
        #expect(pcx.ours == pcx.theirs)
    }

    /// A 2 × 2 32-bit Sun raster (type 1: XBGR), raw or run-length coded, whose pad bytes are `pads`.
    static func sun32(pads: [UInt8], rle: Bool) -> [UInt8] {
        var header: [UInt8] = [0x59, 0xA6, 0x6A, 0x95, 0, 0, 0, 2, 0, 0, 0, 2, 0, 0, 0, 32, 0, 0, 0, 16, 0, 0, 0, rle ? 2 : 1]
        header += [UInt8](repeating: 0, count: 8)
        let colours: [[UInt8]] = [[10, 20, 30], [40, 50, 60], [70, 80, 90], [100, 110, 120]]
        var pixels: [UInt8] = []
        for (pad, bgr) in zip(pads, colours) { pixels += [pad] + bgr }
        // No byte is 0x80, so the run-length coding of these pixels is the pixels themselves.
        return header + pixels
    }

    @Test(arguments: [false, true])
    func aSunRasterPadByteIsAlphaUnlessEveryOneIsZero(rle: Bool) throws {
        let opaque = try StreamedFormatTests.thumbnail(Self.sun32(pads: [0, 0, 0, 0], rle: rle), name: "zero.ras", size: 2).bitmap
        #expect(opaque.pixels == [30, 20, 10, 255, 60, 50, 40, 255, 90, 80, 70, 255, 120, 110, 100, 255])
        let alpha = try StreamedFormatTests.thumbnail(Self.sun32(pads: [255, 127, 1, 255], rle: rle), name: "alpha.ras", size: 2).bitmap
        #expect(stride(from: 3, to: 16, by: 4).map { alpha.pixels[$0] } == [255, 127, 1, 255])
        #expect(Array(alpha.pixels[0..<4]) == [30, 20, 10, 255])
    }

    @Test func anUncompressedPCXIsTypedAsPCXAndRead() throws {
        // Encoding 0 (no run-length coding), 8 bits in one plane, 2 × 2, with the 256-colour palette.
        var header = [UInt8](repeating: 0, count: 128)
        header.replaceSubrange(0..<12, with: [0x0A, 5, 0, 8, 0, 0, 0, 0, 1, 0, 1, 0])
        header.replaceSubrange(65..<70, with: [1, 2, 0, 1, 0])
        var palette = [UInt8](repeating: 0, count: 768)
        palette.replaceSubrange(0..<12, with: [10, 20, 30, 40, 50, 60, 70, 80, 90, 100, 110, 120])
        let file = header + [0, 1, 2, 3] + [0x0C] + palette
        #expect(StreamedFormatTests.resolver.resolve(bytes: file, filename: "scan").type.identifier == "com.zsoft.pcx")
        let bitmap = try StreamedFormatTests.thumbnail(file, name: "scan", size: 2).bitmap
        #expect(bitmap.pixels == [10, 20, 30, 255, 40, 50, 60, 255, 70, 80, 90, 255, 100, 110, 120, 255])
    }

    @Test func anSGIHeaderPromisingMoreThanTheFileHoldsIsRefusedAtOpen() throws {
        // 65535 × 65535 × 4 run-length coded: its row tables alone would be 2 GB, in a 600-byte file.
        var header = [UInt8](repeating: 0, count: 600)
        header.replaceSubrange(0..<12, with: [0x01, 0xDA, 1, 1, 0, 3, 0xFF, 0xFF, 0xFF, 0xFF, 0, 4])
        let error = try #require(throws: VignetteError.self) { try StreamedFormatTests.thumbnail(header, name: "bomb.sgi") }
        #expect(error.code == .corrupt)
        #expect(error.reason.hasPrefix("truncated SGI: "), "\(error.reason)")
    }
}
