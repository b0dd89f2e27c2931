public import VignetteCore

/// A generator compiled into Vignette: origin `built-in`, standard priority and no caps,
/// unless the generator says otherwise.
public protocol BuiltInGenerator: Generator {}

extension BuiltInGenerator {
    /// Compiled into Vignette.
    public var origin: String { "built-in" }
    /// The ordinary built-in generator for its types.
    public var priority: GeneratorPriority { .standard }
    /// None: the generator bounds what it reads itself.
    public var limits: GeneratorLimits { .none }
    // Without these, a built-in that only writes previews would answer `asThumbnailGenerator`
    // with `Generator`'s dynamic cast: a scan of every conformance record in the program.
    /// None, unless the generator draws thumbnails.
    public var asThumbnailGenerator: (any ThumbnailGenerating)? { nil }
    /// None, unless the generator writes previews.
    public var asPreviewGenerator: (any PreviewGenerating)? { nil }
}

extension BuiltInGenerator where Self: ThumbnailGenerating {
    /// The generator itself.
    public var asThumbnailGenerator: (any ThumbnailGenerating)? { self }
}

extension BuiltInGenerator where Self: PreviewGenerating {
    /// The generator itself.
    public var asPreviewGenerator: (any PreviewGenerating)? { self }
}
