import VignetteCore

/// One 512-byte tar header block and its fields (V7, ustar, GNU, star).
struct TarHeaderBlock {
    /// The block's bytes (exactly 512).
    let bytes: [UInt8]

    /// Wraps a block; nil unless it is 512 bytes long.
    init?(_ bytes: [UInt8]) {
        guard bytes.count == 512 else { return nil }
        self.bytes = bytes
    }

    /// Whether every byte is zero (the end-of-archive marker).
    var isZero: Bool { bytes.allSatisfy { $0 == 0 } }

    /// Whether the stored checksum matches the block (unsigned or, as old tars wrote, signed sums).
    var hasValidChecksum: Bool { TarHeader.checksumMatches(bytes) }

    /// The type flag (`0` file, `5` directory, `L` GNU long name, `x` pax header…).
    var typeFlag: UInt8 { bytes[156] }

    /// The data size; nil when the field is malformed or negative.
    var size: UInt64? { TarHeaderBlock.number(bytes[124..<136]) }

    /// The real size of a GNU sparse file (`S`), when set.
    var gnuSparseRealSize: UInt64? { TarHeaderBlock.number(bytes[483..<495]) }

    /// The path: ustar prefix + name, or the bare name (GNU and V7 headers have no prefix).
    var path: [UInt8] {
        let name = TarHeaderBlock.string(bytes[0..<100])
        let isPOSIX = bytes[257..<263].elementsEqual("ustar\0".utf8)
        guard isPOSIX else { return name }
        let prefix = TarHeaderBlock.string(bytes[345..<500])
        return prefix.isEmpty ? name : prefix + [UInt8(ascii: "/")] + name
    }

    /// The link target of a hard or symbolic link.
    var linkName: [UInt8] { TarHeaderBlock.string(bytes[157..<257]) }

    /// Bytes up to the first NUL.
    static func string(_ field: ArraySlice<UInt8>) -> [UInt8] {
        Array(field.prefix { $0 != 0 })
    }

    /// A numeric field: octal (space/NUL padded) or GNU base-256 (high bit set); nil when malformed.
    static func number(_ field: ArraySlice<UInt8>) -> UInt64? {
        guard let first = field.first else { return nil }
        if first & 0x80 != 0 {
            // Base-256, big-endian two's complement; a negative size is malformed.
            guard first & 0x40 == 0 else { return nil }
            var value = UInt64(first & 0x3F)
            for b in field.dropFirst() {
                guard value >> 56 == 0 else { return nil }
                value = value << 8 | UInt64(b)
            }
            return value
        }
        return TarHeader.octal(field, emptyIsZero: true)
    }
}
