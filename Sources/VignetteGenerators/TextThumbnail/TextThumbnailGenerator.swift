public import VignetteCore
public import VignetteImaging

/// Thumbnails of text files: a white A4-portrait page showing the first lines of the file.
///
/// Why A4 portrait: it reads at once as "a document", matches the fallback icon's page, and
/// text is taller than it is wide. Code and structured text (JSON, XML, CSV, YAML, logs…)
/// are set in DejaVu Sans Mono, prose (plain text, Markdown and the like) in DejaVu Sans.
/// The layout is fixed in page units (about 30 lines a page) so every size is a miniature of
/// the same page (drawn on a `PageSheet`). Characters DejaVu lacks (CJK, for instance) are drawn
/// in the system font fontconfig picks for them (`FontFallback`), as a box when none has them;
/// there is no complex-script shaping.
public struct TextThumbnailGenerator: BuiltInGenerator, ThumbnailGenerating {
    /// `text-thumbnail`.
    public let identifier = "text-thumbnail"
    /// All text.
    public let supportedTypes = ["public.text"]
    /// None: only the first bytes are read.
    public let limits = GeneratorLimits.none
    private let catalog: TypeCatalog

    /// Bytes read from the start of the file (a page never shows more).
    public static let sampleBytes = 16 << 10
    /// Page width over height (A4 portrait).
    public static let aspect = 210.0 / 297.0
    /// Lines on a page: the font size is the page height over this.
    static let linesPerPage = 30.0
    /// Types set in the proportional font; every other text is set in monospace.
    public static let proseTypes: Set<String> = [
        "public.text", "public.plain-text", "public.utf8-plain-text", "public.utf16-plain-text",
        "public.utf16-external-plain-text", "net.daringfireball.markdown", "org.docutils.restructuredtext",
        "org.asciidoc.asciidoc", "org.orgmode.org",
    ]

    /// Creates the generator over a catalog.
    public init(catalog: TypeCatalog) {
        self.catalog = catalog
    }

    /// Whether `type` is set in monospace (everything but prose).
    public func usesMonospace(_ type: UniformType) -> Bool {
        !Self.proseTypes.contains(type.identifier)
    }

    /// The page with the file's first lines.
    public func makeThumbnail(for input: GeneratorInput, request: ThumbnailRequest) throws -> GeneratedThumbnail {
        let bytes = try input.prefix(Self.sampleBytes)
        let decoded = TextDecoder.decode(bytes[...], complete: input.size <= bytes.count)
        let mono = usesMonospace(input.type)
        let font = try SystemFonts.face(mono ? .mono : .sans)
        let bitmap = try Self.page(text: decoded.text, font: font, monospace: mono, targetPixels: request.targetPixels)
        var warnings: [String] = []
        if decoded.hadInvalidBytes { warnings.append("some bytes are not valid \(decoded.encoding.rawValue) and are shown as U+FFFD") }
        return GeneratedThumbnail(bitmap: bitmap, warnings: warnings)
    }

    /// A page `targetPixels` tall (at least 16) showing the first lines of `text` in `font`.
    public static func page(text: String, font: FontFace, monospace: Bool, targetPixels: Int) throws -> Bitmap {
        var sheet = PageSheet(targetPixels: targetPixels, aspect: aspect, linesPerPage: linesPerPage)
        let W = sheet.canvas.width, H = sheet.canvas.height
        let size = max(1, Int((Double(H) / linesPerPage).rounded()))
        let metrics = try font.metrics(size: size)
        let lineHeight = max(1, (metrics.lineHeight * 1.05).rounded())
        let marginX = (Double(W) * 0.08).rounded(), marginTop = (Double(H) * 0.055).rounded()
        let clip = Int(marginX)..<(W - Int(marginX) + 1)
        let usable = Double(H) - 2 * marginTop
        let lineCount = max(1, Int(usable / lineHeight))
        let advance = max(1, try font.measure("0", size: size))
        // Proportional text is cut at the clip; this only bounds the work per line.
        let columns = Int(Double(clip.count) / (monospace ? advance : advance * 0.5)) + 2
        let lines = TextPageLines.lines(of: text, maxLines: lineCount, maxColumns: columns, tabWidth: monospace ? 4 : 8)
        let ink = Canvas.Color(0x24, 0x29, 0x2F)
        var baseline = marginTop + metrics.ascender
        for line in lines {
            if !line.isEmpty {
                try sheet.canvas.drawText(
                    line, font: font, size: size, x: marginX, baseline: Int(baseline.rounded()), color: ink, clip: clip)
            }
            baseline += lineHeight
        }
        return sheet.finished()
    }
}
