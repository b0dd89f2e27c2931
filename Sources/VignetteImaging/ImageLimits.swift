/// Caps applied before any pixel memory is allocated.
public struct ImageLimits: Sendable, Equatable {
    /// Most pixels (width × height from the header) an image may have; 100 MP by default.
    public var maxPixels: Int
    /// Largest input file in bytes; 512 MiB by default.
    public var maxFileBytes: Int

    /// Creates limits.
    public init(maxPixels: Int = 100_000_000, maxFileBytes: Int = 512 << 20) {
        self.maxPixels = maxPixels
        self.maxFileBytes = maxFileBytes
    }

    /// The default limits.
    public static let standard = ImageLimits()
}
