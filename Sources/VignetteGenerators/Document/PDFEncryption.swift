import VignetteCore

/// The encryption of a PDF that poppler cannot open without its password, named for a person:
/// "128-bit RC4", "256-bit AES".
///
/// The encryption dictionary is never encrypted itself: it is found through the trailer's
/// `/Encrypt N G R` (or given inline), and its keys are read by a small tokenizer that steps over
/// the binary `/O` and `/U` strings, nested dictionaries and arrays; `/CFM` is taken from the
/// crypt filters of version 4. Hostile bytes cost a bounded amount: the dictionary is read for at
/// most `maxDictionaryBytes`, and nothing is allocated from what it says.
package enum PDFEncryption {
    /// Most bytes of the encryption dictionary read.
    static let maxDictionaryBytes = 16 << 10

    /// What the encryption dictionary says.
    package struct Dictionary: Equatable {
        /// `/Filter`: `Standard` for passwords, `Adobe.PubSec` for certificates.
        var filter: String?
        /// `/V`: the algorithm (1–5).
        var version: Int?
        /// `/R`: the standard handler's revision.
        var revision: Int?
        /// `/Length`: the RC4 key length in bits (versions 2 and 3).
        var length: Int?
        /// `/CFM` of a crypt filter (`V2` RC4, `AESV2`, `AESV3`), version 4 and 5.
        var method: String?

        /// The cipher in words: "40-bit RC4", "128-bit AES", "256-bit AES", or what the
        /// dictionary names when it is none of those.
        package var cipher: String {
            if let filter, filter != "Standard" { return "certificates (\(filter))" }
            switch (version ?? 0, method) {
            case (1, _): return "40-bit RC4"
            case (2, _), (3, _): return "\(min(max(length ?? 40, 40), 128))-bit RC4"
            case (4, "AESV2"): return "128-bit AES"
            case (4, _): return "128-bit RC4"
            case (5, _), (6, _): return "256-bit AES"
            default: return "an unknown cipher (version \(version.map(String.init) ?? "missing"))"
            }
        }
    }

    /// The encryption dictionary of the PDF in `bytes`, or nil when the trailer names none.
    package static func dictionary(_ bytes: ArraySlice<UInt8>) -> Dictionary? {
        // The last /Encrypt is the trailer's of the newest update.
        var at: Int?
        var from = bytes.startIndex
        while let hit = ByteSearch.firstIndex(of: Array("/Encrypt".utf8), in: bytes, from: from) {
            at = hit
            from = hit + 1
        }
        guard let at else { return nil }
        var i = skipSpace(bytes, at + 8)
        if i + 1 < bytes.endIndex, bytes[i] == UInt8(ascii: "<"), bytes[i + 1] == UInt8(ascii: "<") { return read(bytes, i) }
        guard let (number, next) = integer(bytes, i) else { return nil }
        i = skipSpace(bytes, next)
        guard let (generation, _) = integer(bytes, i) else { return nil }
        let header = Array("\(number) \(generation) obj".utf8)
        from = bytes.startIndex
        while let hit = ByteSearch.firstIndex(of: header, in: bytes, from: from) {
            // The object number starts the token, not the end of a longer number ("114 0 obj").
            let starts = hit == bytes.startIndex || !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[hit - 1])
            if starts, let start = ByteSearch.firstIndex(of: Array("<<".utf8), in: bytes, from: hit + header.count),
                start - hit < 64
            {
                return read(bytes, start)
            }
            from = hit + 1
        }
        return nil
    }

    /// The keys of the dictionary that opens at `start` (`<<`).
    private static func read(_ bytes: ArraySlice<UInt8>, _ start: Int) -> Dictionary {
        var result = Dictionary()
        let end = min(bytes.endIndex, start + maxDictionaryBytes)
        var i = start
        var depth = 0
        var key: String?
        // Top-level keys take the next name or number; /CFM is taken at any depth.
        func take(_ value: String) {
            switch key {
            case "Filter" where depth == 1: result.filter = value
            case "V" where depth == 1: result.version = Int(value)
            case "R" where depth == 1: result.revision = Int(value)
            case "Length" where depth == 1: result.length = Int(value)
            case "CFM": if result.method == nil || result.method == "None" { result.method = value }
            default: break
            }
            key = nil
        }
        while i < end {
            let byte = bytes[i]
            switch byte {
            case UInt8(ascii: "<"):
                if i + 1 < end, bytes[i + 1] == UInt8(ascii: "<") {
                    depth += 1
                    key = nil
                    i += 2
                } else {
                    // A hex string.
                    i = (ByteSearch.firstIndex(of: UInt8(ascii: ">"), in: bytes[..<end], from: i + 1) ?? end) + 1
                    key = nil
                }
            case UInt8(ascii: ">"):
                if i + 1 < end, bytes[i + 1] == UInt8(ascii: ">") {
                    depth -= 1
                    if depth <= 0 { return result }
                    i += 2
                } else {
                    i += 1
                }
                key = nil
            case UInt8(ascii: "("):
                i = skipString(bytes, i, end)
                key = nil
            case UInt8(ascii: "/"):
                var j = i + 1
                while j < end, !isDelimiter(bytes[j]) { j += 1 }
                let name = String(decoding: bytes[(i + 1)..<j], as: UTF8.self)
                if key == nil { key = name } else { take(name) }
                i = j
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"):
                var j = i + 1
                while j < end, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[j]) || bytes[j] == UInt8(ascii: ".") { j += 1 }
                if key != nil { take(String(decoding: bytes[i..<min(j, i + 12)], as: UTF8.self)) }
                i = j
            case UInt8(ascii: "["), UInt8(ascii: "]"):
                key = nil
                i += 1
            default:
                i += 1
            }
        }
        return result
    }

    /// The index after the literal string opening at `start`: parentheses nest, a backslash
    /// escapes the next byte.
    private static func skipString(_ bytes: ArraySlice<UInt8>, _ start: Int, _ end: Int) -> Int {
        var i = start + 1
        var depth = 1
        while i < end {
            switch bytes[i] {
            case UInt8(ascii: "\\"): i += 1
            case UInt8(ascii: "("): depth += 1
            case UInt8(ascii: ")"):
                depth -= 1
                if depth == 0 { return i + 1 }
            default: break
            }
            i += 1
        }
        return end
    }

    private static func isDelimiter(_ byte: UInt8) -> Bool {
        byte <= 0x20 || "/<>[]()%{}".utf8.contains(byte)
    }

    private static func skipSpace(_ bytes: ArraySlice<UInt8>, _ start: Int) -> Int {
        var i = start
        while i < bytes.endIndex, bytes[i] <= 0x20 { i += 1 }
        return i
    }

    /// A non-negative integer of at most 10 digits at `start`, and the index after it.
    private static func integer(_ bytes: ArraySlice<UInt8>, _ start: Int) -> (Int, Int)? {
        var i = start
        var value = 0
        while i < bytes.endIndex, i - start < 10, bytes[i] >= UInt8(ascii: "0"), bytes[i] <= UInt8(ascii: "9") {
            value = value * 10 + Int(bytes[i] - 48)
            i += 1
        }
        return i > start ? (value, i) : nil
    }

    /// The version in the `%PDF-x.y` header at the start of `bytes`, or nil.
    package static func headerVersion(_ bytes: ArraySlice<UInt8>) -> String? {
        let head = bytes.prefix(1024)
        guard let at = ByteSearch.firstIndex(of: Array("%PDF-".utf8), in: head, from: head.startIndex) else { return nil }
        let digits = head[(at + 5)...].prefix { ($0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9")) || $0 == UInt8(ascii: ".") }
        return digits.isEmpty ? nil : String(decoding: digits.prefix(8), as: UTF8.self)
    }
}
