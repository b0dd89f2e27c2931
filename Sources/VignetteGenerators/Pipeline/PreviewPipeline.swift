public import VignetteCore

/// The one path from a file to a text preview that every edge takes (CLI, service, viewer page).
public struct PreviewPipeline: Sendable {
    /// The generators, and through them the type catalog.
    public let registry: GeneratorRegistry

    /// A pipeline over `registry`.
    public init(registry: GeneratorRegistry) {
        self.registry = registry
    }

    /// The preview of `input` from the best generator (the facts sheet at worst, unless `allowFallback` is false).
    public func render(_ input: GeneratorInput, request: PreviewRequest = PreviewRequest(), allowFallback: Bool = true) throws
        -> RenderedPreview
    {
        let (preview, generator, attempts) = try registry.preview(for: input, request: request, allowFallback: allowFallback)
        return RenderedPreview(
            input: input, preview: preview, generator: generator, attempts: attempts,
            mimeType: registry.catalog.preferredMIMEType(of: input.type))
    }
}

/// A preview as the pipeline made it, with how it came about.
public struct RenderedPreview: Sendable {
    /// The file it shows.
    public let input: GeneratorInput
    /// Title, text and HTML.
    public let preview: TextPreview
    /// The generator that answered.
    public let generator: String
    /// Every candidate tried, in order.
    public let attempts: [GeneratorRegistry.Attempt]
    /// The file's preferred MIME type.
    public let mimeType: String

    /// The generator failure that left only the facts sheet (an encrypted or damaged document),
    /// if that is what happened.
    public var problem: GeneratorRegistry.Attempt? {
        generator == "fallback" ? attempts.first(where: \.isProblem) : nil
    }

    /// The fields every JSON rendering carries: title, text, html, truncated, generator, type.
    public var jsonFields: [String: Any] {
        [
            "title": preview.title, "text": preview.text, "html": preview.html, "truncated": preview.truncated,
            "generator": generator, "type": input.type.identifier,
        ]
    }
}
