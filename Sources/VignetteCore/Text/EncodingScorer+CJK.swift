extension EncodingScorer {
    /// Points for decoding `sample` with a CJK `encoding` as text in `language`, and how many
    /// bytes went into non-ASCII characters (ASCII bytes taken as trail bytes included).
    static func cjkPoints(_ sample: ArraySlice<UInt8>, _ encoding: TextEncodingName, _ language: CJKLanguage, complete: Bool)
        -> (points: Double, bytes: Int)
    {
        guard let (utf8, invalid) = IconvTranscoder.utf8(sample, from: encoding.iconvName, complete: complete) else {
            return (-.infinity, 1)
        }
        let common = language == .korean || language == .japanese ? nil : CommonHanzi.either
        var counts = CJKCounts()
        var asciiOut = 0
        // iconv's output is well-formed UTF-8, so a plain decoding loop does (and beats String here).
        var i = 0
        while i < utf8.count {
            let lead = UInt32(utf8[i])
            if lead < 0x80 {
                asciiOut += 1
                counts.add(lead, common: nil)
                i += 1
                continue
            }
            let length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : 2
            guard i + length <= utf8.count else { break }
            var value = lead & (length == 2 ? 0x1F : length == 3 ? 0x0F : 0x07)
            for k in 1..<length { value = value << 6 | UInt32(utf8[i + k] & 0x3F) }
            counts.add(value, common: common)
            i += length
        }
        var points = counts.points(for: language) - invalidPenalty * Double(invalid)
        if encoding == .gb18030 {
            // GB2312 pairs have both bytes ≥ 0xA1; a pair ending in an ASCII byte is a rare GBK
            // extension character, or a Latin letter with the ASCII letter after it.
            points -= 0.8 * Double(gbkPairsWithASCIITrail(sample))
        }
        return (points, sample.count - asciiOut)
    }

    /// How many GBK double-byte characters in `sample` have a trail byte below 0x80.
    static func gbkPairsWithASCIITrail(_ sample: ArraySlice<UInt8>) -> Int {
        var count = 0
        var i = sample.startIndex
        while i + 1 < sample.endIndex {
            let lead = sample[i]
            guard lead >= 0x81 else { i += 1; continue }
            let trail = sample[i + 1]
            if (0x30...0x39).contains(trail) { i += 4; continue }
            if trail < 0x80 { count += 1 }
            i += 2
        }
        return count
    }

    /// The 2,350 Hangul syllables of KS X 1001 (EUC-KR proper): the ones Korean text mostly
    /// uses. CP949's other 8,822 syllables are what other CJK bytes turn into when misread.
    static let ksX1001Hangul: [Bool] = {
        var table = [Bool](repeating: false, count: 0xD7A4 - 0xAC00)
        var bytes: [UInt8] = []
        for lead in UInt8(0xB0)...0xC8 {
            for trail in UInt8(0xA1)...0xFE { bytes += [lead, trail] }
        }
        guard let (utf8, _) = IconvTranscoder.utf8(bytes[...], from: "EUC-KR", complete: true) else { return table }
        for scalar in String(decoding: utf8, as: UTF8.self).unicodeScalars where (0xAC00...0xD7A3).contains(scalar.value) {
            table[Int(scalar.value) - 0xAC00] = true
        }
        return table
    }()
}

/// How many decoded characters of each kind a CJK candidate produced.
struct CJKCounts {
    var kana = 0.0, halfwidthKana = 0.0, cjkPunctuation = 0.0, punctuation = 0.0
    var commonHangul = 0.0, rareHangul = 0.0, jamo = 0.0
    var commonHan = 0.0, han = 0.0, privateUse = 0.0, other = 0.0
    /// Hangul syllables deep inside an unbroken run: Korean puts spaces between words every few
    /// syllables, Chinese or Japanese misread as Korean does not.
    var longRunHangul = 0.0
    private var hangulRun = 0

    /// Counts one decoded code point (ASCII ones only break runs); `common` marks frequent Chinese characters.
    mutating func add(_ v: UInt32, common: CommonHanzi?) {
        hangulRun = (0xAC00...0xD7A3).contains(v) ? hangulRun + 1 : 0
        if hangulRun > 8 { longRunHangul += 1 }
        switch v {
        case 0..<0x80: break
        case 0xFFFD: break  // Counted as an invalid sequence by the transcoder.
        case 0x3041...0x30FF, 0x31F0...0x31FF: kana += 1
        case 0xFF61...0xFF9F: halfwidthKana += 1
        case 0x3000...0x303F, 0xFF01...0xFF60, 0xFFE0...0xFFEF: cjkPunctuation += 1
        case 0x2010...0x206F: punctuation += 1
        case 0xAC00...0xD7A3:
            if EncodingScorer.ksX1001Hangul[Int(v) - 0xAC00] { commonHangul += 1 } else { rareHangul += 1 }
        case 0x1100...0x11FF, 0x3130...0x318F: jamo += 1
        case 0x4E00...0x9FFF, 0x3400...0x4DBF, 0xF900...0xFAFF, 0x20000...0x2FFFF:
            if let common, common.contains(v) { commonHan += 1 } else { han += 1 }
        case 0xE000...0xF8FF, 0xF0000...0x10FFFF: privateUse += 1
        default: other += 1
        }
    }

    /// The points these characters earn as text in `language` (about 2 per good 2-byte character).
    func points(for language: EncodingScorer.CJKLanguage) -> Double {
        let shared = 2 * cjkPunctuation + punctuation + 0.5 * other - 6 * privateUse
        switch language {
        case .japanese:
            // Japanese prose is never without kana; ideographs alone are likelier Chinese misread.
            let allHan = han + commonHan
            let kanjiWeight = kana >= 0.1 * (kana + allHan) ? 1.5 : 0.2
            return shared + 2 * kana + 0.2 * halfwidthKana + kanjiWeight * allHan
                - 2 * (commonHangul + rareHangul + jamo)
        case .simplifiedChinese, .traditionalChinese:
            return shared + 2 * commonHan + han - kana - halfwidthKana - 2 * (commonHangul + rareHangul + jamo)
        case .korean:
            return shared + 2 * commonHangul + 0.5 * (rareHangul + jamo + han + commonHan) - kana - halfwidthKana
                - 1.5 * longRunHangul
        }
    }
}
