/// How a thumbnail meets its square box.
public enum ThumbnailCrop: String, Sendable, CaseIterable {
    /// The whole picture inside the box, aspect kept (the longest side is the box's).
    case fit
    /// The box covered exactly, the picture centred and its overflow cut off.
    case fill
    /// The box covered exactly, the window chosen where the picture is most interesting.
    case smart
}

/// What a thumbnail should look like: the box it fits in and how it may be scaled.
public struct ThumbnailRequest: Sendable, Equatable {
    /// The longest side in points (the box is `maxPixelSize × scale` pixels square).
    public var maxPixelSize: Int
    /// Pixels per point (2 for @2x displays).
    public var scale: Int
    /// Whether an image smaller than the box is enlarged to fill it.
    public var allowUpscale: Bool
    /// Whether the result is decorated as an icon (a page frame and the extension as a badge).
    public var iconMode: Bool
    /// Fit inside the box, or cover it and crop (`fill`, `smart`).
    public var crop: ThumbnailCrop

    /// The longest side a covering picture may have, in boxes: a panorama is cut, not blown up.
    public static let maxCoverRatio = 4

    /// Creates a request; the defaults give a 256-pixel thumbnail that is never enlarged.
    public init(
        maxPixelSize: Int = 256, scale: Int = 1, allowUpscale: Bool = false, iconMode: Bool = false, crop: ThumbnailCrop = .fit
    ) {
        self.maxPixelSize = maxPixelSize
        self.scale = scale
        self.allowUpscale = allowUpscale
        self.iconMode = iconMode
        self.crop = crop
    }

    /// The box's side in pixels.
    public var targetPixels: Int { maxPixelSize * scale }

    /// The output size for a `width × height` image: for `fit`, longest side = target; for the
    /// crops, shortest side = target (the picture covers the box; the pipeline cuts it), the
    /// longest at most `maxCoverRatio` boxes. Aspect kept, never enlarged unless allowed, never
    /// below one pixel.
    public func outputSize(width: Int, height: Int) -> (width: Int, height: Int) {
        let target = targetPixels
        let edge = crop == .fit ? max(width, height) : min(width, height)
        if edge <= target && !allowUpscale { return (width, height) }
        var s = Double(target) / Double(edge)
        if crop != .fit {
            s = min(s, Double(target * Self.maxCoverRatio) / Double(max(width, height)))
        }
        return (max(1, Int((Double(width) * s).rounded())), max(1, Int((Double(height) * s).rounded())))
    }
}
