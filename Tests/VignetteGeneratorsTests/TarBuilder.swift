/// Writes small tar archives in memory for tests (ustar headers, GNU long names).
enum TarBuilder {
    /// One 512-byte header block with a correct checksum.
    static func header(name: [UInt8], size: Int, type: UInt8 = UInt8(ascii: "0")) -> [UInt8] {
        var block = [UInt8](repeating: 0, count: 512)
        func put(_ bytes: [UInt8], at offset: Int, max: Int) {
            for (i, b) in bytes.prefix(max).enumerated() { block[offset + i] = b }
        }
        put(name, at: 0, max: 100)
        put(Array("0000644\0".utf8), at: 100, max: 8)
        put(Array((String(size, radix: 8).leftPadded(to: 11) + "\0").utf8), at: 124, max: 12)
        put(Array("00000000000\0".utf8), at: 136, max: 12)
        block[156] = type
        put(Array("ustar  \0".utf8), at: 257, max: 8)
        put(Array("        ".utf8), at: 148, max: 8)
        let sum = block.reduce(0) { $0 + Int($1) }
        put(Array((String(sum, radix: 8).leftPadded(to: 6) + "\0 ").utf8), at: 148, max: 8)
        return block
    }

    /// A file entry whose name may be long (a GNU `././@LongLink` block precedes it when needed).
    static func file(_ name: String, size: Int) -> [UInt8] {
        let bytes = Array(name.utf8)
        var out: [UInt8] = []
        if bytes.count > 100 {
            out += header(name: Array("././@LongLink".utf8), size: bytes.count + 1, type: UInt8(ascii: "L"))
            out += padded(bytes + [0])
        }
        out += header(name: bytes, size: size)
        out += padded([UInt8](repeating: 0x61, count: size))
        return out
    }

    /// `data` padded with zeros to a whole number of blocks.
    static func padded(_ data: [UInt8]) -> [UInt8] {
        data + [UInt8](repeating: 0, count: (512 - data.count % 512) % 512)
    }

    /// The end-of-archive marker.
    static let end = [UInt8](repeating: 0, count: 1024)
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        String(repeating: "0", count: max(0, width - count)) + self
    }
}
