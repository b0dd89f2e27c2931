/// The 20-byte header (BIH) that starts a JBIG1 file, which has no magic number.
enum JBIGHeader {
    /// Whether a file that ICO's or CUR's signature matched (`00 00 01 00`, `00 00 02 00`) is a
    /// JBIG header instead: an icon directory with no entries, and JBIG's fixed fields holding (the
    /// lowest layer first, one to 255 bit planes, a reserved zero, a width under 65,536 pixels, a
    /// height and lines a stripe, MX at most 127, MY zero, the unused order and option bits clear).
    /// A JBIG of one bit plane (fax) starts with the bytes of an ICO header, of two those of a CUR.
    static func isJBIGNotIcon(_ sample: some ByteReader) -> Bool {
        guard let bytes = sample.bytes(at: 0, count: 20) else { return false }
        let h = Array(bytes)
        let count = Int(h[4]) | Int(h[5]) << 8
        let height = h[8...11].reduce(0) { $0 << 8 | Int($1) }
        let stripe = h[12...15].reduce(0) { $0 << 8 | Int($1) }
        return count == 0 && h[0] == 0 && h[2] >= 1 && h[3] == 0 && (h[6] | h[7]) != 0 && height > 0 && stripe > 0
            && h[16] <= 127 && h[17] == 0 && h[18] & 0xF0 == 0 && h[19] & 0x80 == 0
    }
}
