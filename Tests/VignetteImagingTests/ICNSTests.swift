import CVignetteCodecs
import Foundation
import Testing
import VignetteCore

@testable import VignetteImaging

/// Apple icon files: made at test time by `png2icns` (icnsutils), which writes the old run-length
/// coded entries with their masks for 16 to 128 pixels and JPEG 2000 for 256 and 512; a PNG entry
/// built by hand as macOS writes it.
@Suite("ICNS")
struct ICNSTests {
    /// The six sizes of flower.jpg, square, with the right half at half opacity, and their .icns.
    static func makeIcon(_ folder: String) throws -> (icns: [UInt8], pngs: [Int: String]) {
        var pngs: [Int: String] = [:]
        for side in [16, 32, 48, 128, 256, 512] {
            let png = folder + "/icon\(side).png"
            let command = [
                "convert", Fixtures.root + "/jpeg/pillow/flower.jpg", "-resize", "\(side)x\(side)!", "-alpha", "set", "-channel", "A",
                "-fx", "0.5+0.5*(i<w/2)", "+channel", png,
            ]
            #expect(try FormatCorpusTests.run(command) == 0)
            pngs[side] = png
        }
        let sides = pngs.keys.sorted()
        #expect(try FormatCorpusTests.run(["png2icns", folder + "/test.icns"] + sides.map { pngs[$0]! }) == 0)
        return (Array(try Data(contentsOf: URL(fileURLWithPath: folder + "/test.icns"))), pngs)
    }

    /// The entry vgn_icns_select picks for `target`: its kind and side.
    static func pick(_ icns: [UInt8], target: UInt32) -> (kind: Int32, side: UInt32)? {
        icns.withUnsafeBufferPointer { buffer in
            var offset = 0
            var length = 0
            var kind: Int32 = -1
            var info = vgn_image_info()
            var err = vgn_error()
            guard vgn_icns_select(buffer.baseAddress, buffer.count, target, &offset, &length, &kind, &info, &err) == 0 else { return nil }
            return (kind, info.width)
        }
    }

    @Test func theEntryThatCoversTheTargetIsShownOldBitmapsAndJPEG2000Alike() throws {
        let folder = try JPEG2000Tests.workFolder("icns")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let (icns, pngs) = try Self.makeIcon(folder)
        let bitmap = Int32(VGN_ICNS_BITMAP)
        let jpeg2000 = Int32(VGN_ICNS_JPEG2000)
        #expect(Self.pick(icns, target: 16)! == (bitmap, 16))
        #expect(Self.pick(icns, target: 40)! == (bitmap, 48))
        #expect(Self.pick(icns, target: 128)! == (bitmap, 128))
        #expect(Self.pick(icns, target: 200)! == (jpeg2000, 256))
        #expect(Self.pick(icns, target: 2000)! == (jpeg2000, 512))
        // The old entries are lossless (run-length coded colour, 8-bit mask): the PNG's pixels.
        for side in [16, 48, 128] {
            let ours = try StreamedFormatTests.thumbnail(icns, name: "test.icns", size: side)
            let png = Array(try Data(contentsOf: URL(fileURLWithPath: pngs[side]!)))
            let reference = try png.withUnsafeBytes { try ImageDecoder.png($0, request: ThumbnailRequest(maxPixelSize: side)) }
            #expect(ours.bitmap == reference.bitmap, "\(side) px")
        }
        // JPEG 2000 at 256: lossless too in png2icns, alpha included.
        let ours = try StreamedFormatTests.thumbnail(icns, name: "test.icns", size: 256)
        let png = Array(try Data(contentsOf: URL(fileURLWithPath: pngs[256]!)))
        let reference = try png.withUnsafeBytes { try ImageDecoder.png($0, request: ThumbnailRequest(maxPixelSize: 256)) }
        #expect(psnr(ours.bitmap, reference.bitmap) >= 45, "\(psnr(ours.bitmap, reference.bitmap)) dB")
    }

    static func be32(_ v: Int) -> [UInt8] { [UInt8(v >> 24 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }

    @Test func aPNGEntryIsDecodedAsThePNG() throws {
        let folder = try JPEG2000Tests.workFolder("icns-png")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let (_, pngs) = try Self.makeIcon(folder)
        let png = Array(try Data(contentsOf: URL(fileURLWithPath: pngs[128]!)))
        // As macOS writes it: "ic07" (128 pixels) holding a PNG file.
        let icns = Array("icns".utf8) + Self.be32(8 + 8 + png.count) + Array("ic07".utf8) + Self.be32(8 + png.count) + png
        #expect(Self.pick(icns, target: 64)! == (Int32(VGN_ICNS_PNG), 128))
        let ours = try StreamedFormatTests.thumbnail(icns, name: "mac.icns", size: 128)
        let reference = try png.withUnsafeBytes { try ImageDecoder.png($0, request: ThumbnailRequest(maxPixelSize: 128)) }
        #expect(ours.bitmap == reference.bitmap)
    }

    @Test func damagedRunsAndMissingPicturesSaySo() throws {
        // An il32 whose run claims more pixels than 32 × 32, with its mask.
        let runs: [UInt8] = Array(repeating: 0xFF, count: 40) + [0x00]
        let damaged =
            Array("icns".utf8) + Self.be32(8 + 8 + runs.count + 8 + 1024) + Array("il32".utf8) + Self.be32(8 + runs.count) + runs
            + Array("l8mk".utf8) + Self.be32(8 + 1024) + Array(repeating: 0xFF, count: 1024)
        #expect(throws: VignetteError(.corrupt, "corrupt ICNS: the icon's run-length coded pixels are damaged")) {
            try StreamedFormatTests.thumbnail(damaged, name: "damaged.icns")
        }
        // Only a table of contents and an il32 without its mask: nothing to show.
        let empty =
            Array("icns".utf8) + Self.be32(8 + 16 + 12) + Array("TOC ".utf8) + Self.be32(16) + Array("il32".utf8) + Self.be32(12)
            + Array("il32".utf8) + Self.be32(12) + [0x7F, 0, 0, 0]
        #expect(
            throws: VignetteError(
                .unsupported, "unsupported ICNS: the icon file has no picture it can show (PNG, JPEG 2000 or RGB with its mask)")
        ) { try StreamedFormatTests.thumbnail(empty, name: "empty.icns") }
    }
}
