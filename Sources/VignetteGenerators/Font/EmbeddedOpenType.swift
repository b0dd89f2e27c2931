import VignetteCore

/// The TrueType or OpenType font inside an Embedded OpenType (`.eot`) file, as the W3C's EOT
/// submission lays it out: a little-endian header (sizes, flags, magic `0x504C`, names) and the
/// font data at its end.
///
/// Plain and XOR-obfuscated data are unwrapped; MicroType Express compression is not (no
/// maintained library reads it), and says so.
enum EmbeddedOpenType {
    /// Header bytes before the first variable-length name.
    static let fixedHeader = 82
    /// Flags: the data is MicroType Express-compressed.
    static let compressed: UInt32 = 0x4
    /// Flags: the data is XOR-ed with 0x50.
    static let xorEncrypted: UInt32 = 0x1000_0000

    /// The font data of `bytes`, or a thrown `.corrupt`/`.unsupported` naming what is wrong.
    static func fontData(_ bytes: [UInt8]) throws -> [UInt8] {
        func le32(_ at: Int) -> UInt32 {
            UInt32(bytes[at]) | UInt32(bytes[at + 1]) << 8 | UInt32(bytes[at + 2]) << 16 | UInt32(bytes[at + 3]) << 24
        }
        guard bytes.count >= fixedHeader, bytes[34] == 0x4C, bytes[35] == 0x50 else {
            throw VignetteError(.corrupt, "damaged or unsupported font: not an Embedded OpenType file (no 0x504C magic)")
        }
        let total = Int(le32(0))
        let size = Int(le32(4))
        let flags = le32(12)
        guard total <= bytes.count, size > 0, size <= total - fixedHeader else {
            throw VignetteError(.corrupt, "damaged or unsupported font: the EOT header's sizes do not fit the file")
        }
        if flags & compressed != 0 {
            throw VignetteError(.unsupported, "the EOT font is MicroType Express-compressed, which Vignette cannot read")
        }
        var data = Array(bytes[(total - size)..<total])
        if flags & xorEncrypted != 0 {
            for i in data.indices { data[i] ^= 0x50 }
        }
        return data
    }
}
