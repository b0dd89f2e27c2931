import CVignetteCodecs
import Foundation
import Testing
import VignetteCore

@testable import VignetteImaging

/// JPEG 2000 through OpenJPEG: files made at test time by OpenJPEG's own encoder (`opj_compress`,
/// libopenjp2-tools) from a fixture photo, read at the resolution the thumbnail needs and checked
/// against the reference decoder (`opj_decompress`); hostile headers refused before OpenJPEG
/// allocates for them.
@Suite("JPEG 2000")
struct JPEG2000Tests {
    /// A folder of this test's own, removed by the caller.
    static func workFolder(_ name: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("jp2-\(name)-\(getpid())").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// `flower.jpg` (480 × 360) as a PPM, or a 12-bit PGM when `grey12`, encoded by `opj_compress`
    /// with `options` into `name` in `folder`.
    static func encode(_ folder: String, _ name: String, grey12: Bool = false, _ options: [String]) throws -> [UInt8] {
        let source = folder + (grey12 ? "/source.pgm" : "/source.ppm")
        let conversion = grey12 ? ["-colorspace", "gray", "-depth", "12"] : ["-depth", "8"]
        #expect(try FormatCorpusTests.run(["convert", Fixtures.root + "/jpeg/pillow/flower.jpg"] + conversion + [source]) == 0)
        #expect(try FormatCorpusTests.run(["opj_compress", "-i", source, "-o", folder + "/" + name] + options) == 0)
        return Array(try Data(contentsOf: URL(fileURLWithPath: folder + "/" + name)))
    }

    /// The size of the rows OpenJPEG decodes for `target` (in `vignette-decode`, as in use).
    static func decodedSize(_ bytes: [UInt8], target: UInt32) -> (Int, Int)? {
        isolatedRowSize(bytes, vgn_jp2_open, "OpenJPEG", target: target)
    }

    @Test func aSmallThumbnailIsDecodedFromAReducedResolutionAndMatchesTheFullDecode() throws {
        let folder = try Self.workFolder("reduce")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // Six resolution levels: 480 × 360 halves five times.
        let bytes = try Self.encode(folder, "flower.jp2", ["-n", "6", "-r", "20"])
        // For 64 pixels two levels are dropped (120 × 90; a third would give 60 × 45, too small).
        #expect(Self.decodedSize(bytes, target: 64)! == (120, 90))
        #expect(Self.decodedSize(bytes, target: 0)! == (480, 360))
        let small = try StreamedFormatTests.thumbnail(bytes, name: "flower.jp2", size: 64)
        #expect(small.sourceWidth == 480 && small.sourceHeight == 360)
        #expect(small.bitmap.width == 64 && small.bitmap.height == 48)
        // The same two levels dropped by OpenJPEG's own decoder, shrunk the same way: the same picture.
        #expect(try FormatCorpusTests.run(["opj_decompress", "-i", folder + "/flower.jp2", "-r", "2", "-o", folder + "/r2.png"]) == 0)
        let png = Array(try Data(contentsOf: URL(fileURLWithPath: folder + "/r2.png")))
        let reference = try png.withUnsafeBytes { try ImageDecoder.png($0, request: ThumbnailRequest(maxPixelSize: 64)) }
        #expect(psnr(small.bitmap, reference.bitmap) >= 45, "\(psnr(small.bitmap, reference.bitmap)) dB")
        // Against the full picture shrunk by our box filter it differs by the wavelet's low-pass
        // (sharper, and centred on even samples): the same picture still.
        let full = try StreamedFormatTests.thumbnail(bytes, name: "flower.jp2", size: 1 << 14)
        let shrunk = StreamedFormatTests.shrunk(full.bitmap, 64, 48)
        #expect(psnr(small.bitmap, shrunk) >= 27, "\(psnr(small.bitmap, shrunk)) dB")
    }

    @Test func aTiledTwelveBitGreyCodestreamMatchesOpenJPEGsOwnDecoder() throws {
        let folder = try Self.workFolder("tiled")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // 100-pixel tiles (5 × 4 of them, the last ones partial), 12-bit samples, a bare codestream.
        let bytes = try Self.encode(folder, "grey.j2k", grey12: true, ["-t", "100,100", "-n", "4", "-r", "10"])
        let ours = try StreamedFormatTests.thumbnail(bytes, name: "grey.j2k", size: 256)
        #expect(try FormatCorpusTests.run(["opj_decompress", "-i", folder + "/grey.j2k", "-o", folder + "/reference.png"]) == 0)
        let png = Array(try Data(contentsOf: URL(fileURLWithPath: folder + "/reference.png")))
        let reference = try png.withUnsafeBytes { try ImageDecoder.png($0, request: ThumbnailRequest(maxPixelSize: 256)) }
        #expect(ours.bitmap.width == 256 && ours.bitmap.height == 192)
        #expect(FormatCorpusTests.psnr(ours.bitmap, reference.bitmap) >= 35, "\(FormatCorpusTests.psnr(ours.bitmap, reference.bitmap)) dB")
    }

    /// `jp2` with its header box's colour specification replaced by one carrying `profile`
    /// (method 2, a restricted ICC profile), as cameras and scanners write it.
    static func withProfile(_ jp2: [UInt8], _ profile: [UInt8]) throws -> [UInt8] {
        func be32(_ v: Int) -> [UInt8] { [UInt8(v >> 24 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
        func u32(_ at: Int) -> Int { Int(jp2[at]) << 24 | Int(jp2[at + 1]) << 16 | Int(jp2[at + 2]) << 8 | Int(jp2[at + 3]) }
        // opj_compress writes the signature (12 bytes), ftyp (20), then jp2h holding ihdr (22) and colr.
        #expect(Array(jp2[36..<40]) == Array("jp2h".utf8) && Array(jp2[44..<48]) == Array("ihdr".utf8))
        let header = u32(32)
        let ihdr = Array(jp2[40..<62])
        let colr = be32(8 + 3 + profile.count) + Array("colr".utf8) + [2, 0, 0] + profile
        return Array(jp2[0..<32]) + be32(8 + ihdr.count + colr.count) + Array("jp2h".utf8) + ihdr + colr + Array(jp2[(32 + header)...])
    }

    @Test func aJP2sICCProfileIsAppliedAsThePNGsIs() throws {
        let folder = try Self.workFolder("icc")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let png = Fixtures.root + "/color/prophoto.png"
        // ImageMagick writes the PNG's profile out, and its pixels as they are (no conversion) into a PPM.
        #expect(try FormatCorpusTests.run(["convert", png, folder + "/prophoto.icc"]) == 0)
        #expect(try FormatCorpusTests.run(["convert", png, "-depth", "8", folder + "/prophoto.ppm"]) == 0)
        #expect(try FormatCorpusTests.run(["opj_compress", "-i", folder + "/prophoto.ppm", "-o", folder + "/plain.jp2", "-n", "3"]) == 0)
        let plain = Array(try Data(contentsOf: URL(fileURLWithPath: folder + "/plain.jp2")))
        let profile = Array(try Data(contentsOf: URL(fileURLWithPath: folder + "/prophoto.icc")))
        let tagged = try Self.withProfile(plain, profile)
        // At full size (320 × 200), so that no resolution is dropped: lossless, with the profile the
        // PNG's picture; without it, ProPhoto's values shown as sRGB.
        let pngBytes = Array(try Data(contentsOf: URL(fileURLWithPath: png)))
        let fromPNG = try StreamedFormatTests.thumbnail(pngBytes, name: "prophoto.png", size: 320)
        let fromJP2 = try StreamedFormatTests.thumbnail(tagged, name: "prophoto.jp2", size: 320)
        let untagged = try StreamedFormatTests.thumbnail(plain, name: "plain.jp2", size: 320)
        #expect(psnr(fromJP2.bitmap, fromPNG.bitmap) >= 60, "\(psnr(fromJP2.bitmap, fromPNG.bitmap)) dB")
        #expect(psnr(untagged.bitmap, fromPNG.bitmap) < 30, "\(psnr(untagged.bitmap, fromPNG.bitmap)) dB")
    }

    /// A main header of `tiles` × `tiles` one-pixel tiles and one 8-bit component.
    static func tileBomb(side: UInt32) -> [UInt8] {
        func be32(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
        // SOC, SIZ (Lsiz 41, Rsiz 0, size, offsets 0, 1 × 1 tiles, tile offsets 0, one component), EOC
        return [0xFF, 0x4F, 0xFF, 0x51, 0x00, 41, 0x00, 0x00] + be32(side) + be32(side) + be32(0) + be32(0) + be32(1) + be32(1)
            + be32(0) + be32(0) + [0x00, 0x01, 0x07, 0x01, 0x01, 0xFF, 0xD9]
    }

    @Test func aHeaderAskingForAMillionTilesIsRefusedBeforeOpenJPEGReadsIt() throws {
        let bytes = Self.tileBomb(side: 1000)
        let error = try #require(throws: VignetteError.self) { try StreamedFormatTests.thumbnail(bytes, name: "bomb.j2k") }
        #expect(error.code == .refused)
        #expect(
            error.reason
                == "JPEG 2000 over a decoder limit: 1000000 tile components (1000000 tiles, 1 components; at most 65536 are read)")
        // The largest grid a header can ask for (4294967295 tiles a side): refused without the product wrapping.
        let widest = try #require(throws: VignetteError.self) {
            try StreamedFormatTests.thumbnail(Self.tileBomb(side: 0xFFFF_FFFF), name: "bomb.j2k")
        }
        #expect(widest.code == .refused)
    }

    @Test func aCutCodestreamSaysItIsTruncated() throws {
        let folder = try Self.workFolder("cut")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let bytes = try Self.encode(folder, "flower.jp2", ["-n", "6", "-r", "20"])
        let error = try #require(throws: VignetteError.self) {
            try StreamedFormatTests.thumbnail(Array(bytes.prefix(bytes.count / 2)), name: "cut.jp2")
        }
        #expect(error.code == .corrupt)
        #expect(error.reason.hasPrefix("truncated JPEG 2000: OpenJPEG: "), "\(error.reason)")
    }

    @Test func aJP2WithoutItsCodestreamBoxSaysSo() throws {
        let folder = try Self.workFolder("nobox")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let bytes = try Self.encode(folder, "flower.jp2", ["-n", "2"])
        // Signature, file type and header boxes only (32 + 45 bytes as opj_compress writes them).
        let header = Array(bytes.prefix(12 + 20 + 45))
        let error = try #require(throws: VignetteError.self) { try StreamedFormatTests.thumbnail(header, name: "header.jp2") }
        #expect(error.reason == "corrupt JPEG 2000: the JP2 file has no codestream box (jp2c)")
    }
}
