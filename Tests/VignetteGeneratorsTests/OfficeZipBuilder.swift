@testable import VignetteGenerators

/// Writes zip archives of Office parts in memory, and the deflate stream of a zip bomb.
enum OfficeZipBuilder {
    /// One entry: its name, the bytes stored, the method (0 stored, 8 deflate), and for deflate
    /// the uncompressed size and CRC-32 declared.
    struct Entry {
        var name: String
        var data: [UInt8]
        var method = 0
        var declaredSize: Int? = nil
        var crc: UInt32? = nil
    }

    /// A stored entry holding `text` in UTF-8.
    static func stored(_ name: String, _ text: String) -> Entry {
        Entry(name: name, data: Array(text.utf8))
    }

    /// A zip of `entries`, in order.
    static func zip(_ entries: [Entry]) -> [UInt8] {
        var out: [UInt8] = []
        var central: [UInt8] = []
        func le16(_ v: Int, _ b: inout [UInt8]) { b += [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF)] }
        func le32(_ v: Int, _ b: inout [UInt8]) { le16(v & 0xFFFF, &b); le16(v >> 16 & 0xFFFF, &b) }
        for entry in entries {
            let name = Array(entry.name.utf8)
            let crc = Int(entry.crc ?? Decompressor.crc32(entry.data))
            let size = entry.declaredSize ?? entry.data.count
            let offset = out.count
            le32(0x0403_4B50, &out); le16(20, &out); le16(0, &out); le16(entry.method, &out); le32(0, &out)
            le32(crc, &out); le32(entry.data.count, &out); le32(size, &out); le16(name.count, &out); le16(0, &out)
            out += name
            out += entry.data
            le32(0x0201_4B50, &central); le16(20, &central); le16(20, &central); le16(0, &central); le16(entry.method, &central)
            le32(0, &central); le32(crc, &central); le32(entry.data.count, &central); le32(size, &central)
            le16(name.count, &central); le16(0, &central); le16(0, &central); le16(0, &central); le16(0, &central)
            le32(0, &central); le32(offset, &central)
            central += name
        }
        let cdOffset = out.count
        out += central
        le32(0x0605_4B50, &out); le16(0, &out); le16(0, &out); le16(entries.count, &out); le16(entries.count, &out)
        le32(central.count, &out); le32(cdOffset, &out); le16(0, &out)
        return out
    }

    /// A raw deflate stream of `chunks` × 1,056,511 zero bytes (1,016 chunks is 1.07 GB in about
    /// 6.8 MB): each chunk a fixed-Huffman block of one literal zero and 4,095 copies of 258
    /// bytes at distance 1, then an empty stored block so the chunk ends on a byte and can simply
    /// be repeated; a final empty block closes the stream.
    static func zeros(chunks: Int) -> (stream: [UInt8], size: Int) {
        var bits = BitWriter()
        bits.put(0b010, count: 3)  // not final, fixed Huffman
        bits.putCode(0x30, length: 8)  // literal 0
        for _ in 0..<4095 {
            bits.putCode(0b1100_0101, length: 8)  // length code 285: 258 bytes
            bits.putCode(0, length: 5)  // distance code 0: 1 byte back
        }
        bits.putCode(0, length: 7)  // end of block
        bits.put(0, count: 3)  // not final, stored
        bits.align()
        bits.bytes += [0x00, 0x00, 0xFF, 0xFF]  // LEN 0, NLEN
        var stream: [UInt8] = []
        stream.reserveCapacity(bits.bytes.count * chunks + 2)
        for _ in 0..<chunks { stream += bits.bytes }
        stream += [0x03, 0x00]  // final, fixed Huffman, end of block
        return (stream, chunks * (1 + 4095 * 258))
    }

    /// Bits packed least significant first, as deflate wants.
    private struct BitWriter {
        var bytes: [UInt8] = []
        private var current: UInt32 = 0
        private var used = 0

        mutating func put(_ value: UInt32, count: Int) {
            for i in 0..<count { bit(value >> UInt32(i) & 1) }
        }

        /// A Huffman code: its most significant bit first.
        mutating func putCode(_ code: UInt32, length: Int) {
            for i in stride(from: length - 1, through: 0, by: -1) { bit(code >> UInt32(i) & 1) }
        }

        mutating func align() {
            if used > 0 { bytes.append(UInt8(current)) }
            current = 0
            used = 0
        }

        private mutating func bit(_ b: UInt32) {
            current |= b << UInt32(used)
            used += 1
            if used == 8 { align() }
        }
    }
}
