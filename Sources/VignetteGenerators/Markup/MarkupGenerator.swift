public import VignetteCore

/// Previews of HTML and XML: the visible text, and the source escaped in `<pre>` (never live HTML).
public struct MarkupGenerator: BuiltInGenerator, PreviewGenerating {
    /// `markup`.
    public let identifier = "markup"
    /// HTML and XML (feeds, XHTML, SVG and other XML formats without a generator of their own).
    public let supportedTypes = ["public.html", "public.xml"]

    private let catalog: TypeCatalog

    /// Creates the generator over a catalog (to tell HTML from other XML by conformance).
    public init(catalog: TypeCatalog) {
        self.catalog = catalog
    }

    /// `HTML document, "Page title"` with the visible text as text and the source as HTML.
    public func makePreview(for input: GeneratorInput, request: PreviewRequest) throws -> TextPreview {
        let excerpt = try TextExcerpt.read(input, request: request)
        try excerpt.declineIfBinary()
        let isHTML = catalog.conforms(input.type, to: "public.html") || catalog.conforms(input.type, to: "public.xhtml")
        let extracted = MarkupText(excerpt.text, html: isHTML)
        // An XML document of attributes only (a drawing, say) has no text: show its source instead.
        let shownText = extracted.text.isEmpty ? excerpt.text : extracted.text
        let visible = TextPage(
            shownText, maxLines: request.maxLines, byteCut: excerpt.cutAtBytes ? (excerpt.bytesShown, excerpt.fileSize) : nil)
        let source = excerpt.page(maxLines: request.maxLines)
        var title = CountText.capitalizedFirst(input.type.localizedDescription)
        if let heading = extracted.title {
            title += ", \"\(heading)\""
        } else {
            title += ", " + source.lineCountText
        }
        if excerpt.hasUnusualEncoding { title += " (\(excerpt.encodingAndLineEnds))" }
        return TextPreview(
            title: title, text: visible.text, html: source.html(language: isHTML ? "html" : "xml"),
            truncated: visible.truncated || source.truncated)
    }
}
