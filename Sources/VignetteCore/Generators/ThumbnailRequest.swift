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

    /// Creates a request; the defaults give a 256-pixel thumbnail that is never enlarged.
    public init(maxPixelSize: Int = 256, scale: Int = 1, allowUpscale: Bool = false, iconMode: Bool = false) {
        self.maxPixelSize = maxPixelSize
        self.scale = scale
        self.allowUpscale = allowUpscale
        self.iconMode = iconMode
    }

    /// The box's side in pixels.
    public var targetPixels: Int { maxPixelSize * scale }

    /// The output size for a `width × height` image: longest side = target, aspect kept,
    /// never enlarged unless allowed, never below one pixel.
    public func outputSize(width: Int, height: Int) -> (width: Int, height: Int) {
        let longest = max(width, height)
        let target = targetPixels
        if longest <= target && !allowUpscale { return (width, height) }
        let s = Double(target) / Double(longest)
        return (max(1, Int((Double(width) * s).rounded())), max(1, Int((Double(height) * s).rounded())))
    }
}
