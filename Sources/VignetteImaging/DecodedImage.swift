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

extension DecodedImage {
    /// This image with its colours converted to sRGB by `transform` (itself when there is none).
    func converted(by transform: ColorTransform?) -> DecodedImage {
        guard let transform else { return self }
        var bitmap = self.bitmap
        transform.apply(to: &bitmap)
        return DecodedImage(
            bitmap: bitmap, sourceWidth: sourceWidth, sourceHeight: sourceHeight, orientation: orientation, warnings: warnings)
    }
}
