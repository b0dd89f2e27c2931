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

    @Test func anSGIHeaderPromisingMoreThanTheFileHoldsIsRefusedAtOpen() throws {
        // 65535 × 65535 × 4 run-length coded: its row tables alone would be 2 GB, in a 600-byte file.
        var header = [UInt8](repeating: 0, count: 600)
        header.replaceSubrange(0..<12, with: [0x01, 0xDA, 1, 1, 0, 3, 0xFF, 0xFF, 0xFF, 0xFF, 0, 4])
        let error = try #require(throws: VignetteError.self) { try StreamedFormatTests.thumbnail(header, name: "bomb.sgi") }
        #expect(error.code == .corrupt)
        #expect(error.reason.hasPrefix("truncated SGI: "), "\(error.reason)")
    }
}
