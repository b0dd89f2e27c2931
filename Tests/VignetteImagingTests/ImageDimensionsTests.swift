import Testing

@testable import VignetteImaging

/// Headers of every format the pixel cap reads, and hostile ones.
@Suite("Image dimensions from headers")
struct ImageDimensionsTests {
    static func le16(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF)] }
    static func le32(_ v: Int) -> [UInt8] { le16(v & 0xFFFF) + le16(v >> 16) }
    static func be16(_ v: Int) -> [UInt8] { le16(v).reversed() }
    static func be32(_ v: Int) -> [UInt8] { le32(v).reversed() }

    static let headers: [(String, [UInt8], Int, Int)] = [
        ("PNG", [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13] + Array("IHDR".utf8) + be32(65535) + be32(3), 65535, 3),
        (
            "JPEG", [0xFF, 0xD8, 0xFF, 0xE0] + be16(4) + [0, 0, 0xFF, 0xC2] + be16(11) + [8] + be16(40000) + be16(50000) + [3], 50000, 40000
        ),
        ("GIF", Array("GIF89a".utf8) + le16(10) + le16(10) + [0, 0, 0, 0x2C] + le16(5) + le16(5) + le16(60000) + le16(7), 60005, 12),
        ("BMP", Array("BM".utf8) + [UInt8](repeating: 0, count: 12) + le32(40) + le32(30000) + le32(-20000 & 0xFFFF_FFFF), 30000, 20000),
        (
            "WebP",
            Array("RIFF".utf8) + le32(30) + Array("WEBPVP8X".utf8) + le32(10) + [0, 0, 0, 0] + [0xFE, 0xFF, 0x00] + [0xFE, 0xFF, 0x00],
            65535, 65535
        ),
        ("WebP", Array("RIFF".utf8) + le32(30) + Array("WEBPVP8L".utf8) + le32(10) + [0x2F] + le32((99 << 14) | 199), 200, 100),
        ("PSD", Array("8BPS".utf8) + be16(1) + [UInt8](repeating: 0, count: 8) + be32(300_000) + be32(400_000), 400_000, 300_000),
        ("ICO", [0, 0, 1, 0] + le16(1) + [0, 0] + [UInt8](repeating: 0, count: 14), 256, 256),
        ("PNM", Array("P6\n# comment\n70000 80000\n255\n".utf8), 70000, 80000),
        ("PAM", Array("P7\nWIDTH 9000\nHEIGHT 8000\nDEPTH 4\nENDHDR\n".utf8), 9000, 8000),
        (
            "TIFF",
            Array("II*\0".utf8) + le32(8) + le16(2) + le16(256) + le16(4) + le32(1) + le32(100_000) + le16(257) + le16(3) + le32(1)
                + le16(2) + [0, 0], 100_000, 2
        ),
    ]

    @Test func everyFormatsHeaderGivesItsSize() {
        for (format, bytes, width, height) in Self.headers {
            let d = ImageDimensions(bytes)
            #expect(d?.format == format, "\(format)")
            #expect(d?.width == width && d?.height == height, "\(format): \(String(describing: d))")
        }
        let tga: [UInt8] = [0, 0, 2] + [UInt8](repeating: 0, count: 9) + Self.le16(65535) + Self.le16(65535) + [32, 0]
        #expect(ImageDimensions(tga) == nil)
        #expect(ImageDimensions(tga, isTGA: true) == ImageDimensions("TGA", 65535, 65535))
    }

    @Test func aTIFFWhoseDirectoryIsFurtherOnIsReadThroughTheCallback() {
        let head = Array("MM\0*".utf8) + Self.be32(1_000_000)
        let ifd = Self.be16(1) + Self.be16(256) + Self.be16(4) + Self.be32(1) + Self.be32(77)
        var asked: [Int] = []
        let d = ImageDimensions(head) { offset, _ in
            asked.append(offset)
            return ifd
        }
        #expect(asked == [1_000_000])
        #expect(d == nil)  // a width but no height: not enough to judge
    }

    @Test func truncatedAndRandomHeadersNeverTrap() {
        for (_, bytes, _, _) in Self.headers {
            for cut in 0..<bytes.count { _ = ImageDimensions(Array(bytes.prefix(cut)), isTGA: true) }
        }
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<20_000 {
            let (_, seed, _, _) = Self.headers[Int.random(in: 0..<Self.headers.count, using: &generator)]
            var bytes = seed
            for _ in 0..<Int.random(in: 1...6, using: &generator) {
                bytes[Int.random(in: 0..<bytes.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
            }
            _ = ImageDimensions(bytes, isTGA: true) { _, count in [UInt8](repeating: 0xFF, count: count) }
        }
    }
}
