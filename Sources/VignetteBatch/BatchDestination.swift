public import VignetteCache
public import VignetteGenerators

/// Where a batch puts thumbnails.
public enum BatchDestination: Sendable {
    /// The freedesktop cache, in one flavor.
    case cache(ThumbnailCache, ThumbnailFlavor)
    /// A folder mirroring the input tree: `DIR/REL.png` (or `.jpg`), at a size, format and quality.
    case folder(String, size: Int, output: ThumbnailOutput)
}
