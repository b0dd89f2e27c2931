import VignetteCache
import VignetteImaging

/// Where a batch puts thumbnails.
enum BatchDestination: Sendable {
    /// The freedesktop cache, in one flavor.
    case cache(ThumbnailCache, ThumbnailFlavor)
    /// A folder mirroring the input tree: `DIR/REL.png` (or `.jpg`), at a size and format.
    case folder(String, size: Int, format: ImageFormat, quality: Int)
}
