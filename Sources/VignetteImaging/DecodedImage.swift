public import VignetteCore

/// A decoded, upright thumbnail-sized image and what the decoder had to say.
public struct DecodedImage: Sendable {
    /// The pixels, already turned upright.
    public let bitmap: Bitmap
    /// The full image's size as stored (before orientation).
    public let sourceWidth: Int, sourceHeight: Int
    /// The orientation that was applied.
    public let orientation: ImageOrientation
    /// Library warnings (e.g. "Premature end of JPEG file"): the image may be partial.
    public let warnings: [String]
}
