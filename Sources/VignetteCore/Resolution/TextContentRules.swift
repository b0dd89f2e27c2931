import Foundation

/// Content rules for text: what a text's own structure says it is (markup, JSON, mail, code).
///
/// Each rule is general (it looks at syntax, never at particular files) and cheap: it reads
/// only the decoded head of the file.
struct TextContentRules {
    let catalog: TypeCatalog

    /// The type the text's structure shows, with a short reason; nil when it looks like plain text.
    ///
    /// `nameIsSpecific` turns off the guessing rules (code heuristics) when the file name
    /// already names a specific text type.
    func classify(_ text: String, nameIsSpecific: Bool) -> (UniformType, String)? {
        if let markup = classifyMarkup(text) { return markup }
        if looksLikeJSON(text), let t = type(mime: "application/json") {
            // A JSON Schema names its meta-schema; the system database has a type for it.
            if let r = text.range(of: "\"$schema\""), text[r.upperBound...].prefix(80).contains("json-schema.org"),
                let schema = type(mime: "application/schema+json")
            {
                return (schema, "JSON with a json-schema.org $schema")
            }
            return (t, "JSON value")
        }
        if text.hasPrefix("%YAML "), let t = type(mime: "application/yaml") { return (t, "%YAML directive") }
        if let mail = classifyMail(text) { return mail }
        if nameIsSpecific { return nil }
        if looksLikeXBM(text), let t = type(mime: "image/x-xbitmap") { return (t, "X bitmap #defines") }
        if looksLikePatch(text), let t = type(mime: "text/x-patch") { return (t, "unified diff hunks") }
        let troff = TextContentRules.troffRequests(in: text)
        if troff.count >= 3, troff.count * 4 >= troff.lines, let t = type(mime: "text/troff") {
            return (t, "troff requests")
        }
        if looksLikePython(text), let t = type(mime: "text/x-python") { return (t, "Python definitions and imports") }
        return nil
    }

    func type(mime: String) -> UniformType? { catalog.declaredType(forMIMEType: mime) }
    func type(id: String, mime: String) -> UniformType? { catalog.type(withIdentifier: id) ?? type(mime: mime) }

    // MARK: Markup

    /// Whether the text contains real markup near its start: a declaration, comment or doctype,
    /// a closing tag, a self-closing tag, or an opening tag of a known HTML element.
    /// Angle-bracketed words in prose ("press <ESC>") are not markup.
    static func hasMarkup(_ text: String) -> Bool {
        let head = Array(text.utf8.prefix(4096))
        var i = 0
        while i + 1 < head.count {
            defer { i += 1 }
            guard head[i] == UInt8(ascii: "<") else { continue }
            let next = head[i + 1]
            if next == UInt8(ascii: "?") || next == UInt8(ascii: "!") { return true }
            if next == UInt8(ascii: "/"), i + 2 < head.count, isNameStart(head[i + 2]) { return true }
            guard isNameStart(next) else { continue }
            var j = i + 1
            while j < head.count,
                isNameStart(head[j]) || (head[j] >= UInt8(ascii: "0") && head[j] <= UInt8(ascii: "9")) || head[j] == UInt8(ascii: ":")
                    || head[j] == UInt8(ascii: "-")
            { j += 1 }
            let name = String(decoding: head[(i + 1)..<j], as: UTF8.self).lowercased()
            if htmlElements.contains(name) || name == "html" || name == "svg" { return true }
            // <name .../> closes itself within the same line.
            var k = j
            while k + 1 < head.count, head[k] != UInt8(ascii: ">"), head[k] != 0x0A { k += 1 }
            if k < head.count, head[k] == UInt8(ascii: ">"), head[k - 1] == UInt8(ascii: "/") { return true }
        }
        return false
    }

    static func isNameStart(_ c: UInt8) -> Bool {
        (c >= UInt8(ascii: "a") && c <= UInt8(ascii: "z")) || (c >= UInt8(ascii: "A") && c <= UInt8(ascii: "Z")) || c == UInt8(ascii: "_")
    }

    /// XML by declaration or root element; SVG, XHTML, property lists by root; HTML by doctype or tags.
    func classifyMarkup(_ text: String) -> (UniformType, String)? {
        let s = Substring(text.utf8.prefix(8192).count == text.utf8.count ? text : String(text.prefix(8192)))
        var rest = s.drop { $0.isWhitespace || $0 == "\u{FEFF}" }
        guard rest.first == "<" else { return nil }
        let hasDeclaration = rest.hasPrefix("<?xml")
        var doctype: Substring? = nil
        // Skip the prolog: declaration, processing instructions, comments, doctype.
        while true {
            rest = rest.drop { $0.isWhitespace }
            if rest.hasPrefix("<?") {
                guard let end = rest.range(of: "?>") else { return nil }
                rest = rest[end.upperBound...]
            } else if rest.hasPrefix("<!--") {
                guard let end = rest.range(of: "-->") else { return nil }
                rest = rest[end.upperBound...]
            } else if rest.prefix(9).lowercased() == "<!doctype" {
                guard let end = rest.firstIndex(of: ">") else { return nil }
                doctype = rest[rest.startIndex...end]
                rest = rest[rest.index(after: end)...]
            } else {
                break
            }
        }
        let doctypeIsHTML = doctype.map { $0.lowercased().hasPrefix("<!doctype html") } ?? false
        var root: String? = nil
        var rootTag: Substring = ""
        if rest.first == "<", let second = rest.dropFirst().first, second.isLetter || second == "_" {
            let name = rest.dropFirst().prefix { !$0.isWhitespace && $0 != ">" && $0 != "/" }
            root = String(name)
            rootTag = rest.prefix { $0 != ">" }
        }
        let local = root.map { String($0.split(separator: ":").last ?? Substring($0)).lowercased() }
        let xhtmlNamespace = rootTag.contains("http://www.w3.org/1999/xhtml")
        switch local {
        case "svg":
            if let t = type(id: UniformType.ID.svg, mime: "image/svg+xml") { return (t, "<svg> root element") }
        case "html":
            if xhtmlNamespace && (hasDeclaration || !doctypeIsHTML || doctype?.contains("XHTML") == true),
                let t = type(id: UniformType.ID.xhtml, mime: "application/xhtml+xml")
            {
                return (t, "<html> root in the XHTML namespace")
            }
            if let t = type(id: UniformType.ID.html, mime: "text/html") { return (t, "<html> root element") }
        case "plist":
            if let t = type(id: UniformType.ID.xmlPropertyList, mime: "application/x-plist") { return (t, "<plist> root element") }
        case "stylesheet", "transform":
            if root?.contains(":") == true || rootTag.contains("XSL/Transform"),
                let t = type(mime: "application/xslt+xml")
            {
                return (t, "XSLT root element")
            }
        default:
            break
        }
        if doctypeIsHTML, let t = type(id: UniformType.ID.html, mime: "text/html") { return (t, "HTML doctype") }
        if let local, !hasDeclaration, TextContentRules.htmlElements.contains(local),
            let t = type(id: UniformType.ID.html, mime: "text/html")
        {
            return (t, "<\(local)> HTML element")
        }
        if let root, catalog.hasRootXML {
            let parts = root.split(separator: ":", maxSplits: 1)
            let localName = String(parts.last ?? "")
            let namespace = TextContentRules.attribute(parts.count == 2 ? "xmlns:\(parts[0])" : "xmlns", in: rootTag) ?? ""
            if let id = catalog.rootXML(namespace + " " + localName), let t = catalog.type(withIdentifier: id) {
                return (t, "<\(localName)> root element" + (namespace.isEmpty ? "" : " in \(namespace)"))
            }
        }
        if hasDeclaration || root != nil, let t = type(id: UniformType.ID.xml, mime: "application/xml") {
            return (t, hasDeclaration ? "XML declaration" : TextContentRules.bareRootEvidence + "<\(root ?? "")>")
        }
        return nil
    }

    /// The value of attribute `name` in a start tag's text, if present.
    static func attribute(_ name: String, in tag: Substring) -> String? {
        var rest = tag
        while let r = rest.range(of: name) {
            let before = rest[..<r.lowerBound].last
            var after = rest[r.upperBound...].drop { $0.isWhitespace }
            rest = rest[r.upperBound...]
            guard before?.isWhitespace == true, after.first == "=" else { continue }
            after = after.dropFirst().drop { $0.isWhitespace }
            guard let quote = after.first, quote == "\"" || quote == "'" else { continue }
            let value = after.dropFirst().prefix { $0 != quote }
            return String(value)
        }
        return nil
    }

    /// Evidence text of the weakest markup rule: an unknown root element with no XML declaration,
    /// which a markup file name (HTML) may still refine.
    static let bareRootEvidence = "root element without XML declaration: "

    static let htmlElements: Set<String> = [
        "head", "body", "title", "meta", "link", "script", "style", "div", "p", "table", "span", "a", "br",
        "h1", "h2", "h3", "h4", "h5", "h6", "ul", "ol", "li", "iframe", "form", "img", "center", "font", "pre",
        "frameset", "frame", "noscript", "section", "article", "nav", "header", "footer", "main", "template",
        "table", "tr", "td", "th", "dl", "hr", "em", "strong", "input", "button", "select", "textarea",
    ]

    // MARK: Other structures

    func looksLikeJSON(_ text: String) -> Bool {
        let body = text.drop { $0.isWhitespace || $0 == "\u{FEFF}" }
        guard let first = body.first, first == "{" || first == "[" else { return false }
        let next = body.dropFirst().drop { $0.isWhitespace }.first
        if first == "{" { return next == "\"" || next == "}" }
        guard let next else { return false }
        if next == "{" || next == "\"" || next == "]" || next == "-" || next.isNumber {
            // "[1]" and "[section]" differ: a JSON array's first element ends with , or ].
            return next != "-" || body.dropFirst(2).first?.isNumber == true
        }
        return body.dropFirst().drop { $0.isWhitespace }.hasPrefix("true") || body.dropFirst().drop { $0.isWhitespace }.hasPrefix("null")
            || body.dropFirst().drop { $0.isWhitespace }.hasPrefix("false")
    }

    static let mailHeaders: Set<String> = [
        "from", "to", "subject", "date", "message-id", "mime-version", "received", "return-path", "sender",
        "reply-to", "cc", "content-type", "delivered-to", "x-mailer", "in-reply-to", "references",
    ]

    /// RFC 822 headers at the very top: at least three known ones, including a sender or route.
    func classifyMail(_ text: String) -> (UniformType, String)? {
        var known: Set<String> = []
        var lines = TextContentRules.lines(of: text, limit: 60, omittingEmpty: false).makeIterator()
        var first = true
        var mbox = false
        while let raw = lines.next() {
            let line = raw.hasSuffix("\r") ? raw.dropLast() : raw
            if line.isEmpty { break }
            if first && line.hasPrefix("From ") { mbox = true; first = false; continue }
            if line.first == " " || line.first == "\t" {
                if first { return nil }
                continue
            }
            guard let colon = line.firstIndex(of: ":") else { return nil }
            let name = line[..<colon]
            guard !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" }) else { return nil }
            if TextContentRules.mailHeaders.contains(name.lowercased()) { known.insert(name.lowercased()) }
            first = false
        }
        guard known.count >= 3, !known.isDisjoint(with: ["from", "received", "return-path", "sender"]) else { return nil }
        if mbox, let t = type(mime: "application/mbox") { return (t, "mbox From line and mail headers") }
        if let t = type(mime: "message/rfc822") { return (t, "mail headers") }
        return nil
    }

    /// The first `limit` lines of `text`, split on LF bytes (splitting on the Character "\n"
    /// walks grapheme clusters and is several times slower; it also never splits CRLF).
    static func lines(of text: String, limit: Int, omittingEmpty: Bool) -> [Substring] {
        text.utf8.split(separator: 0x0A, maxSplits: limit, omittingEmptySubsequences: omittingEmpty).prefix(limit).map { Substring($0) }
    }

    /// How many of the first 100 non-empty lines are troff requests or comments (a `.` or `'`
    /// then a one- or two-letter name and a space or the line's end: `.TH`, `.de`, `.B`; or `.\"`),
    /// and how many lines were looked at.
    static func troffRequests(in text: String) -> (count: Int, lines: Int) {
        let all = lines(of: text, limit: 100, omittingEmpty: true)
        return (all.filter(isTroffRequest).count, all.count)
    }

    static func isTroffRequest(_ line: Substring) -> Bool {
        let all = Array(line.utf8.prefix(64))
        guard let first = all.first, first == UInt8(ascii: ".") || first == UInt8(ascii: "'") else { return false }
        // troff allows blanks between the control character and the request (`.  de MR`).
        let u = Array(all.dropFirst().drop { $0 == 0x20 || $0 == 0x09 })
        func isLetter(_ c: UInt8) -> Bool { (c | 0x20) >= UInt8(ascii: "a") && (c | 0x20) <= UInt8(ascii: "z") }
        func ends(_ i: Int) -> Bool { i >= u.count || u[i] == 0x20 || u[i] == 0x09 || u[i] == 0x0D }
        // A bare control character is troff's empty request.
        if u.isEmpty || u == [0x0D] { return true }
        if u[0] == UInt8(ascii: "\\"), u.count >= 2, u[1] == UInt8(ascii: "\"") || u[1] == UInt8(ascii: "}") { return true }
        guard isLetter(u[0]) else { return false }
        if ends(1) { return true }
        return isLetter(u[1]) && ends(2)
    }

    func looksLikeXBM(_ text: String) -> Bool {
        text.contains("#define ") && text.contains("_width ") && text.contains("_height ") && text.contains("_bits[]")
    }

    func looksLikePatch(_ text: String) -> Bool {
        if text.hasPrefix("diff --git ") { return true }
        var sawMinus = false
        var sawPlus = false
        for line in TextContentRules.lines(of: text, limit: 40, omittingEmpty: true) {
            if line.hasPrefix("--- ") {
                sawMinus = true
            } else if sawMinus && line.hasPrefix("+++ ") {
                sawPlus = true
            } else if sawPlus && line.hasPrefix("@@ -") {
                return true
            }
        }
        return false
    }

    /// Python by its statements: definitions, imports, decorators, docstrings; needs several.
    func looksLikePython(_ text: String) -> Bool {
        var score = 0
        var strong = 0
        for raw in TextContentRules.lines(of: text, limit: 200, omittingEmpty: true) {
            let line = raw.hasSuffix("\r") ? raw.dropLast() : raw
            let trimmed = line.drop { $0 == " " || $0 == "\t" }
            let endsWithColon = trimmed.utf8.last(where: { $0 != 0x20 && $0 != 0x09 }) == UInt8(ascii: ":")
            if (trimmed.hasPrefix("def ") || trimmed.hasPrefix("async def ")) && trimmed.contains("(") && endsWithColon {
                score += 3; strong += 1
            } else if trimmed.hasPrefix("class ") && endsWithColon {
                score += 3; strong += 1
            } else if line.hasPrefix("import ") && !line.contains(";") && !line.contains("\"") {
                score += 2; strong += 1
            } else if line.hasPrefix("from ") && line.contains(" import ") {
                score += 2; strong += 1
            } else if line.hasPrefix("if __name__ == ") {
                score += 3; strong += 1
            } else if trimmed.hasPrefix("\"\"\"") || trimmed.hasPrefix("'''") {
                score += 1
            } else if (trimmed.hasPrefix("elif ") || trimmed.hasPrefix("except") || trimmed == "try:" || trimmed == "else:")
                && endsWithColon
            {
                score += 1
            } else if trimmed.hasPrefix("self.") || trimmed.hasPrefix("return ") || trimmed == "pass" {
                score += 1
            }
        }
        return strong >= 2 && score >= 7
    }
}
