import Foundation
import Testing
import VignetteCore

@testable import VignetteImaging

@Suite("PNG decoding")
struct PNGDecodingTests {
    @Test func everyValidPngSuiteImageDecodesToTheReferenceRGBA() throws {
        let reference = try Fixtures.tsv("pngsuite/reference-rgba.tsv")
        #expect(reference.count == 162)
        var mismatches: [String] = []
        for row in reference {
            let (name, width, height, expected) = (row[0], Int(row[1])!, Int(row[2])!, row[3])
            let data = try Fixtures.bytes("pngsuite/" + name)
            let image = try data.withUnsafeBytes { try ImageDecoder.png($0, request: fullSize) }
            if image.bitmap.width != width || image.bitmap.height != height || sha256(image.bitmap.pixels) != expected {
                mismatches.append(name)
            }
        }
        #expect(mismatches == [])
    }

    @Test func everyCorruptPngSuiteFileIsRejectedWithAClearError() throws {
        let corrupt = try Fixtures.files(in: "pngsuite").filter { $0.hasPrefix("x") && $0.hasSuffix(".png") }
        #expect(corrupt.count == 14)
        for name in corrupt {
            let data = try Fixtures.bytes("pngsuite/" + name)
            do {
                _ = try data.withUnsafeBytes { try ImageDecoder.png($0, request: ThumbnailRequest(maxPixelSize: 16)) }
                Issue.record("\(name) decoded, but it is corrupt")
            } catch let error as VignetteError {
                #expect([.corrupt, .unsupported].contains(error.code), "\(name): \(error)")
                #expect(
                    error.reason.hasPrefix("corrupt PNG: ") || error.reason.hasPrefix("unsupported PNG: ")
                        || error.reason.hasPrefix("truncated PNG: "))
                #expect(error.reason.count > 20, "\(name): message too thin: \(error.reason)")
            }
        }
    }

    @Test func sixteenBitIsReducedAndAlphaKept() throws {
        let data = try Fixtures.bytes("pngsuite/basn6a16.png")
        let image = try data.withUnsafeBytes { try ImageDecoder.png($0, request: fullSize) }
        #expect(image.bitmap.width == 32)
        #expect(image.bitmap.hasTransparency)
    }

    @Test func thumbnailsHaveTheExactRequestedSizeAndKeepTheAspect() throws {
        let data = try Fixtures.bytes("pngsuite/PngSuite.png")
        for (size, expected) in [(64, (64, 64)), (100, (100, 100)), (1, (1, 1))] {
            let image = try data.withUnsafeBytes { try ImageDecoder.png($0, request: ThumbnailRequest(maxPixelSize: size)) }
            #expect((image.bitmap.width, image.bitmap.height) == expected)
        }
        // Odd sizes: s39n3p04 is 39×39; 32-pixel box.
        let odd = try Fixtures.bytes("pngsuite/s39n3p04.png")
        let small = try odd.withUnsafeBytes { try ImageDecoder.png($0, request: ThumbnailRequest(maxPixelSize: 32)) }
        #expect((small.bitmap.width, small.bitmap.height) == (32, 32))
    }

    @Test func smallImagesAreNeverEnlargedUnlessAsked() throws {
        let data = try Fixtures.bytes("pngsuite/basn2c08.png")
        let kept = try data.withUnsafeBytes { try ImageDecoder.png($0, request: ThumbnailRequest(maxPixelSize: 256)) }
        #expect((kept.bitmap.width, kept.bitmap.height) == (32, 32))
        let enlarged = try data.withUnsafeBytes {
            try ImageDecoder.png($0, request: ThumbnailRequest(maxPixelSize: 128, allowUpscale: true))
        }
        #expect((enlarged.bitmap.width, enlarged.bitmap.height) == (128, 128))
    }

    @Test func aHugeHeaderIsRefusedBeforeAnyPixelMemory() throws {
        let png = PNGHeader.make(width: 65535, height: 65535)
        #expect(throws: VignetteError(.refused, "image is 65535 × 65535 pixels (4295 MP), over the limit of 100 MP")) {
            _ = try png.withUnsafeBytes { try ImageDecoder.png($0, request: ThumbnailRequest()) }
        }
        let limits = ImageLimits(maxPixels: 1000)
        #expect(throws: VignetteError(.refused, "image is 32 × 32 pixels (1024 pixels), over the limit of 1000 pixels")) {
            _ = try Fixtures.bytes("pngsuite/basn2c08.png").withUnsafeBytes {
                try ImageDecoder.png($0, request: ThumbnailRequest(), limits: limits)
            }
        }
    }

    @Test func apngShowsItsDefaultImage() throws {
        let png = PNGHeader.make(width: 4, height: 3, withAnimationControl: true)
        let image = try png.withUnsafeBytes { try ImageDecoder.png($0, request: fullSize) }
        #expect((image.bitmap.width, image.bitmap.height) == (4, 3))
    }
}

/// Builds small PNG files in memory (zlib through Foundation is not available on Linux, so stored deflate blocks).
enum PNGHeader {
    static func crc(_ bytes: [UInt8]) -> UInt32 {
        var c: UInt32 = 0xFFFF_FFFF
        for b in bytes {
            c ^= UInt32(b)
            for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        }
        return ~c
    }

    static func chunk(_ type: String, _ body: [UInt8]) -> [UInt8] {
        let t = Array(type.utf8)
        return be32(UInt32(body.count)) + t + body + be32(crc(t + body))
    }

    static func be32(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8(v >> 16 & 255), UInt8(v >> 8 & 255), UInt8(v & 255)] }

    /// An RGB PNG of the given size; pixel data is included only when small.
    static func make(width: Int, height: Int, withAnimationControl: Bool = false) -> [UInt8] {
        var out: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        out += chunk("IHDR", be32(UInt32(width)) + be32(UInt32(height)) + [8, 2, 0, 0, 0])
        if withAnimationControl { out += chunk("acTL", be32(1) + be32(0)) }
        do {
            // Real pixels for small images; for huge headers only a token IDAT (never reached).
            let rows = width * height <= 4096 ? height : 1
            let cols = width * height <= 4096 ? width : 1
            var raw: [UInt8] = []
            for y in 0..<rows {
                raw.append(0)
                for x in 0..<cols { raw += [UInt8(x * 40 & 255), UInt8(y * 60 & 255), 128] }
            }
            // zlib stream with one stored block.
            var adlerA: UInt32 = 1
            var adlerB: UInt32 = 0
            for b in raw { adlerA = (adlerA + UInt32(b)) % 65521; adlerB = (adlerB + adlerA) % 65521 }
            let len = UInt16(raw.count)
            let z: [UInt8] =
                [0x78, 0x01, 1, UInt8(len & 255), UInt8(len >> 8), UInt8(~len & 255), UInt8(~len >> 8)] + raw + be32(adlerB << 16 | adlerA)
            out += chunk("IDAT", z)
        }
        out += chunk("IEND", [])
        return out
    }
}
