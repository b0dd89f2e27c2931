import VignetteCore

/// The text a reader sees in an HTML or XML document, and its `<title>`.
///
/// HTML: scripts, styles, templates and the `<head>` are dropped; block elements start new
/// lines, list items get a bullet, table cells are separated by two spaces; white space is
/// collapsed except inside `<pre>`; entities are decoded. XML: every element boundary is a line
/// break, CDATA is text, comments and processing instructions are dropped.
struct MarkupText {
    /// Elements whose content never shows.
    static let hiddenElements: Set<String> = [
        "script", "style", "template", "head", "svg", "math", "object", "iframe", "noembed", "noframes",
    ]
    /// HTML elements that begin and end a line.
    static let blockElements: Set<String> = [
        "address", "article", "aside", "blockquote", "body", "br", "caption", "dd", "details", "div", "dl", "dt",
        "fieldset", "figcaption", "figure", "footer", "form", "h1", "h2", "h3", "h4", "h5", "h6", "header",
        "hr", "html", "li", "main", "nav", "ol", "p", "pre", "section", "summary", "table", "tbody", "td",
        "tfoot", "th", "thead", "tr", "ul",
    ]

    /// The visible text, one line per block, without empty lines.
    let text: String
    /// The first `<title>`'s text, white space collapsed; nil when there is none or it is empty.
    let title: String?

    /// Extracts the text of `source`; `html` picks HTML's rules over XML's.
    init(_ source: String, html: Bool) {
        var lines: [String] = []
        var current = ""
        var title: String? = nil
        var inTitle = false
        var hiddenDepth = 0
        var hiddenName = ""
        var preDepth = 0

        func breakLine() {
            // Inside <pre> leading spaces are the author's; elsewhere they are markup's.
            let trimmed = preDepth > 0 ? current.trimmingTrailingSpaces() : current.trimmingSpaces()
            if !trimmed.isEmpty { lines.append(trimmed) }
            current = ""
        }
        func addText(_ raw: String) {
            let decoded = MarkupEntities.decode(raw).replacingOccurrences(of: "\u{A0}", with: " ")
            if preDepth > 0 {
                let parts = decoded.split(separator: "\n", omittingEmptySubsequences: false)
                for (k, part) in parts.enumerated() {
                    if k > 0 { lines.append(current); current = "" }
                    current += part
                }
                return
            }
            for ch in decoded {
                if ch.isWhitespace {
                    if !current.isEmpty && current.last != " " { current.append(" ") }
                } else {
                    current.append(ch)
                }
            }
        }
        // CDATA is literal: protect its `&` from entity decoding.
        func addTextVerbatim(_ raw: String) { addText(raw.replacingOccurrences(of: "&", with: "&amp;")) }

        MarkupScanner.scan(source, rawTextElements: html ? MarkupScanner.htmlRawTextElements : []) { token in
            if hiddenDepth > 0 {
                if token.kind == .startTag, token.name == hiddenName, !token.selfClosing { hiddenDepth += 1 }
                if token.kind == .endTag, token.name == hiddenName { hiddenDepth -= 1 }
                if token.kind == .text, inTitle, title == nil { title = MarkupText.collapse(MarkupEntities.decode(token.text)) }
                if token.kind == .startTag, token.name == "title" { inTitle = true }
                if token.kind == .endTag, token.name == "title" { inTitle = false }
                return
            }
            switch token.kind {
            case .text, .cdata:
                if inTitle {
                    if title == nil {
                        title = MarkupText.collapse(html || token.kind == .text ? MarkupEntities.decode(token.text) : token.text)
                    }
                    if html { return }
                }
                if token.kind == .cdata { addTextVerbatim(token.text) } else { addText(token.text) }
            case .startTag:
                if token.name == "title" && !token.selfClosing { inTitle = true }
                if html, Self.hiddenElements.contains(token.name), !token.selfClosing {
                    hiddenDepth = 1
                    hiddenName = token.name
                    return
                }
                if !html || Self.blockElements.contains(token.name) { breakLine() }
                if html && token.name == "li" { current = "• " }
                if html && (token.name == "td" || token.name == "th") { current += "  " }
                if html && token.name == "pre" { preDepth += 1 }
            case .endTag:
                if token.name == "title" { inTitle = false }
                if !html || Self.blockElements.contains(token.name) { breakLine() }
                if html && token.name == "pre" { preDepth = max(0, preDepth - 1) }
            case .ignorable:
                break
            }
        }
        breakLine()
        while lines.last?.isEmpty == true { lines.removeLast() }
        self.text = lines.joined(separator: "\n")
        self.title = title.flatMap { $0.isEmpty ? nil : $0 }
    }

    /// `text` with white space runs as single spaces, trimmed.
    static func collapse(_ text: String) -> String {
        text.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
    }
}

extension String {
    /// The string without leading and trailing spaces and tabs.
    fileprivate func trimmingSpaces() -> String {
        var s = Substring(self)
        while s.first == " " || s.first == "\t" { s.removeFirst() }
        while s.last == " " || s.last == "\t" { s.removeLast() }
        return String(s)
    }

    /// The string without trailing spaces and tabs.
    fileprivate func trimmingTrailingSpaces() -> String {
        var s = Substring(self)
        while s.last == " " || s.last == "\t" { s.removeLast() }
        return String(s)
    }
}
