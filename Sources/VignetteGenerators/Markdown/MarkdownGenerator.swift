import Ink
public import VignetteCore

/// Previews of Markdown: HTML rendered by Ink and made safe by `HTMLSanitizer`; the text is the source.
public struct MarkdownGenerator: BuiltInGenerator, PreviewGenerating {
    /// `markdown`.
    public let identifier = "markdown"
    /// Markdown.
    public let supportedTypes = ["net.daringfireball.markdown"]
    /// Deepest block nesting (`>` quotes, list indentation) given to Ink, which recurses on it;
    /// deeper documents are shown as escaped source instead of rendered.
    public static let maxNesting = 32
    /// Deepest `[` nesting within a paragraph given to Ink, whose link parsing takes time
    /// exponential in it (16 unclosed `[` take seconds); deeper documents are shown as source.
    public static let maxBracketNesting = 8
    /// Most unclosed `<` (no `>` before the next `<`) in a paragraph given to Ink, whose HTML
    /// parsing takes time quadratic in them (20,000 take minutes); more are shown as source.
    public static let maxUnclosedAngles = 64

    /// Creates the generator.
    public init() {}

    /// `Markdown document, "First heading"` (or the line count when there is no heading).
    public func makePreview(for input: GeneratorInput, request: PreviewRequest) throws -> TextPreview {
        let excerpt = try TextExcerpt.read(input, request: request)
        try excerpt.declineIfBinary()
        let page = excerpt.page(maxLines: request.maxLines)
        let source = page.lines.joined(separator: "\n")
        var title = "Markdown document"
        var html: String
        if Self.nestingDepth(source) > Self.maxNesting || Self.bracketDepth(source) > Self.maxBracketNesting
            || Self.unclosedAngles(source) > Self.maxUnclosedAngles
        {
            html = page.html(language: "markdown")
            title += ", \(page.lineCountText) (too complex to render safely)"
        } else {
            let markdown = MarkdownParser().parse(Self.defusingUnclosedParagraphTags(source))
            html = HTMLSanitizer.sanitize(markdown.html)
            if let cutMarker = page.cutMarker { html += "\n<p class=\"vignette-cut\">\(HTML.escape(cutMarker))</p>\n" }
            if let heading = markdown.title.map(MarkupText.collapse), !heading.isEmpty {
                title += ", \"\(heading)\""
            } else {
                title += ", " + page.lineCountText
            }
        }
        if excerpt.hasUnusualEncoding { title += " (\(excerpt.encodingAndLineEnds))" }
        return TextPreview(title: title, text: page.text, html: html, truncated: page.truncated)
    }

    /// `source` with each `<p` that no `>` follows written `&lt;p`: Ink stops a paragraph at
    /// `<p` to read an HTML block, which cannot end without a `>`, so it would try again at the
    /// same place forever (a file ending `notes about <p` hung `vignette preview`; found by the
    /// `markdown` fuzz harness). Without a `>` it is no tag anyway, and shows as typed.
    static func defusingUnclosedParagraphTags(_ source: String) -> String {
        let utf8 = source.utf8
        let tail = utf8.lastIndex(of: UInt8(ascii: ">")).map { utf8.index(after: $0) } ?? utf8.startIndex
        var bytes = Array(utf8[..<tail])
        var rest = Array(utf8[tail...])
        guard rest.count > 1 else { return source }
        var i = 0
        var changed = false
        while i + 1 < rest.count {
            if rest[i] == UInt8(ascii: "<"), rest[i + 1] | 0x20 == UInt8(ascii: "p") {
                rest.replaceSubrange(i...i, with: Array("&lt;".utf8))
                changed = true
                i += 4
            } else {
                i += 1
            }
        }
        guard changed else { return source }
        bytes += rest
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The deepest nesting a line opens: `>` markers plus list-indent steps of two columns,
    /// counted up to a little past `maxNesting`.
    static func nestingDepth(_ source: String) -> Int {
        var deepest = 0
        for line in source.split(separator: "\n", omittingEmptySubsequences: true) {
            var depth = 0
            var indent = 0
            for ch in line.unicodeScalars {
                if ch == ">" {
                    depth += 1
                } else if ch == " " {
                    indent += 1
                } else if ch == "\t" {
                    indent += 4
                } else if ch == "-" || ch == "*" || ch == "+" {
                    depth += 1
                } else {
                    break
                }
                if depth + indent / 2 > maxNesting { return depth + indent / 2 }
            }
            deepest = max(deepest, depth + indent / 2)
        }
        return deepest
    }

    /// The deepest `[` nesting in any paragraph (a `]` closes one level; a blank line starts over).
    static func bracketDepth(_ source: String) -> Int {
        var deepest = 0
        var depth = 0
        var lineIsBlank = true
        for byte in source.utf8 {
            switch byte {
            case UInt8(ascii: "["):
                depth += 1
                deepest = max(deepest, depth)
                lineIsBlank = false
            case UInt8(ascii: "]"):
                depth = max(0, depth - 1)
                lineIsBlank = false
            case 0x0A:
                if lineIsBlank { depth = 0 }
                lineIsBlank = true
            case 0x20, 0x09:
                break
            default:
                lineIsBlank = false
            }
        }
        return deepest
    }

    /// The most `<` in one paragraph that no `>` follows before the next `<`.
    static func unclosedAngles(_ source: String) -> Int {
        var most = 0
        var count = 0
        var open = false
        var lineIsBlank = true
        for byte in source.utf8 {
            switch byte {
            case UInt8(ascii: "<"):
                if open { count += 1 }
                open = true
                lineIsBlank = false
            case UInt8(ascii: ">"):
                open = false
                lineIsBlank = false
            case 0x0A:
                if lineIsBlank {
                    most = max(most, count + (open ? 1 : 0))
                    count = 0
                    open = false
                }
                lineIsBlank = true
            case 0x20, 0x09:
                break
            default:
                lineIsBlank = false
            }
            most = max(most, count)
        }
        return max(most, count + (open ? 1 : 0))
    }
}
