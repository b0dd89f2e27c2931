import CVignetteCodecs
import Foundation
import Testing
import VignetteCore

@testable import VignetteImaging

/// JBIG1 through JBIG-KIT's libjbig in the decoding child: files pbmtojbg writes at test time,
/// sequential and progressive, against jbgtopbm's reading; the layer a small thumbnail reads; what
/// is refused, and how.
@Suite("JBIG")
struct JBIGTests {
    /// flower.jpg as a 480 × 360 black-and-white PBM, and `pbmtojbg options` of it.
    static func make(_ folder: String, _ options: [String], grey: Bool = false) throws -> [UInt8] {
        let flower = Fixtures.root + "/jpeg/pillow/flower.jpg"
        let source = folder + (grey ? "/f.pgm" : "/f.pbm")
        #expect(try FormatCorpusTests.run(["convert", flower, "-resize", "480x360!"] + (grey ? [] : ["-monochrome"]) + [source]) == 0)
        #expect(try FormatCorpusTests.run(["pbmtojbg"] + options + [source, folder + "/f.jbg"]) == 0)
        return Array(try Data(contentsOf: URL(fileURLWithPath: folder + "/f.jbg")))
    }

    /// The size of the rows the JBIG decoder reads for `target` (in `vignette-decode`, as in use).
    static func layerSize(_ bytes: [UInt8], target: UInt32) -> (Int, Int)? {
        isolatedRowSize(bytes, vgn_jbig_open, "JBIG-KIT", target: target)
    }

    @Test(arguments: [[String](), ["-d", "3"]])
    func aFilePbmtojbgWroteMatchesJbgtopbmsReading(options: [String]) throws {
        let folder = try JPEG2000Tests.workFolder("jbig-\(options.count)")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let jbig = try Self.make(folder, options)
        #expect(try FormatCorpusTests.run(["sh", "-c", "jbgtopbm \"$0\" | pnmtopng > \"$1\"", folder + "/f.jbg", folder + "/t.png"]) == 0)
        let ours = try StreamedFormatTests.thumbnail(jbig, name: "f.jbg", size: 480)
        let png = Array(try Data(contentsOf: URL(fileURLWithPath: folder + "/t.png")))
        let theirs = try png.withUnsafeBytes { try ImageDecoder.png($0, request: ThumbnailRequest(maxPixelSize: 480)) }
        #expect(ours.bitmap.width == 480 && ours.bitmap.height == 360)
        #expect(ours.bitmap == theirs.bitmap)
    }

    @Test func aSmallThumbnailOfAProgressiveFileReadsTheLayerCoveringFourTimesIt() throws {
        let folder = try JPEG2000Tests.workFolder("jbig-layers")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // Four layers: 60 × 45, 120 × 90, 240 × 180 and 480 × 360.
        let jbig = try Self.make(folder, ["-d", "3"])
        #expect(Self.layerSize(jbig, target: 30)! == (120, 90))
        #expect(Self.layerSize(jbig, target: 31)! == (240, 180))
        #expect(Self.layerSize(jbig, target: 64)! == (480, 360))
        #expect(Self.layerSize(jbig, target: 0)! == (480, 360))
        // Written resolution layer by resolution layer innermost (order 0): libjbig cannot stop at a
        // lower layer, so the whole picture is read.
        #expect(try FormatCorpusTests.run(["pbmtojbg", "-d", "3", "-o", "0", folder + "/f.pbm", folder + "/o0.jbg"]) == 0)
        let order0 = Array(try Data(contentsOf: URL(fileURLWithPath: folder + "/o0.jbg")))
        #expect(Self.layerSize(order0, target: 30)! == (480, 360))
        let whole = try StreamedFormatTests.thumbnail(order0, name: "o0.jbg", size: 30)
        #expect(whole.bitmap.width == 30 && whole.bitmap.height == 23)
        let small = try StreamedFormatTests.thumbnail(jbig, name: "f.jbg", size: 30)
        #expect(small.sourceWidth == 480 && small.sourceHeight == 360)
        #expect(small.bitmap.width == 30 && small.bitmap.height == 23)
        // The 120 × 90 layer shrunk four times against the whole picture shrunk sixteen: the same page.
        let full = try StreamedFormatTests.thumbnail(jbig, name: "f.jbg", size: 480)
        let shrunk = StreamedFormatTests.shrunk(full.bitmap, 30, 23)
        #expect(psnr(small.bitmap, shrunk) >= 25, "\(psnr(small.bitmap, shrunk)) dB")
    }

    @Test func greyPlanesAndACutFileSaySoAndOnePlaneIsNoIcon() throws {
        let folder = try JPEG2000Tests.workFolder("jbig-refused")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let grey = try Self.make(folder, [], grey: true)
        let planes = try #require(throws: VignetteError.self) { try StreamedFormatTests.thumbnail(grey, name: "g.jbg") }
        #expect(planes.reason == "unsupported JBIG: JBIG of 8 bit planes (grey) is not supported: one (black and white) is")
        let whole = try Self.make(folder, [])
        let cut = try #require(throws: VignetteError.self) {
            try StreamedFormatTests.thumbnail(Array(whole.prefix(whole.count / 2)), name: "cut.jbg")
        }
        #expect(cut.reason == "truncated JBIG: the file ends before the picture does")
        // One bit plane starts with the bytes of an ICO header (00 00 01 00): told apart by the
        // directory's count of entries (0) and JBIG's fixed fields, without a name too.
        #expect(StreamedFormatTests.resolver.resolve(bytes: whole, filename: "scan").type.identifier == "org.jbig.jbig")
    }
}
