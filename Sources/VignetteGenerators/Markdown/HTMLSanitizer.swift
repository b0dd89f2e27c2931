import VignetteCore

/// Makes HTML safe to put in the viewer page by keeping only known-harmless markup: the one
/// sanitizer for every generator's HTML (Markdown, and external `html` generators).
///
/// What it does, explicitly:
/// - Elements outside `allowedElements` lose their tags (their text stays, escaped as needed);
///   `script`, `style`, `iframe`, `object`, `embed`, `svg`, `math`, `template`, `noscript`,
///   `textarea`, `select`, `form`, `frameset` and `title` lose their content too.
/// - Kept elements keep only the attributes listed for them in `allowedAttributes`; every `on…`
///   handler and `srcset` is therefore dropped. `style` keeps only colours, backgrounds and
///   sizes with plain values (`background:#ff5e5b;width:4em`): no `url(…)`, no positioning.
/// - `href` survives only with no scheme (relative links, `#anchors`) or `http`, `https`,
///   `mailto`, checked after decoding entities and removing white space and control characters,
///   so `java&#115;cript:` and `jav\tascript:` are dropped as well.
/// - `src` survives only when the page would fetch nothing with it from elsewhere: a relative
///   address or a `data:image/…` URI; `http:`, `https:`, protocol-relative `//…` (a tracking
///   pixel in a page meant to be mailed) and every other scheme are dropped.
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
        "*": ["title", "class", "style"], "a": ["href"], "img": ["src", "alt", "width", "height"],
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
            case "href": guard isSafeURL(value) else { continue }
            case "src": guard isLocalSource(value) else { continue }
            case "class": guard isLanguageClass(value) else { continue }
            default: break
            }
            var kept = value
            if name == "style" {
                guard let style = safeStyle(value) else { continue }
                kept = style
            }
            seen.insert(name)
            out += " \(name)=\"\(HTML.escape(kept))\""
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

    /// CSS properties a `style` may keep.
    static let allowedStyleProperties: Set<String> = [
        "background", "background-color", "color", "width", "height", "text-align", "font-weight", "font-style",
    ]

    /// The declarations of `style` whose property is allowed and whose value is a plain colour,
    /// length or keyword (nothing that could fetch or escape: no `url(`, quotes, `\`, `@`…); nil when none is left.
    static func safeStyle(_ style: String) -> String? {
        let kept = style.split(separator: ";").compactMap { declaration -> String? in
            let parts = declaration.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard parts.count == 2, allowedStyleProperties.contains(parts[0].lowercased()) else { return nil }
            let value = parts[1]
            guard !value.isEmpty, value.count <= 40,
                value.unicodeScalars.allSatisfy({
                    ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || "#.%- ".unicodeScalars.contains($0)
                })
            else { return nil }
            return parts[0].lowercased() + ":" + value
        }
        return kept.isEmpty ? nil : kept.joined(separator: ";")
    }

    /// Whether an image address fetches nothing from elsewhere: relative (not `//host`), or an inline `data:image/` URI.
    static func isLocalSource(_ value: String) -> Bool {
        let compact = String(value.unicodeScalars.filter { $0.value > 0x20 && $0.value != 0x7F }.map(Character.init)).lowercased()
        if compact.hasPrefix("//") || compact.hasPrefix("\\\\") || compact.hasPrefix("/\\") || compact.hasPrefix("\\/") { return false }
        if compact.hasPrefix("data:image/") { return true }
        guard let colon = compact.firstIndex(of: ":") else { return true }
        return compact[..<colon].contains { $0 == "/" || $0 == "?" || $0 == "#" }
    }

    /// Whether a class is one code-block language class (`language-swift`).
    static func isLanguageClass(_ value: String) -> Bool {
        guard value.hasPrefix("language-"), value.count > 9, value.count <= 40 else { return false }
        return value.dropFirst(9).unicodeScalars.allSatisfy {
            ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || "+-_#".unicodeScalars.contains($0)
        }
    }
}
