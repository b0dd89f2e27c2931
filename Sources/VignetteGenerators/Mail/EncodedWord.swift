/// One RFC 2047 encoded word (`=?UTF-8?B?Q2Fmw6k=?=`): its charset and the bytes it stands for;
/// and the decoding of whole header values made of text and such words.
struct EncodedWord {
    /// The charset named in the word, without an RFC 2231 language (`UTF-8` of `UTF-8*en`).
    let charset: String
    /// The bytes the word encodes, in `charset`.
    let bytes: [UInt8]
    /// Index just past the word's closing `?=`.
    let end: Int

    /// Longest encoded text accepted in one word (RFC 2047 says 75 for the whole word; mailers exceed it).
    static let maxTextLength = 1024

    /// The word starting at `start` in `utf8`, or nil when what starts there is not a well-formed word.
    init?(_ utf8: [UInt8], at start: Int) {
        let n = utf8.count
        guard start + 1 < n, utf8[start] == UInt8(ascii: "="), utf8[start + 1] == UInt8(ascii: "?") else { return nil }
        var i = start + 2
        let charsetStart = i
        while i < n, utf8[i] != UInt8(ascii: "?"), utf8[i] > 0x20, utf8[i] < 0x7F { i += 1 }
        guard i < n, i > charsetStart, utf8[i] == UInt8(ascii: "?") else { return nil }
        var charset = String(decoding: utf8[charsetStart..<i], as: UTF8.self)
        if let star = charset.firstIndex(of: "*") { charset = String(charset[..<star]) }
        guard i + 2 < n, utf8[i + 2] == UInt8(ascii: "?") else { return nil }
        let encoding = utf8[i + 1] | 0x20
        guard encoding == UInt8(ascii: "b") || encoding == UInt8(ascii: "q") else { return nil }
        i += 3
        let textStart = i
        while i + 1 < n, !(utf8[i] == UInt8(ascii: "?") && utf8[i + 1] == UInt8(ascii: "=")) {
            guard utf8[i] > 0x20, utf8[i] < 0x7F, i - textStart < Self.maxTextLength else { return nil }
            i += 1
        }
        guard i + 1 < n else { return nil }
        let text = utf8[textStart..<i]
        self.charset = charset
        self.bytes =
            encoding == UInt8(ascii: "b")
            ? TransferDecoding.base64(text).bytes : TransferDecoding.quotedPrintable(text, headerWord: true)
        self.end = i + 2
    }

    /// A header value as a reader sees it: raw 8-bit bytes decoded (UTF-8, else detected), encoded
    /// words decoded in their charsets, white space between adjacent words dropped, and runs of
    /// white space (folding) made one space.
    static func decodeHeader(_ raw: ArraySlice<UInt8>) -> String {
        let text = MailCharset.decode(raw, charset: raw.contains { $0 >= 0x80 } ? nil : "us-ascii")
        let utf8 = Array(text.utf8)
        guard utf8.count > 1, text.contains("=?") else { return text.collapsingWhiteSpace }
        var out: [UInt8] = []
        out.reserveCapacity(utf8.count)
        // Adjacent words in one charset are joined before decoding: a character may straddle two.
        var pending: (charset: String, bytes: [UInt8])? = nil
        func flush() {
            guard let word = pending else { return }
            out += Array(MailCharset.decode(word.bytes[...], charset: word.charset).utf8)
            pending = nil
        }
        var literalStart = 0
        var i = 0
        while i < utf8.count {
            guard utf8[i] == UInt8(ascii: "="), let word = EncodedWord(utf8, at: i) else {
                i += 1
                continue
            }
            let gap = utf8[literalStart..<i]
            if pending == nil || !gap.allSatisfy(TransferDecoding.isSpace) {
                flush()
                out += gap
            }
            if let current = pending, current.charset.lowercased() == word.charset.lowercased() {
                pending?.bytes += word.bytes
            } else {
                flush()
                pending = (word.charset, word.bytes)
            }
            i = word.end
            literalStart = i
        }
        flush()
        out += utf8[literalStart...]
        return String(decoding: out, as: UTF8.self).collapsingWhiteSpace
    }
}
