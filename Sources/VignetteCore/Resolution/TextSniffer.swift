/// Tells text from binary and guesses a text's encoding family from its first bytes.
///
/// It looks for byte-order marks (UTF-8/16/32), validates UTF-8, recognises UTF-16 without a
/// BOM by its code units, and accepts legacy 8-bit and CJK multi-byte text (Latin-1, CP125x,
/// Shift-JIS, EUC, Big5, GB18030, ISO-2022) as long as control bytes are rare and there are no NULs.
public enum TextSniffer {
    /// The encoding family of a text sample.
    public enum Encoding: String, Sendable, Equatable {
        /// Only bytes below 0x80.
        case ascii
        /// Valid UTF-8 (with or without a BOM).
        case utf8
        /// UTF-16 little-endian.
        case utf16LE
        /// UTF-16 big-endian.
        case utf16BE
        /// UTF-32 little-endian.
        case utf32LE
        /// UTF-32 big-endian.
        case utf32BE
        /// An 8-bit or multi-byte legacy encoding (not valid UTF-8).
        case legacy

        /// A short name for people ("UTF-16LE").
        public var displayName: String {
            switch self {
            case .ascii: "ASCII"
            case .utf8: "UTF-8"
            case .utf16LE: "UTF-16LE"
            case .utf16BE: "UTF-16BE"
            case .utf32LE: "UTF-32LE"
            case .utf32BE: "UTF-32BE"
            case .legacy: "8-bit"
            }
        }
    }

    /// The result for a text sample.
    public struct Result: Sendable, Equatable {
        /// The encoding family.
        public let encoding: Encoding
        /// Length of the byte-order mark at the start (0 when none).
        public let bomLength: Int
    }

    /// Classifies `bytes` (a file's head); `complete` says whether they are the whole file.
    /// Returns nil for binary data.
    public static func classify(_ bytes: ArraySlice<UInt8>, complete: Bool) -> Result? {
        let b = Array(bytes)
        if b.starts(with: [0xEF, 0xBB, 0xBF]) {
            return plausibleUTF8(b[3...], complete: complete) ? Result(encoding: .utf8, bomLength: 3) : nil
        }
        if b.starts(with: [0xFF, 0xFE, 0x00, 0x00]) {
            return plausibleUTF32(b[4...], littleEndian: true) ? Result(encoding: .utf32LE, bomLength: 4) : nil
        }
        if b.starts(with: [0x00, 0x00, 0xFE, 0xFF]) {
            return plausibleUTF32(b[4...], littleEndian: false) ? Result(encoding: .utf32BE, bomLength: 4) : nil
        }
        if b.starts(with: [0xFF, 0xFE]) {
            return plausibleUTF16(b[2...], littleEndian: true, strict: false) ? Result(encoding: .utf16LE, bomLength: 2) : nil
        }
        if b.starts(with: [0xFE, 0xFF]) {
            return plausibleUTF16(b[2...], littleEndian: false, strict: false) ? Result(encoding: .utf16BE, bomLength: 2) : nil
        }
        if b.contains(0) {
            if plausibleUTF16(b[...], littleEndian: true, strict: true) { return Result(encoding: .utf16LE, bomLength: 0) }
            if plausibleUTF16(b[...], littleEndian: false, strict: true) { return Result(encoding: .utf16BE, bomLength: 0) }
            return nil
        }
        guard fewControls(b) else { return nil }
        if b.allSatisfy({ $0 < 0x80 }) { return Result(encoding: .ascii, bomLength: 0) }
        if plausibleUTF8(b[...], complete: complete) { return Result(encoding: .utf8, bomLength: 0) }
        return Result(encoding: .legacy, bomLength: 0)
    }

    /// Control bytes that do not occur in text (TAB, LF, VT, FF, CR, ESC and BS are allowed: ESC
    /// drives ISO-2022 and terminal colours, BS man-page overstrike).
    @inline(__always)
    static func isBinaryControl(_ c: UInt8) -> Bool {
        switch c {
        case 0x00...0x07, 0x0E...0x1A, 0x1C...0x1F, 0x7F: true
        default: false
        }
    }

    /// At most 1 % binary control bytes (and never more than a handful in a tiny sample).
    ///
    /// After an ISO-2022 designation of a G1 set (`ESC $ ) C` for Korean, `ESC $ ) A`/`G` for
    /// Chinese), SO and SI are the encoding's own shift bytes, not binary.
    static func fewControls(_ b: [UInt8]) -> Bool {
        let shifts = designatesG1(b)
        var controls = 0
        for c in b where isBinaryControl(c) && !(shifts && (c == 0x0E || c == 0x0F)) { controls += 1 }
        return controls == 0 || controls * 100 <= b.count && controls <= max(2, b.count / 100)
    }

    /// Whether an ISO-2022 `ESC $ )` designation of a multi-byte G1 set appears in the sample.
    static func designatesG1(_ b: [UInt8]) -> Bool {
        var i = 0
        while i + 3 < b.count {
            if b[i] == 0x1B, b[i + 1] == 0x24, b[i + 2] == 0x29, [0x41, 0x43, 0x47, 0x48].contains(b[i + 3]) { return true }
            i += 1
        }
        return false
    }

    /// Valid UTF-8 apart from a sequence cut at the end of an incomplete sample, with few controls.
    static func plausibleUTF8(_ b: ArraySlice<UInt8>, complete: Bool) -> Bool {
        var i = b.startIndex
        let end = b.endIndex
        while i < end {
            let c = b[i]
            if c < 0x80 { i += 1; continue }
            let need: Int
            switch c {
            case 0xC2...0xDF: need = 1
            case 0xE0...0xEF: need = 2
            case 0xF0...0xF4: need = 3
            default: return false
            }
            if i + need >= end {
                // The sequence runs past the sample: fine only when the sample was cut there.
                guard !complete, (i + 1..<end).allSatisfy({ b[$0] & 0xC0 == 0x80 }) else { return false }
                break
            }
            for k in 1...need where b[i + k] & 0xC0 != 0x80 { return false }
            i += need + 1
        }
        return fewControls(Array(b))
    }

    /// Whether the bytes read as UTF-16 text: valid surrogates, and nearly all code units in
    /// scripts people write. `strict` (no BOM) also demands a few ASCII-range units and no NUL units.
    static func plausibleUTF16(_ b: ArraySlice<UInt8>, littleEndian: Bool, strict: Bool) -> Bool {
        let count = b.count / 2
        guard count > 0 else { return !strict }
        var plausible = 0
        var ascii = 0
        // Units whose two bytes are both printable ASCII: nearly all of them when 8-bit text
        // is misread as UTF-16 ("he" → U+6568), about a third in real CJK text.
        var printablePairs = 0
        var pendingHigh = false
        var i = b.startIndex
        for _ in 0..<count {
            let u = littleEndian ? UInt16(b[i]) | UInt16(b[i + 1]) << 8 : UInt16(b[i]) << 8 | UInt16(b[i + 1])
            i += 2
            if u >= 0x100, (0x20...0x7E).contains(u >> 8), (0x20...0x7E).contains(u & 0xFF) { printablePairs += 1 }
            if pendingHigh {
                guard (0xDC00...0xDFFF).contains(u) else { return false }
                pendingHigh = false
                plausible += 1
                continue
            }
            switch u {
            case 0xD800...0xDBFF: pendingHigh = true
            case 0xDC00...0xDFFF: return false
            case 0x0009, 0x000A, 0x000D, 0x000C, 0x001B: plausible += 1; ascii += 1
            case 0x0020...0x007E: plausible += 1; ascii += 1
            case 0x00A0...0x052F, 0x0590...0x06FF, 0x0900...0x0DFF, 0x0E00...0x0EFF, 0x1E00...0x1FFF,
                0x2000...0x2BFF, 0x3000...0x30FF, 0x3100...0x9FFF, 0xAC00...0xD7AF, 0xF900...0xFAFF,
                0xFE30...0xFE4F, 0xFF00...0xFFEF:
                plausible += 1
            case 0xFEFF: plausible += 1
            default: break
            }
        }
        let ratio = Double(plausible) / Double(count)
        if strict {
            let nonASCII = count - ascii
            return ratio >= 0.97 && ascii * 20 >= count && (nonASCII == 0 || printablePairs * 4 < nonASCII * 3)
        }
        return ratio >= 0.9
    }

    /// Whether the bytes read as UTF-32 text.
    static func plausibleUTF32(_ b: ArraySlice<UInt8>, littleEndian: Bool) -> Bool {
        let count = b.count / 4
        guard count > 0 else { return true }
        var ok = 0
        var i = b.startIndex
        for _ in 0..<count {
            let v: UInt32 =
                littleEndian
                ? UInt32(b[i]) | UInt32(b[i + 1]) << 8 | UInt32(b[i + 2]) << 16 | UInt32(b[i + 3]) << 24
                : UInt32(b[i]) << 24 | UInt32(b[i + 1]) << 16 | UInt32(b[i + 2]) << 8 | UInt32(b[i + 3])
            i += 4
            if v <= 0x10FFFF, !(0xD800...0xDFFF).contains(v), v >= 0x20 || v == 9 || v == 10 || v == 13 { ok += 1 }
        }
        return Double(ok) / Double(count) >= 0.95
    }

    /// Decodes a text sample to a Swift string for content rules (legacy text as Latin-1; bad sequences replaced).
    public static func decode(_ bytes: ArraySlice<UInt8>, as result: Result) -> String {
        let body = bytes.dropFirst(result.bomLength)
        switch result.encoding {
        case .ascii, .utf8:
            return String(decoding: body, as: UTF8.self)
        case .legacy:
            return String(String.UnicodeScalarView(body.map { Unicode.Scalar($0) }))
        case .utf16LE, .utf16BE:
            var units: [UInt16] = []
            units.reserveCapacity(body.count / 2)
            var i = body.startIndex
            while i + 1 < body.endIndex {
                let u =
                    result.encoding == .utf16LE
                    ? UInt16(body[i]) | UInt16(body[i + 1]) << 8 : UInt16(body[i]) << 8 | UInt16(body[i + 1])
                units.append(u)
                i += 2
            }
            return String(decoding: units, as: UTF16.self)
        case .utf32LE, .utf32BE:
            var scalars = String.UnicodeScalarView()
            var i = body.startIndex
            while i + 3 < body.endIndex {
                let v: UInt32 =
                    result.encoding == .utf32LE
                    ? UInt32(body[i]) | UInt32(body[i + 1]) << 8 | UInt32(body[i + 2]) << 16 | UInt32(body[i + 3]) << 24
                    : UInt32(body[i]) << 24 | UInt32(body[i + 1]) << 16 | UInt32(body[i + 2]) << 8 | UInt32(body[i + 3])
                scalars.append(Unicode.Scalar(v) ?? "\u{FFFD}")
                i += 4
            }
            return String(scalars)
        }
    }
}
