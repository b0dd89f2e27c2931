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

    /// Formats Vignette does not decode: their headers still give the size (previews, pixel cap).
    static let otherHeaders: [(String, [UInt8], Int, Int)] = [
        ("QOI", Array("qoif".utf8) + be32(70000) + be32(3) + [4, 0], 70000, 3),
        ("PFM", Array("PF\n640 -480\n-1.0\n".utf8), -1, -1),
        ("PFM", Array("Pf\n640 480\n-1.0\n".utf8), 640, 480),
        ("DDS", Array("DDS ".utf8) + le32(124) + le32(0x1007) + le32(512) + le32(1024), 1024, 512),
        ("JPEG 2000", [0xFF, 0x4F, 0xFF, 0x51] + be16(41) + be16(0) + be32(1000) + be32(800) + be32(10) + be32(20), 990, 780),
        (
            "JPEG 2000",
            [0, 0, 0, 0x0C] + Array("jP  ".utf8) + [0x0D, 0x0A, 0x87, 0x0A] + be32(20) + Array("ftypjp2 ".utf8) + be32(0)
                + Array("jp2 ".utf8) + be32(45) + Array("jp2h".utf8) + be32(22) + Array("ihdr".utf8) + be32(480) + be32(640),
            640, 480
        ),
        (
            "ICNS",
            Array("icns".utf8) + be32(8 + 16 + 16) + Array("is32".utf8) + be32(16) + [UInt8](repeating: 0, count: 8)
                + Array("ic09".utf8) + be32(16) + [UInt8](repeating: 0, count: 8), 512, 512
        ),
        (
            "PCX",
            [0x0A, 5, 1, 8] + le16(0) + le16(0) + le16(87) + le16(51) + [UInt8](repeating: 0, count: 52) + [0, 3]
                + [UInt8](repeating: 0, count: 62), 88, 52
        ),
    ]

    @Test func formatsWeDoNotDecodeStillGiveTheirSize() throws {
        for (format, bytes, width, height) in Self.otherHeaders {
            let d = ImageDimensions(bytes)
            if width < 0 {
                #expect(d == nil, "\(format): a negative height is no size")
                continue
            }
            #expect(d?.format == format, "\(format)")
            #expect(d?.width == width && d?.height == height, "\(format): \(String(describing: d))")
        }
        // Real files (Python's imghdr test data): identify(1) says 16 × 16 for each.
        for (name, format) in [("python.exr", "OpenEXR"), ("python.ras", "Sun raster"), ("python.sgi", "SGI")] {
            #expect(ImageDimensions(try Fixtures.bytes("headers/" + name)) == ImageDimensions(format, 16, 16), "\(name)")
        }
    }

    /// `fields` (value, bit count) packed least significant bit first, as JPEG XL writes them.
    static func bitsLSBFirst(_ fields: [(Int, Int)]) -> [UInt8] {
        var out: [UInt8] = []
        var position = 0
        for (value, count) in fields {
            for i in 0..<count {
                if position % 8 == 0 { out.append(0) }
                out[out.count - 1] |= UInt8((value >> i) & 1) << UInt8(position % 8)
                position += 1
            }
        }
        return out
    }

    /// A HEIF of `ftyp` (brand `brand`), then `meta` → `iprp` → `ipco` with one `ispe` per size.
    static func heif(brand: String, sizes: [(Int, Int)], before: [UInt8] = []) -> [UInt8] {
        let ftyp = be32(20) + Array("ftyp\(brand)".utf8) + be32(0) + Array("mif1".utf8)
        let ispes: [UInt8] = sizes.flatMap { size -> [UInt8] in
            be32(20) + Array("ispe".utf8) + [0, 0, 0, 0] + be32(size.0) + be32(size.1)
        }
        let ipco = be32(8 + ispes.count) + Array("ipco".utf8) + ispes
        let iprp = be32(8 + ipco.count) + Array("iprp".utf8) + ipco
        return ftyp + before + be32(12 + iprp.count) + Array("meta".utf8) + [0, 0, 0, 0] + iprp
    }

    static let heifAndJXLHeaders: [(String, [UInt8], Int, Int)] = [
        ("HEIF", heif(brand: "heic", sizes: [(160, 120), (70000, 50000), (512, 384)]), 70000, 50000),
        ("HEIF", heif(brand: "avif", sizes: [(0xFFFF_FFFF, 0xFFFF_FFFF)]), 0xFFFF_FFFF, 0xFFFF_FFFF),
        // Small: height (15 + 1) × 8, no ratio, width (7 + 1) × 8.
        ("JPEG XL", [0xFF, 0x0A] + bitsLSBFirst([(1, 1), (15, 5), (0, 3), (7, 5)]), 64, 128),
        // Large: height from 30 bits, ratio 7 (2:1).
        ("JPEG XL", [0xFF, 0x0A] + bitsLSBFirst([(0, 1), (3, 2), (999_999, 30), (7, 3)]), 2_000_000, 1_000_000),
        (
            "JPEG XL",
            [0, 0, 0, 0x0C, 0x4A, 0x58, 0x4C, 0x20, 0x0D, 0x0A, 0x87, 0x0A] + be32(20) + Array("ftypjxl ".utf8) + be32(0)
                + Array("jxl ".utf8) + be32(8 + 4 + 6) + Array("jxlp".utf8) + be32(0) + [0xFF, 0x0A]
                + bitsLSBFirst([(0, 1), (1, 2), (4999, 13), (0, 3), (2, 2), (199_999, 18)]), 200_000, 5000
        ),
    ]

    @Test func heifAndJPEGXLHeadersGiveTheirSize() throws {
        for (format, bytes, width, height) in Self.heifAndJXLHeaders {
            let d = ImageDimensions(bytes)
            #expect(d?.format == format, "\(format)")
            #expect(d?.width == width && d?.height == height, "\(format): \(String(describing: d))")
        }
        // Real files: what heif-info and jxlinfo say.
        let real = [
            // rot1mir0.avif is 640 × 427 once its irot turns it; ispe is the size before.
            ("formats/other-images/hopper.avif", 128, 128), ("formats/other-images/rot1mir0.avif", 427, 640),
            ("formats/other-images/hopper.heif", 128, 128), ("color/prophoto.heic", 320, 200),
            ("formats/other-images/pq_gradient.jxl", 1088, 64), ("formats/other-images/splines.jxl", 320, 320),
            ("formats/other-images/cropped_traffic_light.jxl", 50, 80),
            ("formats/other-images/square-extended-size-container.jxl", 8, 8), ("color/base-alpha.jxl", 320, 200),
        ]
        for (name, width, height) in real {
            let d = ImageDimensions(Array(try Fixtures.bytes(name).prefix(ImageDimensions.headerBytes)))
            #expect(d.map { [$0.width, $0.height] } == [width, height], "\(name): \(String(describing: d))")
        }
    }

    @Test func aHEIFWhoseMetaIsAfterALargeMdatIsReadThroughTheCallback() {
        let ftyp = Self.be32(20) + Array("ftypheic".utf8) + Self.be32(0) + Array("mif1".utf8)
        let file = Self.heif(brand: "heic", sizes: [(9000, 9000)], before: Self.be32(5_000_000) + Array("mdat".utf8))
        let meta = Array(file[(ftyp.count + 8)...])
        var asked: [Int] = []
        let d = ImageDimensions(Array(file.prefix(ftyp.count + 8))) { offset, count in
            asked.append(offset)
            return offset == 20 + 5_000_000 ? Array(meta.prefix(count)) : nil
        }
        #expect(asked.contains(20 + 5_000_000))
        #expect(d == ImageDimensions("HEIF", 9000, 9000))
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
        for (_, bytes, _, _) in Self.headers + Self.otherHeaders + Self.heifAndJXLHeaders {
            for cut in 0..<bytes.count { _ = ImageDimensions(Array(bytes.prefix(cut)), isTGA: true) }
        }
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<20_000 {
            let all = Self.headers + Self.otherHeaders + Self.heifAndJXLHeaders
            let (_, seed, _, _) = all[Int.random(in: 0..<all.count, using: &generator)]
            var bytes = seed
            for _ in 0..<Int.random(in: 1...6, using: &generator) {
                bytes[Int.random(in: 0..<bytes.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
            }
            _ = ImageDimensions(bytes, isTGA: true) { _, count in [UInt8](repeating: 0xFF, count: count) }
        }
    }
}
