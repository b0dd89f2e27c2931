import VignetteCore

/// The main text of a Word 97–2003 document: the pieces the piece table (`Clx` in the table
/// stream) places in the `WordDocument` stream, up to the main document's length (`ccpText`),
/// split into paragraphs; field codes are left out and table cells become paragraphs.
enum LegacyWordReader {
    /// Most characters read.
    static let maxCharacters = 1 << 20

    /// The paragraphs, or nil when the file block or piece table cannot be read.
    static func paragraphs(_ file: CompoundFile, word: [UInt8]) throws -> [String]? {
        let w = word[...]
        guard w.count >= 0x1AA, CompoundFile.u16(w, 0) == 0xA5EC else { return nil }
        let table = CompoundFile.u16(w, 0x0A) & 0x0200 != 0 ? "1Table" : "0Table"
        let characters = min(Int(CompoundFile.u32(w, 0x4C)), maxCharacters)
        let clxOffset = Int(CompoundFile.u32(w, 0x1A2))
        let clxLength = Int(CompoundFile.u32(w, 0x1A6))
        guard let tableStream = try file.stream(table)?.bytes, clxOffset >= 0, clxLength > 0, clxOffset <= tableStream.count - clxLength
        else { return nil }
        let clx = tableStream[clxOffset..<(clxOffset + clxLength)]
        // Skip the property modifiers (Prc, 0x01) to the piece table (Pcdt, 0x02).
        var p = clx.startIndex
        while p < clx.endIndex, clx[p] == 0x01, p + 3 <= clx.endIndex {
            p += 3 + Int(CompoundFile.u16(clx, p + 1 - clx.startIndex))
        }
        guard p + 5 <= clx.endIndex, clx[p] == 0x02 else { return nil }
        let plc = clx[(p + 5)..<min(clx.endIndex, p + 5 + Int(CompoundFile.u32(clx, p + 1 - clx.startIndex)))]
        let pieces = (plc.count - 4) / 12
        guard pieces > 0 else { return nil }
        var text = String.UnicodeScalarView()
        for i in 0..<pieces where text.count < characters {
            let start = Int(CompoundFile.u32(plc, 4 * i))
            let end = Int(CompoundFile.u32(plc, 4 * (i + 1)))
            let raw = CompoundFile.u32(plc, 4 * (pieces + 1) + 8 * i + 2)
            let count = min(max(0, end - start), characters - text.count)
            if raw & 0x4000_0000 != 0 {
                // Compressed: one byte per character at half the offset (Windows-1252, ASCII here).
                let offset = Int(raw & 0x3FFF_FFFF) / 2
                guard offset >= 0, offset <= word.count - count else { return nil }
                for byte in word[offset..<(offset + count)] { text.append(Unicode.Scalar(byte)) }
            } else {
                let offset = Int(raw)
                guard offset >= 0, offset <= word.count - 2 * count else { return nil }
                let units = (0..<count).map { UInt16(word[offset + 2 * $0]) | UInt16(word[offset + 2 * $0 + 1]) << 8 }
                text.append(contentsOf: String(decoding: units, as: UTF16.self).unicodeScalars)
            }
        }
        return split(text)
    }

    /// `text` cut at paragraph, cell and row marks, without field codes and special characters.
    private static func split(_ text: String.UnicodeScalarView) -> [String] {
        var out: [String] = []
        var current = String.UnicodeScalarView()
        var inCode: [Bool] = []
        for scalar in text {
            switch scalar.value {
            case 0x0D, 0x07, 0x0C:
                let paragraph = OfficeDocument.flattened(String(current))
                if !paragraph.isEmpty { out.append(paragraph) }
                current = String.UnicodeScalarView()
            case 0x13: inCode.append(true)
            case 0x14: if !inCode.isEmpty { inCode[inCode.count - 1] = false }
            case 0x15: _ = inCode.popLast()
            case 0x0B, 0x09, 0x1E: if inCode.last != true { current.append(" ") }
            case 0..<0x20: break
            default: if inCode.last != true { current.append(scalar) }
            }
        }
        let last = OfficeDocument.flattened(String(current))
        if !last.isEmpty { out.append(last) }
        return out
    }
}
