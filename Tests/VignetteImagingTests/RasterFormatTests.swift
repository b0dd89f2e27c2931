import CVignetteCodecs
import Foundation
import Testing
import VignetteCore

@testable import VignetteImaging

/// The small raster formats decoded by our own code: QOI (made by FFmpeg's encoder at test time
/// and checked against its decoder), PFM (written here, both byte orders), DDS (ImageMagick's
/// block-compressed textures against its own reading, a mipmap chain read at the level covering
/// the thumbnail; BC4, BC5 and the DX10 header by hand).
@Suite("QOI, PFM and DDS")
struct RasterFormatTests {
    /// Runs FFmpeg quietly on `arguments`.
    static func ffmpeg(_ arguments: [String]) throws -> Int32 {
        try FormatCorpusTests.run(["ffmpeg", "-v", "error", "-y"] + arguments)
    }

    @Test(arguments: ["rgb24", "rgba"])
    func aQOIFileFFmpegWroteMatchesFFmpegsReading(pixelFormat: String) throws {
        let folder = try JPEG2000Tests.workFolder("qoi-\(pixelFormat)")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // An odd-sized photo, with an alpha gradient for rgba (geq: alpha falls from left to right).
        let flower = Fixtures.root + "/jpeg/pillow/flower.jpg"
        let filter = pixelFormat == "rgba" ? "scale=157:117,format=rgba,geq=r='r(X,Y)':g='g(X,Y)':b='b(X,Y)':a='255-X'" : "scale=157:117"
        #expect(try Self.ffmpeg(["-i", flower, "-vf", filter, "-pix_fmt", pixelFormat, "-c:v", "qoi", folder + "/flower.qoi"]) == 0)
        #expect(try Self.ffmpeg(["-i", folder + "/flower.qoi", "-pix_fmt", "rgba", folder + "/flower.png"]) == 0)
        let qoi = Array(try Data(contentsOf: URL(fileURLWithPath: folder + "/flower.qoi")))
        let ours = try StreamedFormatTests.thumbnail(qoi, name: "flower.qoi", size: 157)
        let png = Array(try Data(contentsOf: URL(fileURLWithPath: folder + "/flower.png")))
        let reference = try png.withUnsafeBytes { try ImageDecoder.png($0, request: ThumbnailRequest(maxPixelSize: 157)) }
        #expect(ours.bitmap.width == 157 && ours.bitmap.height == 117)
        #expect(ours.bitmap == reference.bitmap)
    }

    @Test func aQOIHeaderPromisingMorePixelsThanTheFileCanHoldIsRefused() throws {
        // 62 pixels a byte at most (a run): 65535 × 65535 cannot come from 8 bytes of operations.
        let header = Array("qoif".utf8) + [0, 0, 0xFF, 0xFF, 0, 0, 0xFF, 0xFF, 4, 0] + [0, 0, 0, 0, 0, 0, 0, 1]
        #expect(throws: VignetteError(.corrupt, "truncated QOI: the file is too short for the pixels its header gives")) {
            try StreamedFormatTests.thumbnail(header, name: "bomb.qoi")
        }
        // 4 × 4 pixels, then only a run of 5 and the end marker: the second row cannot be completed.
        let cut = Array("qoif".utf8) + [0, 0, 0, 4, 0, 0, 0, 4, 3, 0, 0xC0 | 4] + [0, 0, 0, 0, 0, 0, 0, 1]
        let error = try #require(throws: VignetteError.self) { try StreamedFormatTests.thumbnail(cut, name: "cut.qoi") }
        #expect(error.reason.hasPrefix("truncated QOI: "), "\(error.reason)")
    }

    /// A PFM of `values` (width × height × channels floats, top row first) as the format stores it:
    /// bottom row first, little-endian when `little`.
    static func pfm(width: Int, height: Int, channels: Int, little: Bool, _ values: [Float]) -> [UInt8] {
        var bytes = Array("\(channels == 3 ? "PF" : "Pf")\n\(width) \(height)\n\(little ? "-1.0" : "1.0")\n".utf8)
        let rowLength = width * channels
        for row in (0..<height).reversed() {
            for value in values[(row * rowLength)..<((row + 1) * rowLength)] {
                let bits = value.bitPattern
                let word = little ? bits.littleEndian : bits.bigEndian
                withUnsafeBytes(of: word) { bytes.append(contentsOf: $0) }
            }
        }
        return bytes
    }

    @Test func aPFMWithinZeroToOneIsShownAsItIsInEitherByteOrder() throws {
        // 2 × 2 colour: red, green over blue, grey; the top row first.
        let values: [Float] = [1, 0, 0, 0, 1, 0, 0, 0, 1, 0.5, 0.5, 0.5]
        for little in [true, false] {
            let image = try StreamedFormatTests.thumbnail(
                Self.pfm(width: 2, height: 2, channels: 3, little: little, values), name: "x.pfm", size: 2)
            #expect(image.bitmap.pixels == [255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 128, 128, 128, 255], "little: \(little)")
        }
    }

    @Test func aPFMOutsideZeroToOneIsStretchedOverItsRangeAndNaNIsBlack() throws {
        // Grey values 10, 20, 30 and NaN: 10 black, 30 white, 20 halfway.
        let image = try StreamedFormatTests.thumbnail(
            Self.pfm(width: 4, height: 1, channels: 1, little: true, [10, 20, 30, .nan]), name: "x.pfm", size: 4)
        #expect(image.bitmap.pixels == [0, 0, 0, 255, 128, 128, 128, 255, 255, 255, 255, 255, 0, 0, 0, 255])
        let cut = Array(Self.pfm(width: 4, height: 1, channels: 1, little: true, [10, 20, 30, 40]).dropLast(1))
        #expect(throws: VignetteError(.corrupt, "truncated PFM: the file is too short for the pixels its header gives")) {
            try StreamedFormatTests.thumbnail(cut, name: "cut.pfm")
        }
    }

    @Test(arguments: ["dxt1", "dxt3", "dxt5", "none"])
    func aDDSTextureImageMagickWroteMatchesItsOwnReading(compression: String) throws {
        let folder = try JPEG2000Tests.workFolder("dds-\(compression)")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // 61 × 45: partial blocks on both edges; alpha rising from left to right.
        let flower = Fixtures.root + "/jpeg/pillow/flower.jpg"
        let make = [
            "convert", flower, "-resize", "61x45!", "-alpha", "set", "-channel", "A", "-fx", "i/w", "+channel", "-define",
            "dds:compression=\(compression)", "-define", "dds:mipmaps=0", folder + "/t.dds",
        ]
        #expect(try FormatCorpusTests.run(make) == 0)
        #expect(try FormatCorpusTests.run(["convert", folder + "/t.dds[0]", "PNG32:" + folder + "/t.png"]) == 0)
        let dds = Array(try Data(contentsOf: URL(fileURLWithPath: folder + "/t.dds")))
        let ours = try StreamedFormatTests.thumbnail(dds, name: "t.dds", size: 61)
        let png = Array(try Data(contentsOf: URL(fileURLWithPath: folder + "/t.png")))
        let reference = try png.withUnsafeBytes { try ImageDecoder.png($0, request: ThumbnailRequest(maxPixelSize: 61)) }
        // Block colours are interpolated with rounding that differs by one here and there (56-57 dB).
        #expect(psnr(ours.bitmap, reference.bitmap) >= 50, "\(psnr(ours.bitmap, reference.bitmap)) dB")
    }

    @Test func aSmallThumbnailOfADDSWithMipmapsIsReadFromTheLevelCoveringIt() throws {
        let folder = try JPEG2000Tests.workFolder("dds-mipmaps")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // A chain of four levels (512 × 256 down to 64 × 32), each written by ImageMagick as a texture
        // of its own, so that each level has a reference: ImageMagick's reading of that texture.
        let flower = Fixtures.root + "/jpeg/pillow/flower.jpg"
        var chain: [UInt8] = []
        for (level, (w, h)) in [(512, 256), (256, 128), (128, 64), (64, 32)].enumerated() {
            let file = folder + "/l\(level).dds"
            let make = ["convert", flower, "-resize", "\(w)x\(h)!", "-define", "dds:compression=dxt1", "-define", "dds:mipmaps=0", file]
            #expect(try FormatCorpusTests.run(make) == 0)
            let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: file)))
            #expect(bytes.count == 128 + w * h / 2)
            chain += level == 0 ? Array(bytes[0..<128]) : []
            chain += bytes[128...]
        }
        chain[10] |= 0x02  // DDSD_MIPMAPCOUNT (0x20000), and the count: 4
        chain.replaceSubrange(28..<32, with: [4, 0, 0, 0])
        #expect(Self.ddsLevelSize(chain, target: 64)! == (64, 32))
        #expect(Self.ddsLevelSize(chain, target: 128)! == (128, 64))
        #expect(Self.ddsLevelSize(chain, target: 129)! == (256, 128))
        #expect(Self.ddsLevelSize(chain, target: 0)! == (512, 256))
        let small = try StreamedFormatTests.thumbnail(chain, name: "m.dds", size: 64)
        #expect(small.sourceWidth == 512 && small.sourceHeight == 256)
        #expect(small.bitmap.width == 64 && small.bitmap.height == 32)
        #expect(try FormatCorpusTests.run(["convert", folder + "/l3.dds", "PNG32:" + folder + "/l3.png"]) == 0)
        let png = Array(try Data(contentsOf: URL(fileURLWithPath: folder + "/l3.png")))
        let reference = try png.withUnsafeBytes { try ImageDecoder.png($0, request: ThumbnailRequest(maxPixelSize: 64)) }
        #expect(psnr(small.bitmap, reference.bitmap) >= 50, "\(psnr(small.bitmap, reference.bitmap)) dB")
        // A chain cut short by the file's end: the deepest level the file holds.
        let cut = Array(chain[0..<(128 + 512 * 256 / 2 + 256 * 128 / 2 + 100)])
        #expect(Self.ddsLevelSize(cut, target: 64)! == (256, 128))
    }

    /// The size of the rows the DDS decoder reads for `target`.
    static func ddsLevelSize(_ bytes: [UInt8], target: UInt32) -> (Int, Int)? {
        decoderRowSize(bytes) { vgn_dds_open($0, $1, target, &$2, &$3) }
    }

    /// A DDS header for a `width` × `height` texture with the four-character code `fourCC`, then
    /// `dx10Format` (a DX10 header) when given, then `data`.
    static func dds(width: Int, height: Int, fourCC: String, dx10Format: Int? = nil, _ data: [UInt8]) -> [UInt8] {
        func le32(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 24 & 0xFF)] }
        var header = Array("DDS ".utf8) + le32(124) + le32(0x1007) + le32(height) + le32(width) + le32(0) + le32(0) + le32(1)
        header += [UInt8](repeating: 0, count: 44) + le32(32) + le32(0x4) + Array(fourCC.utf8) + [UInt8](repeating: 0, count: 20)
        header += le32(0x1000) + [UInt8](repeating: 0, count: 16)
        if let dx10Format { header += le32(dx10Format) + le32(3) + le32(0) + le32(1) + le32(0) }
        return header + data
    }

    @Test func singleAndTwoChannelBlocksAreGreyAndANormalMap() throws {
        // BC4: endpoints 255 and 0, so eight values (index 0 and 1 the endpoints, 2 to 7 the six
        // between, 1/7 apart), the index of pixel i being i % 8 (3 bits each, least significant first).
        var bits: UInt64 = 0
        for i in 0..<16 { bits |= UInt64(i % 8) << (3 * i) }
        let indices: [UInt8] = (0..<6).map { UInt8(bits >> (8 * UInt64($0)) & 0xFF) }
        let block: [UInt8] = [255, 0] + indices
        let grey = try StreamedFormatTests.thumbnail(Self.dds(width: 4, height: 4, fourCC: "ATI1", block), name: "g.dds", size: 4)
        let levels: [UInt8] = [255, 0, 219, 182, 146, 109, 73, 36]
        let shown: [UInt8] = (0..<16).map { grey.bitmap.pixels[$0 * 4] }
        let expected: [UInt8] = (0..<16).map { levels[$0 % 8] }
        #expect(shown == expected)
        // BC5: a flat normal (X = Y = 128: pointing straight out) rebuilds Z near the top of the range.
        let flat: [UInt8] = [128, 128, 0, 0, 0, 0, 0, 0]
        let normal = try StreamedFormatTests.thumbnail(Self.dds(width: 4, height: 4, fourCC: "ATI2", flat + flat), name: "n.dds", size: 4)
        #expect(Array(normal.bitmap.pixels[0..<4]) == [128, 128, 255, 255])
        // The DX10 header's BC4 is the same texture.
        let dx10 = try StreamedFormatTests.thumbnail(
            Self.dds(width: 4, height: 4, fourCC: "DX10", dx10Format: 80, block), name: "x.dds", size: 4)
        #expect(dx10.bitmap == grey.bitmap)
    }

    @Test func bc7AndAHeaderPromisingMoreThanTheFileSaySo() throws {
        let bc7 = Self.dds(width: 4, height: 4, fourCC: "DX10", dx10Format: 98, [UInt8](repeating: 0, count: 16))
        #expect(throws: VignetteError(.unsupported, "unsupported DDS: BC7 (DXGI format 98) is not supported")) {
            try StreamedFormatTests.thumbnail(bc7, name: "bc7.dds")
        }
        let bomb = Self.dds(width: 65536, height: 65536, fourCC: "DXT1", [UInt8](repeating: 0, count: 8))
        #expect(throws: VignetteError(.corrupt, "truncated DDS: the file is too short for the pixels its header gives")) {
            try StreamedFormatTests.thumbnail(bomb, name: "bomb.dds")
        }
    }
}
