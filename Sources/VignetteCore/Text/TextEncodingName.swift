/// The name of a text encoding, spelled the IANA way ("UTF-8", "Shift_JIS", "windows-1251").
///
/// Any name iconv knows may be used (`TextEncodingName(rawValue: "KOI8-U")`); the constants are
/// the encodings `TextDecoder` detects. Names compare case-insensitively, as IANA names do.
public struct TextEncodingName: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The name as written ("EUC-JP").
    public let rawValue: String

    /// Creates a name; any spelling iconv accepts works for decoding.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// The name as written.
    public var description: String { rawValue }

    /// Names are case-insensitive ("utf-8" is "UTF-8").
    public static func == (a: TextEncodingName, b: TextEncodingName) -> Bool {
        a.rawValue.uppercased() == b.rawValue.uppercased()
    }

    /// Hashes the upper-cased name, consistent with `==`.
    public func hash(into hasher: inout Hasher) { hasher.combine(rawValue.uppercased()) }

    /// 7-bit ASCII only (any ASCII text is also valid UTF-8).
    public static let ascii = TextEncodingName(rawValue: "US-ASCII")
    /// UTF-8.
    public static let utf8 = TextEncodingName(rawValue: "UTF-8")
    /// UTF-16, little-endian.
    public static let utf16LE = TextEncodingName(rawValue: "UTF-16LE")
    /// UTF-16, big-endian.
    public static let utf16BE = TextEncodingName(rawValue: "UTF-16BE")
    /// UTF-32, little-endian.
    public static let utf32LE = TextEncodingName(rawValue: "UTF-32LE")
    /// UTF-32, big-endian.
    public static let utf32BE = TextEncodingName(rawValue: "UTF-32BE")
    /// Japanese Shift_JIS (decoded as Microsoft's CP932, so 0x5C stays a backslash).
    public static let shiftJIS = TextEncodingName(rawValue: "Shift_JIS")
    /// Japanese EUC-JP.
    public static let eucJP = TextEncodingName(rawValue: "EUC-JP")
    /// Japanese 7-bit ISO-2022-JP (mail and news).
    public static let iso2022JP = TextEncodingName(rawValue: "ISO-2022-JP")
    /// Korean 7-bit ISO-2022-KR.
    public static let iso2022KR = TextEncodingName(rawValue: "ISO-2022-KR")
    /// Simplified Chinese GB18030 (a superset of GBK and GB2312).
    public static let gb18030 = TextEncodingName(rawValue: "GB18030")
    /// Simplified Chinese HZ: GB2312 in 7-bit text between `~{` and `~}`.
    public static let hzGB2312 = TextEncodingName(rawValue: "HZ-GB-2312")
    /// Traditional Chinese Big5 (decoded as CP950, Big5 with Microsoft's additions).
    public static let big5 = TextEncodingName(rawValue: "Big5")
    /// Korean EUC-KR (decoded as CP949, its superset).
    public static let eucKR = TextEncodingName(rawValue: "EUC-KR")
    /// Korean CP949 (Unified Hangul Code): EUC-KR plus all 11,172 Hangul syllables.
    public static let cp949 = TextEncodingName(rawValue: "CP949")
    /// Central European Windows code page.
    public static let windows1250 = TextEncodingName(rawValue: "windows-1250")
    /// Cyrillic Windows code page.
    public static let windows1251 = TextEncodingName(rawValue: "windows-1251")
    /// Western European Windows code page (a superset of ISO-8859-1 for printable text).
    public static let windows1252 = TextEncodingName(rawValue: "windows-1252")
    /// Greek Windows code page.
    public static let windows1253 = TextEncodingName(rawValue: "windows-1253")
    /// Turkish Windows code page (ISO-8859-9 plus printable characters in 0x80–0x9F).
    public static let windows1254 = TextEncodingName(rawValue: "windows-1254")
    /// Turkish ISO-8859-9 (Latin-5).
    public static let iso8859_9 = TextEncodingName(rawValue: "ISO-8859-9")
    /// Russian KOI8-R.
    public static let koi8R = TextEncodingName(rawValue: "KOI8-R")
    /// DOS Cyrillic code page 866.
    public static let ibm866 = TextEncodingName(rawValue: "IBM866")
    /// DOS Greek code page 737.
    public static let ibm737 = TextEncodingName(rawValue: "IBM737")

    /// The name glibc's iconv knows this encoding by; some names decode with a compatible superset.
    var iconvName: String {
        switch rawValue.uppercased() {
        case "US-ASCII", "ASCII": "UTF-8"  // Stray 8-bit bytes then show as U+FFFD, not as nothing.
        case "SHIFT_JIS", "SJIS", "WINDOWS-31J": "CP932"  // glibc's SHIFT_JIS turns `\` into `¥` and `~` into `‾`.
        case "BIG5": "CP950"
        case "EUC-KR": "CP949"  // Files labelled EUC-KR often use CP949's extra syllables.
        case "ISO-2022-JP": "ISO-2022-JP-2"  // Also accepts the JIS X 0212 and other escapes.
        case "IBM737": "CP737"
        case "IBM866": "CP866"
        default: rawValue
        }
    }

    /// Bytes per code unit: how far to skip over a sequence iconv rejects.
    var unitSize: Int {
        switch rawValue.uppercased() {
        case "UTF-16LE", "UTF-16BE", "UTF-16": 2
        case "UTF-32LE", "UTF-32BE", "UTF-32": 4
        default: 1
        }
    }
}
