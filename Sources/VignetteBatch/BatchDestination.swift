public import VignetteCache
public import VignetteCore
public import VignetteGenerators

/// Where a batch puts thumbnails.
public enum BatchDestination: Sendable {
    /// The freedesktop cache, in one or more flavors (several come from one decode).
    case cache(ThumbnailCache, [ThumbnailFlavor])
    /// A folder mirroring the input tree: `DIR/REL.png` (or `.jpg`, `.webp`, `.avif`), at a size,
    /// format, quality and crop.
    case folder(String, size: Int, output: ThumbnailOutput, crop: ThumbnailCrop)
}
