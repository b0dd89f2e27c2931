/// Header sizes of the less common raster formats, read before any decoder runs: previews state
/// the size even when the picture cannot be drawn, and the external generators' pixel cap
/// applies to these formats too.
extension ImageDimensions {
    /// QOI, PCX, SGI, Sun raster, PFM, DDS, OpenEXR, JPEG 2000 (JP2 and the bare codestream) and
    /// ICNS, in that order; nil when none of them parses.
    static func other(_ b: ByteView) -> ImageDimensions? {
        qoi(b) ?? sgi(b) ?? sunRaster(b) ?? pfm(b) ?? dds(b) ?? exr(b) ?? jpeg2000(b) ?? icns(b) ?? pcx(b)
    }

    static func qoi(_ b: ByteView) -> ImageDimensions? {
        guard b.ascii(0, 4) == "qoif", let w = b.be32(4), let h = b.be32(8) else { return nil }
        return ImageDimensions("QOI", w, h)
    }

    static func sgi(_ b: ByteView) -> ImageDimensions? {
        guard b.be16(0) == 474, let storage = b.u8(2), storage <= 1, let bpc = b.u8(3), bpc == 1 || bpc == 2,
            let dimension = b.be16(4), (1...3).contains(dimension), let w = b.be16(6), let h = b.be16(8)
        else { return nil }
        return ImageDimensions("SGI", w, dimension == 1 ? 1 : h)
    }

    static func sunRaster(_ b: ByteView) -> ImageDimensions? {
        guard b.starts(with: [0x59, 0xA6, 0x6A, 0x95]), let w = b.be32(4), let h = b.be32(8) else { return nil }
        return ImageDimensions("Sun raster", w, h)
    }

    /// Portable float map: `PF` (colour) or `Pf` (grey), the width and height as text.
    static func pfm(_ b: ByteView) -> ImageDimensions? {
        guard b.u8(0) == UInt8(ascii: "P"), b.u8(1) == UInt8(ascii: "F") || b.u8(1) == UInt8(ascii: "f"),
            let gap = b.u8(2), gap == 0x0A || gap == 0x0D || gap == 0x20
        else { return nil }
        let words = String(decoding: b.slice(3, 64), as: UTF8.self).split(whereSeparator: \.isWhitespace)
        guard words.count >= 2, let w = Int(words[0]), let h = Int(words[1]), w >= 0, h >= 0 else { return nil }
        return ImageDimensions("PFM", w, h)
    }

    /// DirectDraw surface: `DDS `, then a 124-byte header with the height before the width.
    static func dds(_ b: ByteView) -> ImageDimensions? {
        guard b.ascii(0, 4) == "DDS ", b.le32(4) == 124, let h = b.le32(12), let w = b.le32(16) else { return nil }
        return ImageDimensions("DDS", w, h)
    }

    /// OpenEXR: the `dataWindow` attribute (a box2i: xMin, yMin, xMax, yMax) among the header's
    /// first 64 attributes.
    static func exr(_ b: ByteView) -> ImageDimensions? {
        guard b.starts(with: [0x76, 0x2F, 0x31, 0x01]) else { return nil }
        var at = 8
        for _ in 0..<64 {
            guard let name = b.cString(at, max: 256), !name.isEmpty, let type = b.cString(at + name.count + 1, max: 256),
                let size = b.le32(at + name.count + type.count + 2)
            else { return nil }
            let value = at + name.count + type.count + 6
            if name == Array("dataWindow".utf8), type == Array("box2i".utf8), size == 16 {
                guard let x0 = b.le32s(value), let y0 = b.le32s(value + 4), let x1 = b.le32s(value + 8), let y1 = b.le32s(value + 12),
                    x1 >= x0, y1 >= y0
                else { return nil }
                return ImageDimensions("OpenEXR", x1 - x0 + 1, y1 - y0 + 1)
            }
            at = value + size
        }
        return nil
    }

    /// JPEG 2000: a JP2 file's `ihdr` box (in `jp2h`), or a bare codestream's SIZ segment.
    static func jpeg2000(_ b: ByteView) -> ImageDimensions? {
        if b.starts(with: [0xFF, 0x4F, 0xFF, 0x51]) {
            guard let w = b.be32(8), let h = b.be32(12), let x0 = b.be32(16), let y0 = b.be32(20), w >= x0, h >= y0 else { return nil }
            return ImageDimensions("JPEG 2000", w - x0, h - y0)
        }
        guard b.starts(with: [0, 0, 0, 0x0C, 0x6A, 0x50, 0x20, 0x20, 0x0D, 0x0A, 0x87, 0x0A]) else { return nil }
        var at = 12
        for _ in 0..<32 {
            guard let length = b.be32(at), length >= 8 || length == 0 else { return nil }
            let kind = b.ascii(at + 4, 4)
            if kind == "jp2h" {
                // The header box holds boxes; `ihdr` comes first.
                guard b.ascii(at + 12, 4) == "ihdr", let h = b.be32(at + 16), let w = b.be32(at + 20) else { return nil }
                return ImageDimensions("JPEG 2000", w, h)
            }
            guard length > 0 else { return nil }
            at += length
        }
        return nil
    }

    /// Apple icon image: the largest icon its first 64 entries name, by their type codes.
    static func icns(_ b: ByteView) -> ImageDimensions? {
        guard b.ascii(0, 4) == "icns", let total = b.be32(4) else { return nil }
        let sides: [String: Int] = [
            "is32": 16, "icp4": 16, "ic04": 16, "il32": 32, "icp5": 32, "ic05": 32, "ic11": 32, "ih32": 48, "icp6": 64, "ic12": 64,
            "it32": 128, "ic07": 128, "ic13": 256, "ic08": 256, "ic14": 512, "ic09": 512, "ic10": 1024,
        ]
        var side = 0
        var at = 8
        for _ in 0..<64 {
            guard at + 8 <= min(total, b.count), let length = b.be32(at + 4), length >= 8 else { break }
            side = max(side, sides[b.ascii(at, 4)] ?? 0)
            at += length
        }
        return side > 0 ? ImageDimensions("ICNS", side, side) : nil
    }

    /// ZSoft PCX: no signature beyond a first byte of 0x0A, so every header field is checked.
    static func pcx(_ b: ByteView) -> ImageDimensions? {
        guard b.count >= 128, b.u8(0) == 0x0A, let version = b.u8(1), [0, 2, 3, 4, 5].contains(version), let encoding = b.u8(2),
            encoding <= 1, let bits = b.u8(3), [1, 2, 4, 8].contains(bits), b.u8(64) == 0, let planes = b.u8(65), (1...4).contains(planes),
            let x0 = b.le16(4), let y0 = b.le16(6), let x1 = b.le16(8), let y1 = b.le16(10), x1 >= x0, y1 >= y0
        else { return nil }
        return ImageDimensions("PCX", x1 - x0 + 1, y1 - y0 + 1)
    }
}

extension ByteView {
    /// The bytes of the NUL-terminated string at `i` (at most `max`, the NUL left out), or nil
    /// when no NUL comes within them.
    func cString(_ i: Int, max: Int) -> [UInt8]? {
        let s = slice(i, max + 1)
        guard let end = s.firstIndex(of: 0) else { return nil }
        return Array(s[..<end])
    }

    /// A signed little-endian 32-bit value.
    func le32s(_ i: Int) -> Int? { le32(i).map { Int(Int32(truncatingIfNeeded: $0)) } }
}
