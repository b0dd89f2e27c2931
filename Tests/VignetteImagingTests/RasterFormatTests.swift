import Foundation
import Testing
import VignetteCore

@testable import VignetteImaging

/// The small raster formats decoded by our own code: QOI (made by FFmpeg's encoder at test time
/// and checked against its decoder), PFM (written here, both byte orders).
@Suite("QOI and PFM")
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
}
