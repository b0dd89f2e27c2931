/// A size class of the freedesktop thumbnail cache: its directory name and the box thumbnails fit in.
public enum ThumbnailFlavor: String, Sendable, CaseIterable {
    /// 128 × 128.
    case normal
    /// 256 × 256.
    case large
    /// 512 × 512.
    case xLarge = "x-large"
    /// 1024 × 1024.
    case xxLarge = "xx-large"

    /// The longest side of a thumbnail of this flavor, in pixels.
    public var pixelSize: Int {
        switch self {
        case .normal: 128
        case .large: 256
        case .xLarge: 512
        case .xxLarge: 1024
        }
    }
}
