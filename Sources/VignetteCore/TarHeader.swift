/// Recognises a tar archive by its first header's checksum (old V7 archives have no magic).
enum TarHeader {
    /// Whether the first 512 bytes are a tar header whose checksum adds up and whose name is set.
    static func isValid(_ sample: some ByteReader) -> Bool {
        guard let h = sample.bytes(at: 0, count: 512), let first = h.first, first != 0 else { return false }
        let base = h.startIndex
        // The stored checksum: octal digits, padded with NULs or spaces.
        var stored = 0
        var digits = 0
        for i in 148..<156 {
            let c = h[base + i]
            if c >= UInt8(ascii: "0") && c <= UInt8(ascii: "7") {
                stored = stored * 8 + Int(c - UInt8(ascii: "0"))
                digits += 1
            } else if c == 0 || c == 32 {
                if digits > 0 { break }
            } else {
                return false
            }
        }
        guard digits > 0 else { return false }
        var unsigned = 0
        for i in 0..<512 { unsigned += (148..<156).contains(i) ? 32 : Int(h[base + i]) }
        // The name field must look like a path: printable, NUL-terminated or full.
        let name = h[base..<(base + 100)].prefix { $0 != 0 }
        guard !name.isEmpty, name.allSatisfy({ $0 >= 0x20 && $0 != 0x7F }) else { return false }
        return stored == unsigned
    }
}
