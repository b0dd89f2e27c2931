import VignetteCore

/// Lines of text cut to a preview's limits, with a visible marker wherever something was cut.
///
/// Lines longer than `maxLineLength` are cut and end with `… [line cut at 1,000 characters]`;
/// when lines are left out, a last line says so: `… cut: showing the first 2,000 of 58,112 lines`
/// (or `… cut: showing the first 65.5 KB of 2.1 GB` when the file was cut at the byte limit).
public struct TextPage: Sendable, Equatable {
    /// Longest line shown in full, in Unicode scalars.
    public static let maxLineLength = 1_000

    /// The lines shown, long ones cut and marked.
    public let lines: [String]
    /// Lines in the whole text; nil when the file was cut at the byte limit, so unknown.
    public let totalLines: Int?
    /// Lines in the text that was read (a lower bound on the file's when cut at the byte limit).
    public let linesRead: Int
    /// The marker line, when lines or bytes were left out.
    public let cutMarker: String?
    /// How many lines were cut at `maxLineLength`.
    public let longLinesCut: Int

    /// Splits `text` at LF, keeping at most `maxLines` lines; `byteCut` gives the bytes shown
    /// and the file's size when the text is only the start of the file; `knownLines` the line
    /// count when `text` was itself cut short by its maker (a pretty-printer that stopped writing).
    public init(_ text: String, maxLines: Int, byteCut: (shown: Int, total: Int)? = nil, knownLines: Int? = nil) {
        let limit = max(maxLines, 1)
        var lines: [String] = []
        var count = 0
        var longCut = 0
        let utf8 = text.utf8
        var start = utf8.startIndex
        while start < utf8.endIndex {
            let end = utf8[start...].firstIndex(of: 0x0A) ?? utf8.endIndex
            count += 1
            if count <= limit {
                let line = Substring(text[start..<end])
                if line.unicodeScalars.count > Self.maxLineLength {
                    longCut += 1
                    let kept = String(String.UnicodeScalarView(line.unicodeScalars.prefix(Self.maxLineLength)))
                    lines.append(kept + " … [line cut at \(CountText.grouped(Self.maxLineLength)) characters]")
                } else {
                    lines.append(String(line))
                }
            }
            start = end < utf8.endIndex ? utf8.index(after: end) : end
        }
        count = max(count, knownLines ?? 0)
        self.lines = lines
        self.linesRead = count
        self.longLinesCut = longCut
        self.totalLines = byteCut == nil ? count : nil
        let linesCut = count > limit
        if let byteCut {
            let size = ByteCount.text(byteCut.total)
            cutMarker =
                linesCut
                ? "… cut: showing the first \(CountText.grouped(limit)) lines of \(size)"
                : "… cut: showing the first \(ByteCount.text(byteCut.shown)) of \(size)"
        } else if linesCut {
            cutMarker = "… cut: showing the first \(CountText.grouped(limit)) of \(CountText.grouped(count)) lines"
        } else {
            cutMarker = nil
        }
    }

    /// Whether lines or bytes were left out.
    public var truncated: Bool { cutMarker != nil }

    /// "120 lines", or "1,234+ lines" when the file was cut at the byte limit.
    public var lineCountText: String {
        if let totalLines { return CountText.counted(totalLines, "line") }
        return "\(CountText.grouped(linesRead))+ lines"
    }

    /// The shown lines, then the marker line if any.
    public var text: String {
        var out = lines.joined(separator: "\n")
        if let cutMarker { out += (lines.isEmpty ? "" : "\n") + cutMarker }
        return out
    }

    /// The shown lines escaped in `<pre>` (inside `<code class="language-…">` when a language
    /// is given), then the marker as a `<p class="vignette-cut">`.
    public func html(language: String? = nil) -> String {
        let body = HTML.escape(lines.joined(separator: "\n"))
        var out: String
        if let language {
            out = "<pre class=\"vignette-text\"><code class=\"language-\(HTML.escape(language))\">\(body)</code></pre>\n"
        } else {
            out = "<pre class=\"vignette-text\">\(body)</pre>\n"
        }
        if let cutMarker { out += "<p class=\"vignette-cut\">\(HTML.escape(cutMarker))</p>\n" }
        return out
    }
}
