/// The 512-byte tar header block's checksum, and recognising a tar archive by it (old V7 archives have no magic).
public enum TarHeader {
    /// The checksum field's bytes within a header block.
    static let checksumField = 148..<156

    /// Whether the first 512 bytes are a tar header whose checksum adds up and whose name is set.
    static func isValid(_ sample: some ByteReader) -> Bool {
        guard let h = sample.bytes(at: 0, count: 512), let first = h.first, first != 0 else { return false }
        // The name field must look like a path: printable, NUL-terminated or full.
        let name = h.prefix(100).prefix { $0 != 0 }
        guard !name.isEmpty, name.allSatisfy({ $0 >= 0x20 && $0 != 0x7F }) else { return false }
        return checksumMatches(Array(h))
    }

    /// Whether the stored checksum of a 512-byte `block` matches its bytes, summed unsigned
    /// or, as some old tars wrote it, signed (the checksum field counting as eight spaces).
    public static func checksumMatches(_ block: [UInt8]) -> Bool {
        guard block.count == 512, let stored = octal(block[checksumField]) else { return false }
        var unsigned = 0
        var signed = 0
        for (i, b) in block.enumerated() {
            let v = checksumField.contains(i) ? 32 : b
            unsigned += Int(v)
            signed += Int(Int8(bitPattern: v))
        }
        return stored == UInt64(unsigned) || (signed >= 0 && stored == UInt64(signed))
    }

    /// An octal numeric field, padded with NULs or spaces; nil when malformed or too large, and
    /// when it holds no digit unless `emptyIsZero` (size fields of some writers are blank).
    public static func octal(_ field: ArraySlice<UInt8>, emptyIsZero: Bool = false) -> UInt64? {
        var value: UInt64 = 0
        var digits = 0
        for b in field {
            if b >= UInt8(ascii: "0"), b <= UInt8(ascii: "7") {
                guard value >> 60 == 0 else { return nil }
                value = value * 8 + UInt64(b - UInt8(ascii: "0"))
                digits += 1
            } else if b == 0 || b == 32 {
                if digits > 0 { break }
            } else {
                return nil
            }
        }
        return digits > 0 || emptyIsZero ? value : nil
    }
}
