public import VignetteCore

/// Previews of any text without a more specific generator: decoded, cut to the request, in `<pre>`.
public struct PlainTextGenerator: BuiltInGenerator, PreviewGenerating {
    /// `text`.
    public let identifier = "text"
    /// Every text: more specific generators win for their own types.
    public let supportedTypes = ["public.text"]

    /// Creates the generator.
    public init() {}

    /// The decoded text, titled "Plain text, UTF-8, 120 lines"; declines binary-looking data.
    public func makePreview(for input: GeneratorInput, request: PreviewRequest) throws -> TextPreview {
        let excerpt = try TextExcerpt.read(input, request: request)
        try excerpt.declineIfBinary()
        let page = excerpt.page(maxLines: request.maxLines)
        let title = input.size == 0 ? "Plain text, empty" : "Plain text, \(excerpt.encodingAndLineEnds), \(page.lineCountText)"
        return TextPreview(title: title, text: page.text, html: page.html(), truncated: page.truncated)
    }
}
