/// Reads just enough of an ELF file's header and dynamic section to tell a position-independent
/// executable from a shared library (both are `ET_DYN`).
enum ELFHeader {
    /// `PT_DYNAMIC`: the program header of the dynamic section.
    static let dynamicSegment = 2
    /// `DT_FLAGS_1`, and its `DF_1_PIE` bit, which linkers set on position-independent executables.
    static let flags1Tag = 0x6FFF_FFFB
    static let pieFlag = 0x0800_0000

    /// Whether the dynamic section's `DT_FLAGS_1` has `DF_1_PIE` (as libmagic decides; libc.so.6
    /// has an interpreter too, so `PT_INTERP` alone would call it an executable). False for
    /// anything malformed; every offset and count is bounded before it is read.
    static func isPositionIndependentExecutable(_ sample: some ByteReader) -> Bool {
        guard let ident = sample.bytes(at: 0, count: 64), ident.count == 64 else { return false }
        let h = Array(ident)
        guard h[0] == 0x7F, h[1] == 0x45, h[2] == 0x4C, h[3] == 0x46 else { return false }
        let is64 = h[4] == 2
        guard h[4] == 1 || is64, h[5] == 1 || h[5] == 2 else { return false }
        let little = h[5] == 1
        func number(_ bytes: ArraySlice<UInt8>) -> Int {
            let ordered = little ? Array(bytes.reversed()) : Array(bytes)
            return ordered.prefix(8).reduce(0) { $0 << 8 | Int($1) }
        }
        let offset = is64 ? number(h[0x20..<0x28]) : number(h[0x1C..<0x20])
        let entrySize = is64 ? number(h[0x36..<0x38]) : number(h[0x2A..<0x2C])
        let count = is64 ? number(h[0x38..<0x3A]) : number(h[0x2C..<0x2E])
        guard offset > 0, offset < 1 << 20, (is64 ? 56 : 32)...256 ~= entrySize, (1...512).contains(count),
            let table = sample.bytes(at: offset, count: entrySize * count)
        else { return false }
        let t = Array(table)
        for i in 0..<count {
            let e = i * entrySize
            guard number(t[e..<(e + 4)]) == dynamicSegment else { continue }
            let start = is64 ? number(t[(e + 8)..<(e + 16)]) : number(t[(e + 4)..<(e + 8)])
            let size = is64 ? number(t[(e + 32)..<(e + 40)]) : number(t[(e + 16)..<(e + 20)])
            let word = is64 ? 8 : 4
            // A dynamic section holds a few dozen entries; read at most 64 KiB of it (it may sit
            // past the first MiB of a large executable: the read is bounded, not the offset).
            let length = min(size, 64 << 10) / (2 * word) * (2 * word)
            guard start > 0, start < Int(Int32.max), length > 0, let dynamic = sample.bytes(at: start, count: length) else { return false }
            let d = Array(dynamic)
            var k = 0
            while k + 2 * word <= d.count {
                let tag = number(d[k..<(k + word)])
                if tag == 0 { break }
                if tag == flags1Tag { return number(d[(k + word)..<(k + 2 * word)]) & pieFlag != 0 }
                k += 2 * word
            }
            return false
        }
        return false
    }
}
