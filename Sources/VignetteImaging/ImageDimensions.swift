/// The pixel size an image file's header declares, read from its first bytes without decoding.
///
/// Covers PNG, JPEG, GIF (the logical screen and the first frame), BMP, TIFF (the first IFD),
/// WebP (VP8, VP8L, VP8X), ICO/CUR (the largest entry, PNG entries by their own header), PSD,
/// PNM/PAM, HEIF (HEIC, AVIF: the largest `ispe`) and JPEG XL (the SizeHeader), the formats of `ImageDimensions+OtherFormats.swift` (QOI, PCX, SGI, Sun raster, PFM,
/// DDS, OpenEXR, JPEG 2000, ICNS) and, when the caller knows the file is one (TGA has no
/// signature), TGA. Every read is bounds-checked; a header that does not parse gives nil, never
/// a trap.
public struct ImageDimensions: Sendable, Equatable {
    /// The format's short name (`GIF`, `TIFF`…).
    public let format: String
    /// The widest the image (or any frame of it the header names) is, in pixels.
    public let width: Int
    /// The tallest, in pixels.
    public let height: Int

    /// How many bytes of a file `read` needs at most (TIFF may point further; see `tiffOffset`).
    public static let headerBytes = 64 << 10

    /// Dimensions from `bytes`, the start of a file; `isTGA` when the file's type says TGA.
    /// `at` reads `count` bytes at an offset beyond `bytes` (TIFF's first IFD), or nil.
    public init?(_ bytes: [UInt8], isTGA: Bool = false, at: (Int, Int) -> [UInt8]? = { _, _ in nil }) {
        let b = ByteView(bytes)
        if let d = Self.png(b) ?? Self.jpeg(b) ?? Self.gif(b) ?? Self.bmp(b) ?? Self.webp(b) ?? Self.psd(b) ?? Self.ico(b) ?? Self.pnm(b) {
            self = d
        } else if let d = Self.tiff(b, at: at) {
            self = d
        } else if let d = Self.heif(b, at: at) ?? Self.jpegXL(b) {
            self = d
        } else if let d = Self.other(b) {
            self = d
        } else if isTGA, let d = Self.tga(b) {
            self = d
        } else {
            return nil
        }
    }

    init(_ format: String, _ width: Int, _ height: Int) {
        self.format = format
        self.width = width
        self.height = height
    }

    static func png(_ b: ByteView) -> ImageDimensions? {
        guard b.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]), b.ascii(12, 4) == "IHDR",
            let w = b.be32(16), let h = b.be32(20)
        else { return nil }
        return ImageDimensions("PNG", w, h)
    }

    static func jpeg(_ b: ByteView) -> ImageDimensions? {
        guard b.starts(with: [0xFF, 0xD8, 0xFF]) else { return nil }
        var i = 2
        while let marker = b.u8(i + 1), b.u8(i) == 0xFF {
            if marker == 0xFF || marker == 0x01 || (0xD0...0xD7).contains(marker) {
                i += marker == 0xFF ? 1 : 2
                continue
            }
            guard let length = b.be16(i + 2), length >= 2 else { return nil }
            if (0xC0...0xCF).contains(marker), marker != 0xC4, marker != 0xC8, marker != 0xCC {
                guard let h = b.be16(i + 5), let w = b.be16(i + 7) else { return nil }
                return ImageDimensions("JPEG", w, h)
            }
            i += 2 + length
        }
        return nil
    }

    static func gif(_ b: ByteView) -> ImageDimensions? {
        guard b.ascii(0, 6) == "GIF87a" || b.ascii(0, 6) == "GIF89a", var w = b.le16(6), var h = b.le16(8), let flags = b.u8(10) else {
            return nil
        }
        var i = 13 + (flags & 0x80 != 0 ? 3 << (Int(flags & 7) + 1) : 0)
        // Up to the first image descriptor: its frame may reach beyond the logical screen.
        while let block = b.u8(i) {
            if block == 0x2C {
                if let left = b.le16(i + 1), let top = b.le16(i + 3), let fw = b.le16(i + 5), let fh = b.le16(i + 7) {
                    w = max(w, left + fw)
                    h = max(h, top + fh)
                }
                break
            }
            guard block == 0x21 else { break }
            i += 2
            while let size = b.u8(i), size > 0 { i += 1 + Int(size) }
            i += 1
        }
        return ImageDimensions("GIF", w, h)
    }

    static func bmp(_ b: ByteView) -> ImageDimensions? {
        guard b.ascii(0, 2) == "BM", let dib = b.le32(14) else { return nil }
        if dib == 12, let w = b.le16(18), let h = b.le16(20) { return ImageDimensions("BMP", w, h) }
        guard dib >= 40, let w = b.le32(18), let h = b.le32(22) else { return nil }
        // Both are signed; a negative height means rows top-down.
        return ImageDimensions("BMP", abs(Int(Int32(truncatingIfNeeded: w))), abs(Int(Int32(truncatingIfNeeded: h))))
    }

    static func webp(_ b: ByteView) -> ImageDimensions? {
        guard b.ascii(0, 4) == "RIFF", b.ascii(8, 4) == "WEBP" else { return nil }
        switch b.ascii(12, 4) {
        case "VP8 ":
            guard b.starts(with: [0x9D, 0x01, 0x2A], at: 23), let w = b.le16(26), let h = b.le16(28) else { return nil }
            return ImageDimensions("WebP", w & 0x3FFF, h & 0x3FFF)
        case "VP8L":
            guard b.u8(20) == 0x2F, let bits = b.le32(21) else { return nil }
            return ImageDimensions("WebP", (bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1)
        case "VP8X":
            guard let w = b.le24(24), let h = b.le24(27) else { return nil }
            return ImageDimensions("WebP", w + 1, h + 1)
        default:
            return nil
        }
    }

    static func psd(_ b: ByteView) -> ImageDimensions? {
        guard b.ascii(0, 4) == "8BPS", let version = b.be16(4), version == 1 || version == 2, let h = b.be32(14), let w = b.be32(18) else {
            return nil
        }
        return ImageDimensions("PSD", w, h)
    }

    static func ico(_ b: ByteView) -> ImageDimensions? {
        guard b.u8(0) == 0, b.u8(1) == 0, let kind = b.le16(2), kind == 1 || kind == 2, let count = b.le16(4), count > 0 else { return nil }
        var w = 0
        var h = 0
        for entry in 0..<min(count, 256) {
            let at = 6 + entry * 16
            guard let ew = b.u8(at), let eh = b.u8(at + 1) else { return nil }
            w = max(w, ew == 0 ? 256 : Int(ew))
            h = max(h, eh == 0 ? 256 : Int(eh))
            // A PNG inside says its own size, whatever the directory claims.
            if let offset = b.le32(at + 12), let inner = png(ByteView(b.slice(offset, 24))) {
                w = max(w, inner.width)
                h = max(h, inner.height)
            }
        }
        return ImageDimensions(kind == 1 ? "ICO" : "CUR", w, h)
    }

    static func pnm(_ b: ByteView) -> ImageDimensions? {
        guard b.u8(0) == UInt8(ascii: "P"), let digit = b.u8(1), (UInt8(ascii: "1")...UInt8(ascii: "7")).contains(digit) else { return nil }
        let text = String(decoding: b.slice(0, 4096), as: UTF8.self)
        let lines = text.split(whereSeparator: \.isNewline).map {
            $0.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? ""
        }
        if digit == UInt8(ascii: "7") {
            var w: Int? = nil
            var h: Int? = nil
            for line in lines {
                let words = line.split(whereSeparator: \.isWhitespace)
                if words.count == 2, words[0] == "WIDTH" { w = Int(words[1]) }
                if words.count == 2, words[0] == "HEIGHT" { h = Int(words[1]) }
                if words.first == "ENDHDR" { break }
            }
            guard let w, let h else { return nil }
            return ImageDimensions("PAM", w, h)
        }
        let tokens = lines.joined(separator: " ").split(whereSeparator: \.isWhitespace).dropFirst()
        guard tokens.count >= 2, let w = Int(tokens[tokens.startIndex]), let h = Int(tokens[tokens.startIndex + 1]), w >= 0, h >= 0 else {
            return nil
        }
        return ImageDimensions("PNM", w, h)
    }

    static func tiff(_ b: ByteView, at: (Int, Int) -> [UInt8]?) -> ImageDimensions? {
        let little: Bool
        if b.starts(with: [0x49, 0x49, 0x2A, 0x00]) {
            little = true
        } else if b.starts(with: [0x4D, 0x4D, 0x00, 0x2A]) {
            little = false
        } else {
            return nil
        }
        guard let offset = little ? b.le32(4) : b.be32(4) else { return nil }
        // The first IFD: a count, then 12-byte entries; at most 64 entries are read.
        let ifd = offset + 2 <= b.count ? ByteView(b.slice(offset, 2 + 64 * 12)) : at(offset, 2 + 64 * 12).map(ByteView.init)
        guard let ifd, let count = little ? ifd.le16(0) : ifd.be16(0) else { return nil }
        var w: Int? = nil
        var h: Int? = nil
        for entry in 0..<min(count, 64) {
            let e = 2 + entry * 12
            guard let tag = little ? ifd.le16(e) : ifd.be16(e), let type = little ? ifd.le16(e + 2) : ifd.be16(e + 2) else { break }
            guard tag == 256 || tag == 257 else { continue }
            let value = type == 3 ? (little ? ifd.le16(e + 8) : ifd.be16(e + 8)) : (little ? ifd.le32(e + 8) : ifd.be32(e + 8))
            if tag == 256 { w = value } else { h = value }
        }
        guard let w, let h else { return nil }
        return ImageDimensions("TIFF", w, h)
    }

    static func tga(_ b: ByteView) -> ImageDimensions? {
        guard b.count >= 18, let kind = b.u8(2), [1, 2, 3, 9, 10, 11].contains(kind), let w = b.le16(12), let h = b.le16(14) else {
            return nil
        }
        return ImageDimensions("TGA", w, h)
    }
}

/// Bounds-checked little- and big-endian reads over a byte array.
struct ByteView {
    let bytes: [UInt8]

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var count: Int { bytes.count }

    func u8(_ i: Int) -> UInt8? { i >= 0 && i < bytes.count ? bytes[i] : nil }

    func slice(_ i: Int, _ n: Int) -> [UInt8] {
        guard i >= 0, i < bytes.count, n > 0 else { return [] }
        return Array(bytes[i..<min(bytes.count, i + n)])
    }

    func starts(with prefix: [UInt8], at i: Int = 0) -> Bool { slice(i, prefix.count) == prefix }

    func ascii(_ i: Int, _ n: Int) -> String { String(decoding: slice(i, n), as: UTF8.self) }

    func le16(_ i: Int) -> Int? { read(i, 2, little: true) }
    func le24(_ i: Int) -> Int? { read(i, 3, little: true) }
    func le32(_ i: Int) -> Int? { read(i, 4, little: true) }
    func be16(_ i: Int) -> Int? { read(i, 2, little: false) }
    func be32(_ i: Int) -> Int? { read(i, 4, little: false) }

    private func read(_ i: Int, _ n: Int, little: Bool) -> Int? {
        let s = slice(i, n)
        guard s.count == n else { return nil }
        return (little ? s.reversed() : s).reduce(0) { $0 << 8 | Int($1) }
    }
}
