/// How plausible a sample is as text in one single-byte code page.
///
/// The code page's upper half is decoded once (by iconv) into a table of character classes.
/// Scoring then walks the bytes: a letter earns a point, but only if it sits well in its word —
/// not an uppercase letter after a lowercase one, not a Cyrillic or Greek letter glued to a Latin
/// one — and for Latin code pages only if it belongs to one language the page serves (Polish
/// letters are all Polish; Polish misread as windows-1252 gives `³`, `¹` and `¿` inside words).
/// Symbols inside words and bytes the page leaves undefined cost points.
struct SingleByteModel: Sendable {
    /// The script a code page's letters belong to.
    enum Script: UInt8, Sendable { case none, latin, cyrillic, greek }

    /// The class of the character one byte decodes to.
    struct ByteClass: Sendable {
        var script = Script.none
        var isLetter = false
        var isUpper = false
        var isLower = false
        /// Undefined in the code page, or a C1 control: real text does not contain it.
        var isBad = false
        /// An apostrophe, middle dot or soft hyphen: at home between two letters.
        var joinsWords = false
        /// Greek final sigma (ς).
        var isFinalSigma = false
    }

    /// The class of each byte value.
    let classes: [ByteClass]
    /// The script of the code page's own letters.
    let script: Script
    /// For each language the page serves, whether each byte decodes to one of its letters.
    let languages: [[Bool]]
    /// Points for a letter outside the language: Latin pages list every letter a language uses,
    /// so another one is suspect; Cyrillic and Greek pages list only the frequent ones.
    let otherLetterPoints: Double

    /// Builds the model of `encoding` for letters of `script`; `languages` lists the lowercase
    /// non-ASCII letters of each language the page serves (all of them for Latin pages, the
    /// frequent ones for Cyrillic and Greek pages).
    init(_ encoding: TextEncodingName, script: Script, languages: [String]) {
        self.script = script
        otherLetterPoints = script == .latin ? -0.5 : 0.4
        var scalars = (0..<0x80).map { Unicode.Scalar(UInt8($0)) }
        let upper = Array(UInt8(0x80)...0xFF)
        let decoded =
            IconvTranscoder.utf8(upper[...], from: encoding.iconvName, complete: true)
            .map { String(decoding: $0.utf8, as: UTF8.self).unicodeScalars.map { $0 } } ?? []
        scalars += decoded.count == 0x80 ? decoded : Array(repeating: "\u{FFFD}", count: 0x80)
        classes = scalars.map(SingleByteModel.classify)
        let lowercased = scalars.map { $0.properties.lowercaseMapping.unicodeScalars.first ?? $0 }
        self.languages = languages.map { letters in
            let set = Set(letters.unicodeScalars)
            return lowercased.map { set.contains($0) }
        }
    }

    /// The class of one character.
    static func classify(_ s: Unicode.Scalar) -> ByteClass {
        var c = ByteClass()
        switch s.value {
        case 0x41...0x5A, 0x61...0x7A, 0xC0...0xD6, 0xD8...0xF6, 0xF8...0x24F, 0x1E00...0x1EFF: c.script = .latin
        case 0x370...0x3FF, 0x1F00...0x1FFF: c.script = .greek
        case 0x400...0x4FF: c.script = .cyrillic
        default: break
        }
        c.isLetter = c.script != .none && s.properties.isAlphabetic
        c.isUpper = c.isLetter && s.properties.isUppercase
        c.isLower = c.isLetter && s.properties.isLowercase
        c.isBad = s == "\u{FFFD}" || (0x80...0x9F).contains(s.value)
        c.isFinalSigma = s.value == 0x3C2
        c.joinsWords = [0x2019, 0x2018, 0xB4, 0xB7, 0x2BC, 0xAD].contains(s.value)
        return c
    }

    /// The points `sample` earns as text in this code page.
    func points(_ sample: ArraySlice<UInt8>) -> Double {
        var points = 0.0
        var histogram = [Int](repeating: 0, count: 256)
        let space = classes[0x20]
        var i = sample.startIndex
        let end = sample.endIndex
        while i < end {
            let byte = sample[i]
            defer { i += 1 }
            guard byte >= 0x80 else { continue }
            histogram[Int(byte)] += 1
            let current = classes[Int(byte)]
            let previous = i > sample.startIndex ? classes[Int(sample[i - 1])] : space
            let next = i + 1 < end ? classes[Int(sample[i + 1])] : space
            if current.isBad {
                points -= 5
            } else if current.isLetter {
                if previous.isLetter && previous.script != current.script || next.isLetter && next.script != current.script {
                    points -= 1.5
                }
                if current.isFinalSigma, next.isLetter {
                    // ς only ends Greek words; Cyrillic misread as windows-1253 puts it inside them (т).
                    points -= 2
                }
                if current.isUpper {
                    // Prose is mostly lowercase; a misread case-swapping page (KOI8-R for
                    // windows-1251) turns it into capitals.
                    if previous.isLower { points -= 1.5 } else if previous.isUpper { points -= 0.5 }
                }
            } else if !current.joinsWords, previous.isLetter, next.isLetter {
                points -= 1
            }
        }
        var bestLanguage = -Double.infinity
        for members in languages {
            var sum = 0.0
            for byte in 0x80..<0x100 where histogram[byte] > 0 && classes[byte].isLetter {
                sum += Double(histogram[byte]) * (members[byte] ? 1 : otherLetterPoints)
            }
            bestLanguage = max(bestLanguage, sum)
        }
        return points + bestLanguage
    }

    /// Western European: French, German, Spanish, Portuguese, Italian, Dutch, Nordic, Icelandic, Catalan.
    static let windows1252 = SingleByteModel(
        .windows1252, script: .latin,
        languages: [
            "àâæçèéêëîïôœùûüÿ", "äöüß", "áéíñóúü", "àáâãçéêíóôõú", "àèéìíîòóùú", "éëïèáóúöü", "åæøäöé",
            "áðéíóúýþæö", "àçèéíïòóúü",
        ])
    /// Central European: Polish, Czech, Slovak, Hungarian, Croatian and Slovene, Romanian.
    static let windows1250 = SingleByteModel(
        .windows1250, script: .latin,
        languages: ["ąćęłńóśźż", "áčďéěíňóřšťúůýž", "áäčďéíĺľňóôŕšťúýž", "áéíóöőúüű", "čćđšž", "ăâîşţ"])
    /// Turkish (the page is ISO-8859-9 plus printable characters in 0x80–0x9F); `i` is İ lowercased.
    static let windows1254 = SingleByteModel(.windows1254, script: .latin, languages: ["çğıöşüâîûi"])
    /// The frequent letters of Russian, Ukrainian, Bulgarian and Serbian.
    static let cyrillicLanguages = [
        "оеаинтсрвлкмдпуяыьгзб", "оанивретськлудмпязьгіїє", "оаеитнрсвлкдпмзъягуб", "аоиенстрјвдклмупзгбш",
    ]
    /// The frequent letters of Greek, accented vowels included.
    static let greekLanguages = ["αοειτνσηυρκπμλςάέίόήύώ"]
    /// Cyrillic (Windows).
    static let windows1251 = SingleByteModel(.windows1251, script: .cyrillic, languages: cyrillicLanguages)
    /// Cyrillic (KOI8-R).
    static let koi8R = SingleByteModel(.koi8R, script: .cyrillic, languages: cyrillicLanguages)
    /// Cyrillic (DOS).
    static let ibm866 = SingleByteModel(.ibm866, script: .cyrillic, languages: cyrillicLanguages)
    /// Greek (Windows).
    static let windows1253 = SingleByteModel(.windows1253, script: .greek, languages: greekLanguages)
    /// Greek (DOS).
    static let ibm737 = SingleByteModel(.ibm737, script: .greek, languages: greekLanguages)
}
