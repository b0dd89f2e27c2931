/// Header sizes of HEIF (HEIC, AVIF) and JPEG XL, read without libheif or libjxl, so that the
/// pixel cap in front of external generators applies to them as to every other format.
extension ImageDimensions {
    /// The brands of `ftyp` that make a file HEIF: still images and sequences, HEVC and AV1.
    static let heifBrands: Set<String> = ["heic", "heix", "heim", "heis", "hevc", "hevx", "mif1", "msf1", "avif", "avis"]

    /// HEIF: the largest `ispe` (image spatial extents) property in `meta` → `iprp` → `ipco`, which
    /// every item has, a grid's primary item included. `at` reads a `meta` box that is not in
    /// `b` (after a large `mdat`).
    static func heif(_ b: ByteView, at: (Int, Int) -> [UInt8]?) -> ImageDimensions? {
        guard b.ascii(4, 4) == "ftyp", let ftypSize = b.be32(0), ftypSize >= 16 else { return nil }
        let brands = [b.ascii(8, 4)] + stride(from: 16, to: min(ftypSize, 256), by: 4).map { b.ascii($0, 4) }
        guard brands.contains(where: heifBrands.contains) else { return nil }
        // The top-level boxes, read 16 bytes at a time where `b` ends; `meta` is usually second.
        var offset = 0
        for _ in 0..<32 {
            let header = offset + 16 <= b.count ? b.slice(offset, 16) : at(offset, 16) ?? b.slice(offset, 16)
            let head = ByteView(header)
            guard let size32 = head.be32(0) else { return nil }
            let type = head.ascii(4, 4)
            let size = size32 == 1 ? head.be64(8) : size32
            guard let size, size >= 8 || size32 == 0 else { return nil }
            if type == "meta" {
                let length = size32 == 0 ? metaLimit : min(size, metaLimit)
                let meta = offset + length <= b.count ? ByteView(b.slice(offset, length)) : at(offset, length).map(ByteView.init)
                guard let meta else { return nil }
                return largestExtent(in: meta)
            }
            guard size32 != 0 else { return nil }
            let (next, overflow) = offset.addingReportingOverflow(size)
            guard !overflow else { return nil }
            offset = next
        }
        return nil
    }

    /// The most of a `meta` box read: its properties come before any sizeable item data.
    static let metaLimit = 64 << 10

    /// The largest `ispe` in a `meta` box (`view` starts at its header).
    private static func largestExtent(in view: ByteView) -> ImageDimensions? {
        // meta is a full box: 8 bytes of header, then 4 of version and flags.
        guard let iprp = child("iprp", of: view, from: 12, to: view.count),
            let ipco = child("ipco", of: view, from: iprp.start, to: iprp.end)
        else { return nil }
        var best: (Int, Int)? = nil
        var offset = ipco.start
        for _ in 0..<256 {
            guard offset + 8 <= ipco.end, let size = view.be32(offset), size >= 8 else { break }
            // Areas as Double: two 32-bit sides overflow an Int when multiplied.
            if view.ascii(offset + 4, 4) == "ispe", size >= 20, let w = view.be32(offset + 12), let h = view.be32(offset + 16),
                Double(w) * Double(h) > (best.map { Double($0.0) * Double($0.1) } ?? -1)
            {
                best = (w, h)
            }
            offset += size
        }
        return best.map { ImageDimensions("HEIF", $0.0, $0.1) }
    }

    /// The content range of the first `type` box among the boxes from `start` to `end`.
    private static func child(_ type: String, of view: ByteView, from start: Int, to end: Int) -> (start: Int, end: Int)? {
        var offset = start
        for _ in 0..<64 {
            guard offset + 8 <= end, let size = view.be32(offset), size >= 8, offset + size <= end else { return nil }
            if view.ascii(offset + 4, 4) == type { return (offset + 8, offset + size) }
            offset += size
        }
        return nil
    }

    /// JPEG XL: the codestream's SizeHeader, bare (`FF 0A`) or in the container's first `jxlc` or
    /// `jxlp` box.
    static func jpegXL(_ b: ByteView) -> ImageDimensions? {
        if b.starts(with: [0xFF, 0x0A]) { return sizeHeader(b, at: 2) }
        guard b.starts(with: [0, 0, 0, 0x0C, 0x4A, 0x58, 0x4C, 0x20, 0x0D, 0x0A, 0x87, 0x0A]) else { return nil }
        var offset = 12
        for _ in 0..<32 {
            guard let size = b.be32(offset) else { return nil }
            // A 64-bit size (size 1) follows the type; libjxl before 0.8 wrote it before the type,
            // and Debian's 0.7 reads such files: both places are looked at.
            let layouts =
                size == 1
                ? [(type: offset + 4, content: offset + 16), (type: offset + 12, content: offset + 16)]
                : [(type: offset + 4, content: offset + 8)]
            for layout in layouts {
                let type = b.ascii(layout.type, 4)
                if type == "jxlc", b.starts(with: [0xFF, 0x0A], at: layout.content) { return sizeHeader(b, at: layout.content + 2) }
                // A partial codestream box starts with its 4-byte index.
                if type == "jxlp", b.starts(with: [0xFF, 0x0A], at: layout.content + 4) { return sizeHeader(b, at: layout.content + 6) }
            }
            let length = size == 1 ? b.be64(offset + 8) : size
            guard let length, length >= 8 else { return nil }
            let (next, overflow) = offset.addingReportingOverflow(length)
            guard !overflow else { return nil }
            offset = next
        }
        return nil
    }

    /// The width and height of the SizeHeader at `offset` (ISO/IEC 18181-1, bits read LSB first).
    private static func sizeHeader(_ b: ByteView, at offset: Int) -> ImageDimensions? {
        var bits = BitReader(b, at: offset)
        // U32(Bits(9) + 1, Bits(13) + 1, Bits(18) + 1, Bits(30) + 1)
        func large() -> Int? { bits.read(2).flatMap { bits.read([9, 13, 18, 30][$0]) }.map { $0 + 1 } }
        guard let small = bits.read(1) else { return nil }
        guard let height = small == 1 ? bits.read(5).map({ ($0 + 1) * 8 }) : large(), let ratio = bits.read(3) else { return nil }
        let ratios = [(1, 1), (12, 10), (4, 3), (3, 2), (16, 9), (5, 4), (2, 1)]
        let width =
            ratio == 0 ? (small == 1 ? bits.read(5).map { ($0 + 1) * 8 } : large()) : height * ratios[ratio - 1].0 / ratios[ratio - 1].1
        return width.map { ImageDimensions("JPEG XL", $0, height) }
    }
}

/// Reads bits least significant first, as JPEG XL's headers are written.
private struct BitReader {
    let view: ByteView
    var position: Int

    init(_ view: ByteView, at byte: Int) {
        self.view = view
        position = byte * 8
    }

    /// The next `count` bits (at most 30) as a number, or nil past the end.
    mutating func read(_ count: Int) -> Int? {
        var value = 0
        for i in 0..<count {
            guard let byte = view.u8(position >> 3) else { return nil }
            value |= Int(byte >> UInt8(position & 7) & 1) << i
            position += 1
        }
        return value
    }
}

extension ByteView {
    /// A big-endian 64-bit value, or nil when it does not fit in an `Int`.
    func be64(_ i: Int) -> Int? {
        guard let high = be32(i), let low = be32(i + 4), high < 0x8000_0000 else { return nil }
        return high << 32 | low
    }
}
