/// Picks the most plausible legacy encoding for 8-bit text that is not valid UTF-8.
///
/// Every candidate decodes the sample and earns points per non-ASCII byte for what the result
/// looks like: invalid sequences cost most, then characters the language would not use;
/// characters typical of its language earn. The score is normalised per byte the candidate
/// decodes as part of a non-ASCII character, so a perfect multi-byte decoding (2 points per 2-byte
/// character) and a perfect single-byte one (1 point per letter) both score about 1, and Latin
/// text misread as a CJK encoding (one accented letter and the ASCII letter after it becoming one
/// ideograph) pays for both bytes.
enum EncodingScorer {
    /// What a candidate is judged on.
    enum Model: Sendable {
        /// UTF-8 with a few invalid bytes.
        case utf8
        /// A CJK multi-byte encoding.
        case cjk(CJKLanguage)
        /// A single-byte code page.
        case singleByte(SingleByteModel)
    }

    /// The language a CJK candidate's text should be in.
    enum CJKLanguage: Sendable {
        case japanese, simplifiedChinese, traditionalChinese, korean
    }

    /// A candidate encoding and how to judge its decoding.
    struct Candidate: Sendable {
        let encoding: TextEncodingName
        let model: Model
    }

    /// The candidates, in order of preference when scores tie.
    static let candidates: [Candidate] = [
        Candidate(encoding: .utf8, model: .utf8),
        Candidate(encoding: .windows1252, model: .singleByte(.windows1252)),
        Candidate(encoding: .gb18030, model: .cjk(.simplifiedChinese)),
        Candidate(encoding: .big5, model: .cjk(.traditionalChinese)),
        Candidate(encoding: .shiftJIS, model: .cjk(.japanese)),
        Candidate(encoding: .eucJP, model: .cjk(.japanese)),
        Candidate(encoding: .cp949, model: .cjk(.korean)),
        Candidate(encoding: .windows1250, model: .singleByte(.windows1250)),
        Candidate(encoding: .windows1251, model: .singleByte(.windows1251)),
        Candidate(encoding: .windows1254, model: .singleByte(.windows1254)),
        Candidate(encoding: .windows1253, model: .singleByte(.windows1253)),
        Candidate(encoding: .koi8R, model: .singleByte(.koi8R)),
        Candidate(encoding: .ibm866, model: .singleByte(.ibm866)),
        Candidate(encoding: .ibm737, model: .singleByte(.ibm737)),
    ]

    /// Points an invalid sequence costs: it outweighs several good characters, yet a long text
    /// with a few damaged bytes still wins in its own encoding.
    static let invalidPenalty = 10.0

    /// How many non-ASCII bytes are enough to judge by; a longer sample only costs time.
    static let enoughHighBytes = 4096

    /// The best-scoring candidate for `sample` (which holds at least one byte ≥ 0x80).
    static func mostPlausible(_ sample: ArraySlice<UInt8>, complete: Bool) -> TextEncodingName {
        var end = sample.startIndex
        var high = 0
        while end < sample.endIndex, high < enoughHighBytes {
            if sample[end] >= 0x80 { high += 1 }
            end += 1
        }
        let judged = sample[..<end]
        let scores = scoreAll(judged, complete: complete && end == sample.endIndex)
        var best = scores[0]
        for entry in scores.dropFirst() where entry.score > best.score { best = entry }
        return refinedName(best.encoding, judged)
    }

    /// Every candidate with its score, in candidate order (exposed for tests and tuning).
    static func scoreAll(_ sample: ArraySlice<UInt8>, complete: Bool) -> [(encoding: TextEncodingName, score: Double)] {
        let highBytes = sample.reduce(0) { $0 + ($1 >= 0x80 ? 1 : 0) }
        guard highBytes > 0 else { return [(.ascii, 1)] }
        return candidates.map { candidate in
            let points: Double
            var bytes = highBytes
            switch candidate.model {
            case .utf8: points = utf8Points(sample, complete: complete)
            case .cjk(let language): (points, bytes) = cjkPoints(sample, candidate.encoding, language, complete: complete)
            case .singleByte(let model): points = model.points(sample)
            }
            return (candidate.encoding, points / Double(max(bytes, 1)))
        }
    }

    /// The precise name once the family is known: EUC-KR when no CP949 extension is used,
    /// ISO-8859-9 when no windows-1254 extra (0x80–0x9F) occurs.
    static func refinedName(_ encoding: TextEncodingName, _ sample: ArraySlice<UInt8>) -> TextEncodingName {
        switch encoding {
        case .cp949: usesOnlyEUCPairs(sample) ? .eucKR : .cp949
        case .windows1254: sample.contains(where: { (0x80...0x9F).contains($0) }) ? .windows1254 : .iso8859_9
        default: encoding
        }
    }

    /// Whether every byte ≥ 0x80 is part of a pair of bytes in 0xA1–0xFE (EUC-KR proper).
    static func usesOnlyEUCPairs(_ sample: ArraySlice<UInt8>) -> Bool {
        var i = sample.startIndex
        while i < sample.endIndex {
            let c = sample[i]
            if c < 0x80 { i += 1; continue }
            guard (0xA1...0xFE).contains(c) else { return false }
            if i + 1 < sample.endIndex, !(0xA1...0xFE).contains(sample[i + 1]) { return false }
            i += 2
        }
        return true
    }

    /// UTF-8 earns one point per byte of each well-formed multi-byte sequence.
    static func utf8Points(_ sample: ArraySlice<UInt8>, complete: Bool) -> Double {
        guard let (utf8, invalid) = IconvTranscoder.utf8(sample, from: "UTF-8", complete: complete) else { return -.infinity }
        let good = utf8.reduce(0) { $0 + ($1 >= 0x80 ? 1 : 0) } - 3 * invalid
        return Double(good) - invalidPenalty * Double(invalid)
    }
}
