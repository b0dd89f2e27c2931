/// Makes HTML from Markdown safe to put in the viewer page by keeping only known-harmless markup.
///
/// What it does, explicitly:
/// - Elements outside `allowedElements` lose their tags (their text stays, escaped as needed);
///   `script`, `style`, `iframe`, `object`, `embed`, `svg`, `math`, `template`, `noscript`,
///   `textarea`, `select`, `form`, `frameset` and `title` lose their content too.
/// - Kept elements keep only the attributes listed for them in `allowedAttributes`; every `on…`
///   handler, `style` and `srcset` is therefore dropped.
/// - `href` and `src` survive only with no scheme (relative links, `#anchors`) or `http`,
///   `https`, `mailto`, checked after decoding entities and removing white space and control
///   characters, so `java&#115;cript:` and `jav\tascript:` are dropped as well.
/// - `class` survives only as `language-…` (letters, digits, `+`, `-`, `_`, `#`), for code blocks.
/// - Comments, doctypes, processing instructions and CDATA are dropped; a `<` in text is escaped.
enum HTMLSanitizer {
    /// Elements kept.
    static let allowedElements: Set<String> = [
        "a", "abbr", "b", "blockquote", "br", "caption", "code", "dd", "del", "details", "div", "dl", "dt", "em",
        "h1", "h2", "h3", "h4", "h5", "h6", "hr", "i", "img", "ins", "kbd", "li", "mark", "ol", "p", "pre", "q",
        "s", "samp", "small", "span", "strike", "strong", "sub", "summary", "sup", "table", "tbody", "td",
        "tfoot", "th", "thead", "tr", "u", "ul", "var",
    ]
    /// Elements dropped with everything inside them.
    static let droppedWithContent: Set<String> = [
        "script", "style", "iframe", "frame", "frameset", "object", "embed", "applet", "svg", "math",
        "template", "noscript", "textarea", "select", "form", "title",
    ]
    /// Attributes kept, per element (`*` for all kept elements).
    static let allowedAttributes: [String: Set<String>] = [
        "*": ["title", "class"], "a": ["href"], "img": ["src", "alt", "width", "height"],
        "ol": ["start"], "td": ["align", "colspan", "rowspan"], "th": ["align", "colspan", "rowspan"],
    ]
    /// Elements with no end tag.
    static let voidElements: Set<String> = ["br", "hr", "img"]

    /// The safe version of `html`.
    static func sanitize(_ html: String) -> String {
        var out = ""
        var dropDepth = 0
        var dropName = ""
        MarkupScanner.scan(html, rawTextElements: MarkupScanner.htmlRawTextElements) { token in
            if dropDepth > 0 {
                if token.kind == .startTag, token.name == dropName, !token.selfClosing { dropDepth += 1 }
                if token.kind == .endTag, token.name == dropName { dropDepth -= 1 }
                return
            }
            switch token.kind {
            case .text:
                out += token.text.replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
            case .startTag:
                if droppedWithContent.contains(token.name) {
                    if !token.selfClosing { dropDepth = 1; dropName = token.name }
                } else if allowedElements.contains(token.name) {
                    out += startTag(token)
                }
            case .endTag:
                if allowedElements.contains(token.name) && !voidElements.contains(token.name) { out += "</\(token.name)>" }
            case .cdata, .ignorable:
                break
            }
        }
        return out
    }

    /// A kept start tag rebuilt with only its safe attributes, values escaped.
    static func startTag(_ token: MarkupToken) -> String {
        let allowed = (allowedAttributes["*"] ?? []).union(allowedAttributes[token.name] ?? [])
        var out = "<" + token.name
        var seen: Set<String> = []
        for (name, rawValue) in token.attributes where allowed.contains(name) && !seen.contains(name) {
            let value = MarkupEntities.decode(rawValue ?? "")
            switch name {
            case "href", "src": guard isSafeURL(value) else { continue }
            case "class": guard isLanguageClass(value) else { continue }
            default: break
            }
            seen.insert(name)
            out += " \(name)=\"\(HTML.escape(value))\""
        }
        return out + ">"
    }

    /// Whether a link or image address is relative or uses http, https or mailto.
    static func isSafeURL(_ value: String) -> Bool {
        let compact = String(value.unicodeScalars.filter { $0.value > 0x20 && $0.value != 0x7F }.map(Character.init)).lowercased()
        guard let colon = compact.firstIndex(of: ":") else { return true }
        let beforeColon = compact[..<colon]
        if beforeColon.contains(where: { $0 == "/" || $0 == "?" || $0 == "#" }) { return true }
        return ["http", "https", "mailto"].contains(String(beforeColon))
    }

    /// Whether a class is one code-block language class (`language-swift`).
    static func isLanguageClass(_ value: String) -> Bool {
        guard value.hasPrefix("language-"), value.count > 9, value.count <= 40 else { return false }
        return value.dropFirst(9).unicodeScalars.allSatisfy {
            ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || "+-_#".unicodeScalars.contains($0)
        }
    }
}
