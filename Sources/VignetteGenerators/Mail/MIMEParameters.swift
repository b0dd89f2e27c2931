/// A structured MIME field such as `Content-Type` or `Content-Disposition`: the leading value
/// (lower-cased: `text/plain`, `attachment`) and the `;`-separated parameters.
///
/// Parameters are read with quoting and backslash escapes; RFC 2231 extended values
/// (`filename*=UTF-8''na%C3%AFve.txt`) and continuations (`name*0`, `name*1*`) are joined and
/// decoded; a plain value that holds RFC 2047 words (as some mailers write file names) is decoded too.
struct MIMEParameters {
    /// The leading value, lower-cased and trimmed.
    let value: String
    /// Each parameter's segments (one, or the RFC 2231 continuations) by lower-cased name, undecoded:
    /// a message may hold thousands of file names, and only the ones shown are decoded.
    private let segments: [String: [Int: (bytes: [UInt8], extended: Bool)]]

    /// Continuation segments joined at most (bounds a hostile `name*9999`).
    static let maxSegments = 64

    /// Parses the raw field value.
    init(_ raw: [UInt8]) {
        var pieces: [[UInt8]] = [[]]
        var quoted = false
        var escaped = false
        for byte in raw {
            if escaped {
                pieces[pieces.count - 1].append(byte)
                escaped = false
            } else if quoted && byte == UInt8(ascii: "\\") {
                escaped = true
            } else if byte == UInt8(ascii: "\"") {
                quoted.toggle()
            } else if byte == UInt8(ascii: ";") && !quoted {
                if pieces.count > 256 { break }
                pieces.append([])
            } else {
                pieces[pieces.count - 1].append(byte)
            }
        }
        value = String(decoding: pieces[0], as: UTF8.self).collapsingWhiteSpace.lowercased()
        // name → (segment index → (bytes, extended))
        var segments: [String: [Int: (bytes: [UInt8], extended: Bool)]] = [:]
        for piece in pieces.dropFirst() {
            guard let equals = piece.firstIndex(of: UInt8(ascii: "=")) else { continue }
            var name = String(decoding: piece[..<equals], as: UTF8.self).trimming(" \t\r\n").lowercased()
            var bytes = Array(piece[(equals + 1)...])
            while let first = bytes.first, TransferDecoding.isSpace(first) { bytes.removeFirst() }
            while let last = bytes.last, TransferDecoding.isSpace(last) { bytes.removeLast() }
            let extended = name.hasSuffix("*")
            if extended { name.removeLast() }
            var index = 0
            if let star = name.lastIndex(of: "*"), let number = Int(name[name.index(after: star)...]) {
                index = number
                name = String(name[..<star])
            }
            guard !name.isEmpty, index < Self.maxSegments else { continue }
            segments[name, default: [:]][index] = (bytes, extended)
        }
        self.segments = segments
    }

    /// Whether a parameter named `name` (lower-case) is present.
    func has(_ name: String) -> Bool { segments[name] != nil }

    /// The parameter named `name` (lower-case), decoded, or nil.
    subscript(_ name: String) -> String? {
        guard let parts = segments[name] else { return nil }
        var joined: [UInt8] = []
        var charset: String? = nil
        var anyExtended = false
        for index in parts.keys.sorted() {
            var (bytes, extended) = parts[index]!
            if extended {
                anyExtended = true
                if index == 0 {
                    // charset'language'value
                    let quotes = bytes.indices.filter { bytes[$0] == UInt8(ascii: "'") }
                    if quotes.count >= 2 {
                        charset = String(decoding: bytes[..<quotes[0]], as: UTF8.self)
                        bytes = Array(bytes[(quotes[1] + 1)...])
                    }
                }
                joined += Self.percentDecoded(bytes)
            } else {
                joined += bytes
            }
        }
        return anyExtended
            ? MailCharset.decode(joined[...], charset: charset?.isEmpty == false ? charset : nil)
            : EncodedWord.decodeHeader(joined[...])
    }

    /// `%XX` sequences turned into their bytes; a malformed `%` stays.
    static func percentDecoded(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        var i = 0
        while i < bytes.count {
            if bytes[i] == UInt8(ascii: "%"), i + 2 < bytes.count, let high = TransferDecoding.hexValue(bytes[i + 1]),
                let low = TransferDecoding.hexValue(bytes[i + 2])
            {
                out.append(high << 4 | low)
                i += 3
            } else {
                out.append(bytes[i])
                i += 1
            }
        }
        return out
    }
}
