/// An 8-bit RGBA image in memory, rows top to bottom.
public struct Bitmap: Sendable {
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// RGBA bytes, `width * 4` per row.
    public var pixels: [UInt8]

    /// Creates a bitmap filled with transparent black.
    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
        self.pixels = [UInt8](repeating: 0, count: width * height * 4)
    }
}
