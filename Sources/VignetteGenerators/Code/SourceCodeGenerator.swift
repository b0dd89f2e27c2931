public import VignetteCore

/// Previews of source code and scripts: the text, titled by language, in `<pre><code class="language-…">`.
public struct SourceCodeGenerator: BuiltInGenerator, PreviewGenerating {
    /// `source-code`.
    public let identifier = "source-code"
    /// Source code (scripts conform to it) and CSS.
    public let supportedTypes = ["public.source-code", "public.css"]

    /// Creates the generator.
    public init() {}

    /// The code, titled "Python script, 42 lines" (the encoding too when not ASCII or UTF-8).
    public func makePreview(for input: GeneratorInput, request: PreviewRequest) throws -> TextPreview {
        let excerpt = try TextExcerpt.read(input, request: request)
        try excerpt.declineIfBinary()
        let page = excerpt.page(maxLines: request.maxLines)
        var parts = [CountText.capitalizedFirst(input.type.localizedDescription)]
        if excerpt.hasUnusualEncoding { parts.append(excerpt.encodingAndLineEnds) }
        parts.append(input.size == 0 ? "empty" : page.lineCountText)
        let html = page.html(language: SourceLanguage.name(for: input.type))
        return TextPreview(title: parts.joined(separator: ", "), text: page.text, html: html, truncated: page.truncated)
    }
}
