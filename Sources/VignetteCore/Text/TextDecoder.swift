/// Detects the encoding of a text's bytes and decodes them to a Swift string.
///
/// Detection never looks at file names: byte-order marks first, then UTF-32/UTF-16 by their
/// code units, 7-bit escapes (ISO-2022-JP/KR, HZ), strict UTF-8, and finally a plausibility
/// score for each legacy encoding (see `EncodingScorer`). Conversion uses glibc's iconv with
/// one converter per call, so every function here is thread-safe.
public enum TextDecoder {
    /// How many leading bytes detection looks at; more text only costs time.
    public static let detectionLimit = 64 * 1024

    /// Detects the encoding of `bytes` (a file's first N bytes or all of it; `complete` says
    /// which) and decodes them, normalising line ends to LF.
    ///
    /// `hint`, an explicit choice by the user, replaces detection. A multi-byte sequence cut
    /// by the end of an incomplete sample is dropped rather than shown as U+FFFD.
    public static func decode(_ bytes: ArraySlice<UInt8>, complete: Bool, hint: TextEncodingName? = nil) -> DecodedText {
        let encoding = hint ?? detect(bytes, complete: complete)
        let (utf8, invalid) = transcode(bytes, as: encoding, complete: complete)
        let (text, lineEnding) = normalizeLineEndings(utf8, complete: complete)
        return DecodedText(text: text, encoding: encoding, lineEnding: lineEnding, hadInvalidBytes: invalid > 0)
    }

    /// Decodes with a known encoding (invalid sequences become U+FFFD); line ends are kept.
    ///
    /// A byte-order mark of that encoding is dropped. An encoding iconv does not know decodes
    /// as UTF-8.
    public static func decode(_ bytes: ArraySlice<UInt8>, as encoding: TextEncodingName, complete: Bool = true) -> String {
        String(decoding: transcode(bytes, as: encoding, complete: complete).utf8, as: UTF8.self)
    }

    /// The encoding of `bytes` (a file's first N bytes or all of it; `complete` says which).
    public static func detect(_ bytes: ArraySlice<UInt8>, complete: Bool) -> TextEncodingName {
        if let bom = unicodeBOM(bytes) { return bom.encoding }
        let sample = bytes.prefix(detectionLimit)
        let sampleComplete = complete && sample.count == bytes.count
        if sample.contains(0) {
            if TextSniffer.plausibleUTF32(sample, littleEndian: true), sample.count >= 4 { return .utf32LE }
            if TextSniffer.plausibleUTF32(sample, littleEndian: false), sample.count >= 4 { return .utf32BE }
            if TextSniffer.plausibleUTF16(sample, littleEndian: true, strict: true) { return .utf16LE }
            if TextSniffer.plausibleUTF16(sample, littleEndian: false, strict: true) { return .utf16BE }
        }
        if !sample.contains(where: { $0 >= 0x80 }) { return sevenBitEncoding(sample, complete: sampleComplete) }
        if isValidUTF8(sample, complete: sampleComplete) { return .utf8 }
        return EncodingScorer.mostPlausible(sample, complete: sampleComplete)
    }

    /// The Unicode encoding a byte-order mark at the start of `bytes` declares, and its length.
    static func unicodeBOM(_ bytes: ArraySlice<UInt8>) -> (encoding: TextEncodingName, length: Int)? {
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { return (.utf8, 3) }
        if bytes.starts(with: [0xFF, 0xFE, 0x00, 0x00]) { return (.utf32LE, 4) }
        if bytes.starts(with: [0x00, 0x00, 0xFE, 0xFF]) { return (.utf32BE, 4) }
        if bytes.starts(with: [0xFF, 0xFE]) { return (.utf16LE, 2) }
        if bytes.starts(with: [0xFE, 0xFF]) { return (.utf16BE, 2) }
        return nil
    }

    /// ISO-2022-JP, ISO-2022-KR or HZ when their shift sequences are present, otherwise ASCII.
    static func sevenBitEncoding(_ bytes: ArraySlice<UInt8>, complete: Bool) -> TextEncodingName {
        if let escape = bytes.firstIndex(of: 0x1B) {
            let rest = bytes[escape...]
            let designations: [([UInt8], TextEncodingName)] = [
                (Array("\u{1B}$B".utf8), .iso2022JP), (Array("\u{1B}$@".utf8), .iso2022JP),
                (Array("\u{1B}$(D".utf8), .iso2022JP), (Array("\u{1B}$)C".utf8), .iso2022KR),
            ]
            for (sequence, encoding) in designations where rest.firstRange(of: sequence) != nil { return encoding }
        }
        return looksLikeHZ(bytes, complete: complete) ? .hzGB2312 : .ascii
    }

    /// Whether `bytes` are well-formed UTF-8, apart from a sequence cut by the end of an incomplete sample.
    static func isValidUTF8(_ bytes: ArraySlice<UInt8>, complete: Bool) -> Bool {
        var i = bytes.startIndex
        let end = bytes.endIndex
        while i < end {
            let c = bytes[i]
            if c < 0x80 { i += 1; continue }
            let length: Int
            var second: ClosedRange<UInt8> = 0x80...0xBF
            switch c {
            case 0xC2...0xDF: length = 2
            case 0xE0: length = 3; second = 0xA0...0xBF
            case 0xED: length = 3; second = 0x80...0x9F
            case 0xE1...0xEF: length = 3
            case 0xF0: length = 4; second = 0x90...0xBF
            case 0xF4: length = 4; second = 0x80...0x8F
            case 0xF1...0xF3: length = 4
            default: return false
            }
            for k in 1..<length {
                guard i + k < end else { return !complete }
                guard (k == 1 ? second : 0x80...0xBF).contains(bytes[i + k]) else { return false }
            }
            i += length
        }
        return true
    }

    /// The UTF-8 for `bytes` in `encoding` (a leading BOM of that encoding dropped) and the number of invalid sequences.
    static func transcode(_ bytes: ArraySlice<UInt8>, as encoding: TextEncodingName, complete: Bool) -> (utf8: [UInt8], invalid: Int) {
        var body = bytes
        if let bom = unicodeBOM(bytes), bom.encoding == encoding || bom.encoding == .utf8 && encoding == .ascii {
            body = bytes.dropFirst(bom.length)
        }
        if encoding == .hzGB2312 {
            let gb = hzToEUCCN(body, complete: complete)
            return IconvTranscoder.utf8(gb[...], from: "GB18030", complete: complete) ?? ([], 0)
        }
        if let result = IconvTranscoder.utf8(body, from: encoding.iconvName, unitSize: encoding.unitSize, complete: complete) {
            return result
        }
        return IconvTranscoder.utf8(body, from: "UTF-8", complete: complete) ?? ([], 0)
    }

    /// The text with CR LF and lone CR turned into LF, and how the lines ended.
    ///
    /// CR and LF bytes never occur inside a UTF-8 multi-byte sequence, so this works on the bytes.
    /// A CR at the very end of an incomplete sample may be half of a CR LF, so it is not counted.
    static func normalizeLineEndings(_ utf8: [UInt8], complete: Bool) -> (String, DecodedText.LineEnding) {
        guard utf8.contains(0x0D) else {
            return (String(decoding: utf8, as: UTF8.self), utf8.contains(0x0A) ? .lf : .none)
        }
        var out: [UInt8] = []
        out.reserveCapacity(utf8.count)
        var lf = 0, crlf = 0, cr = 0
        var i = 0
        while i < utf8.count {
            let c = utf8[i]
            if c == 0x0D {
                out.append(0x0A)
                if i + 1 < utf8.count, utf8[i + 1] == 0x0A {
                    crlf += 1
                    i += 2
                    continue
                }
                if i + 1 < utf8.count || complete { cr += 1 }
            } else {
                if c == 0x0A { lf += 1 }
                out.append(c)
            }
            i += 1
        }
        let kinds = (lf > 0 ? 1 : 0) + (crlf > 0 ? 1 : 0) + (cr > 0 ? 1 : 0)
        let ending: DecodedText.LineEnding =
            kinds > 1 ? .mixed : crlf > 0 ? .crlf : cr > 0 ? .cr : lf > 0 ? .lf : .none
        return (String(decoding: out, as: UTF8.self), ending)
    }
}
