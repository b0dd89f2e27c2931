import VignetteCore

/// The RTF body of an Outlook message (`PR_RTF_COMPRESSED`), decompressed as MS-OXRTFCP says:
/// a 16-byte header (sizes, `LZFu` or `MELA`, CRC), then LZ77 runs against a 4,096-byte
/// dictionary that starts with a fixed RTF prologue.
///
/// Hostile sizes cost nothing: the output stops at the header's raw size or `limit`, whichever
/// is smaller, and at the end of the input; the CRC is not needed to stay in bounds and is not
/// checked (a damaged body shows what it still says).
package enum CompressedRTF {
    /// The dictionary's first bytes, as the specification fixes them.
    static let prologue = Array(
        ("{\\rtf1\\ansi\\mac\\deff0\\deftab720{\\fonttbl;}{\\f0\\fnil \\froman \\fswiss \\fmodern \\fscript "
            + "\\fdecor MS Sans SerifSymbolArialTimes New RomanCourier{\\colortbl\\red0\\green0\\blue0\r\n\\par "
            + "\\pard\\plain\\f0\\fs20\\b\\i\\u\\tab\\tx").utf8)

    /// The RTF in `bytes`, at most `limit` bytes of it; throws `.unsupported` naming what the
    /// header says when it is neither compressed (`LZFu`) nor stored (`MELA`).
    package static func decompress(_ bytes: ArraySlice<UInt8>, limit: Int) throws -> [UInt8] {
        guard bytes.count >= 16 else {
            throw VignetteError(.unsupported, "the compressed RTF body is \(bytes.count) bytes, shorter than its 16-byte header")
        }
        let base = bytes.startIndex
        let rawSize = Int(CompoundFile.u32(bytes, 4))
        let kind = CompoundFile.u32(bytes, 8)
        let wanted = min(rawSize, limit)
        let data = bytes[(base + 16)...]
        switch kind {
        case 0x414C_454D:  // "MELA": stored as it is.
            return Array(data.prefix(wanted))
        case 0x7546_5A4C:  // "LZFu"
            break
        default:
            throw VignetteError(.unsupported, "the RTF body's compression is 0x\(String(kind, radix: 16)), neither LZFu nor MELA")
        }
        var dictionary = [UInt8](repeating: 0, count: 4096)
        dictionary.replaceSubrange(0..<prologue.count, with: prologue)
        var write = prologue.count
        var out: [UInt8] = []
        out.reserveCapacity(min(wanted, 1 << 20))
        var i = data.startIndex
        while i < data.endIndex, out.count < wanted {
            let control = data[i]
            i += 1
            for bit in 0..<8 where out.count < wanted {
                guard i < data.endIndex else { return out }
                if control & (1 << bit) == 0 {
                    out.append(data[i])
                    dictionary[write] = data[i]
                    write = (write + 1) & 0xFFF
                    i += 1
                    continue
                }
                guard i + 1 < data.endIndex else { return out }
                let token = Int(data[i]) << 8 | Int(data[i + 1])
                i += 2
                let offset = token >> 4
                // A reference to the write position itself marks the end.
                if offset == write { return out }
                for k in 0..<min((token & 0xF) + 2, wanted - out.count) {
                    let byte = dictionary[(offset + k) & 0xFFF]
                    out.append(byte)
                    dictionary[write] = byte
                    write = (write + 1) & 0xFFF
                }
            }
        }
        return out
    }
}
