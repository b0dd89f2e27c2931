/// A forgiving HTML/XML tokenizer: never fails, never recurses, one pass over the bytes.
///
/// A `<` not followed by a letter, `/`, `!` or `?` is text; an unterminated tag or comment runs
/// to the end. The content of raw-text elements (HTML `script`, `style`, `textarea`, `title`)
/// is text up to the matching end tag.
struct MarkupScanner {
    /// HTML elements whose content is not markup.
    static let htmlRawTextElements: Set<String> = ["script", "style", "textarea", "title", "xmp"]

    private let bytes: [UInt8]
    private let rawTextElements: Set<String>
    private var i = 0

    /// Calls `body` with each token of `text` in order.
    static func scan(_ text: String, rawTextElements: Set<String> = [], _ body: (MarkupToken) -> Void) {
        var scanner = MarkupScanner(bytes: Array(text.utf8), rawTextElements: rawTextElements)
        scanner.run(body)
    }

    private init(bytes: [UInt8], rawTextElements: Set<String>) {
        self.bytes = bytes
        self.rawTextElements = rawTextElements
    }

    private mutating func run(_ body: (MarkupToken) -> Void) {
        var textStart = 0
        func flushText(upTo end: Int) {
            if end > textStart {
                body(MarkupToken(kind: .text, text: String(decoding: bytes[textStart..<end], as: UTF8.self)))
            }
        }
        while i < bytes.count {
            guard bytes[i] == UInt8(ascii: "<"), i + 1 < bytes.count else { i += 1; continue }
            let next = bytes[i + 1]
            let start = i
            var token: MarkupToken
            if starts(with: "<!--") {
                i = end(after: "-->", from: i + 4)
                token = MarkupToken(kind: .ignorable)
            } else if starts(with: "<![CDATA[") {
                let contentEnd = find("]]>", from: i + 9) ?? bytes.count
                token = MarkupToken(kind: .cdata, text: String(decoding: bytes[(i + 9)..<contentEnd], as: UTF8.self))
                i = min(contentEnd + 3, bytes.count)
            } else if next == UInt8(ascii: "!") {
                // Only a DOCTYPE has an internal subset; HTML's other "<!…" end at the first ">".
                let isDoctype = bytes.count - i >= 9 && bytes[(i + 2)..<(i + 9)].map { $0 & 0xDF } == Array("DOCTYPE".utf8)
                i = isDoctype ? declarationEnd(from: i + 2) : end(after: ">", from: i + 2)
                token = MarkupToken(kind: .ignorable)
            } else if next == UInt8(ascii: "?") {
                i = end(after: ">", from: i + 2)
                token = MarkupToken(kind: .ignorable)
            } else if next == UInt8(ascii: "/"), i + 2 < bytes.count, isNameStart(bytes[i + 2]) {
                i += 2
                token = MarkupToken(kind: .endTag, name: name())
                i = end(after: ">", from: i)
            } else if isNameStart(next) {
                i += 1
                token = startTag()
            } else {
                i += 1
                continue
            }
            flushText(upTo: start)
            body(token)
            textStart = i
            if token.kind == .startTag, !token.selfClosing, rawTextElements.contains(token.name) {
                let close = findCaseInsensitive("</" + token.name, from: i) ?? bytes.count
                flushText(upTo: close)
                i = close
                textStart = close
            }
        }
        flushText(upTo: bytes.count)
    }

    /// The attributes and end of a start tag whose name begins at `i`.
    private mutating func startTag() -> MarkupToken {
        var token = MarkupToken(kind: .startTag, name: name())
        while i < bytes.count {
            skipSpace()
            guard i < bytes.count else { break }
            let c = bytes[i]
            if c == UInt8(ascii: ">") { i += 1; return token }
            if c == UInt8(ascii: "/") {
                i += 1
                if i < bytes.count, bytes[i] == UInt8(ascii: ">") { token.selfClosing = true; i += 1; return token }
                continue
            }
            let nameStart = i
            while i < bytes.count, !isSpace(bytes[i]),
                ![UInt8(ascii: "="), UInt8(ascii: ">"), UInt8(ascii: "/")].contains(bytes[i]) || i == nameStart
            {
                i += 1
            }
            let attrName = String(decoding: bytes[nameStart..<i], as: UTF8.self).lowercased()
            skipSpace()
            var value: String? = nil
            if i < bytes.count, bytes[i] == UInt8(ascii: "=") {
                i += 1
                skipSpace()
                if i < bytes.count, bytes[i] == UInt8(ascii: "\"") || bytes[i] == UInt8(ascii: "'") {
                    let quote = bytes[i]
                    let valueEnd = bytes[(i + 1)...].firstIndex(of: quote) ?? bytes.count
                    value = String(decoding: bytes[(i + 1)..<valueEnd], as: UTF8.self)
                    i = min(valueEnd + 1, bytes.count)
                } else {
                    let valueStart = i
                    while i < bytes.count, !isSpace(bytes[i]), bytes[i] != UInt8(ascii: ">") { i += 1 }
                    value = String(decoding: bytes[valueStart..<i], as: UTF8.self)
                }
            }
            token.attributes.append((attrName, value))
        }
        return token
    }

    /// A tag name at `i`, lower-cased.
    private mutating func name() -> String {
        let start = i
        while i < bytes.count, isNameByte(bytes[i]) { i += 1 }
        return String(decoding: bytes[start..<i], as: UTF8.self).lowercased()
    }

    private mutating func skipSpace() { while i < bytes.count, isSpace(bytes[i]) { i += 1 } }

    private func isSpace(_ c: UInt8) -> Bool { c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0C || c == 0x0D }
    private func isNameStart(_ c: UInt8) -> Bool {
        (0x41...0x5A).contains(c) || (0x61...0x7A).contains(c) || c >= 0x80 || c == UInt8(ascii: "_")
    }
    private func isNameByte(_ c: UInt8) -> Bool {
        isNameStart(c) || (0x30...0x39).contains(c) || c == UInt8(ascii: "-") || c == UInt8(ascii: ":") || c == UInt8(ascii: ".")
    }

    private func starts(with literal: String) -> Bool {
        let l = Array(literal.utf8)
        return bytes.count - i >= l.count && bytes[i..<(i + l.count)].elementsEqual(l)
    }

    /// The offset of `literal` at or after `from`, if any.
    private func find(_ literal: String, from: Int) -> Int? {
        let l = Array(literal.utf8)
        guard let first = l.first, from < bytes.count else { return nil }
        var j = from
        while j + l.count <= bytes.count {
            guard let k = bytes[j...].firstIndex(of: first) else { return nil }
            if k + l.count <= bytes.count, bytes[k..<(k + l.count)].elementsEqual(l) { return k }
            j = k + 1
        }
        return nil
    }

    /// Like `find`, ignoring ASCII case.
    private func findCaseInsensitive(_ literal: String, from: Int) -> Int? {
        let l = Array(literal.lowercased().utf8)
        var j = from
        while j + l.count <= bytes.count {
            guard let k = bytes[j...].firstIndex(of: UInt8(ascii: "<")) else { return nil }
            if k + l.count <= bytes.count, bytes[k..<(k + l.count)].map({ (0x41...0x5A).contains($0) ? $0 | 0x20 : $0 }) == l { return k }
            j = k + 1
        }
        return nil
    }

    /// The offset just past a declaration's `>`, else the end: quoted strings and a DOCTYPE's
    /// internal subset (`<!DOCTYPE x [<!ENTITY a "…">]>`, whose declarations end in `>` too,
    /// and whose comments may hold quotes) are stepped over.
    private func declarationEnd(from: Int) -> Int {
        var j = from
        var depth = 0
        var quote: UInt8? = nil
        while j < bytes.count {
            let c = bytes[j]
            if let open = quote {
                if c == open { quote = nil }
            } else if depth > 0, c == UInt8(ascii: "<"), bytes[j...].starts(with: "<!--".utf8) {
                j = end(after: "-->", from: j + 4)
                continue
            } else if c == UInt8(ascii: "\"") || c == UInt8(ascii: "'") {
                quote = c
            } else if c == UInt8(ascii: "[") {
                depth += 1
            } else if c == UInt8(ascii: "]") {
                depth = max(0, depth - 1)
            } else if c == UInt8(ascii: ">"), depth == 0 {
                return j + 1
            }
            j += 1
        }
        return bytes.count
    }

    /// The offset just past the next `literal` at or after `from`, else the end.
    private func end(after literal: String, from: Int) -> Int {
        guard let k = find(literal, from: from) else { return bytes.count }
        return k + literal.utf8.count
    }
}
