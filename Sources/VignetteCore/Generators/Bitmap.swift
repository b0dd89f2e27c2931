/// An 8-bit RGBA image in memory (straight, not premultiplied, alpha), rows top to bottom.
public struct Bitmap: Sendable, Equatable {
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// RGBA bytes, `width * 4` per row, no padding.
    public var pixels: [UInt8]

    /// Creates a bitmap filled with transparent black.
    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
        self.pixels = [UInt8](repeating: 0, count: width * height * 4)
    }

    /// Creates a bitmap over existing RGBA bytes (`width * height * 4` of them).
    public init(width: Int, height: Int, pixels: [UInt8]) {
        precondition(pixels.count == width * height * 4, "RGBA buffer size does not match \(width)×\(height)")
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// Whether any pixel is not fully opaque.
    public var hasTransparency: Bool {
        var i = 3
        while i < pixels.count {
            if pixels[i] != 255 { return true }
            i += 4
        }
        return false
    }

    /// The pixels without alpha (RGB, 3 bytes per pixel), composited over `background`.
    public func rgb(over background: (UInt8, UInt8, UInt8) = (255, 255, 255)) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: width * height * 3)
        out.withUnsafeMutableBufferPointer { dst in
            pixels.withUnsafeBufferPointer { src in
                for p in 0..<(width * height) {
                    let a = UInt32(src[p * 4 + 3])
                    let inv = 255 - a
                    dst[p * 3] = UInt8((UInt32(src[p * 4]) * a + UInt32(background.0) * inv + 127) / 255)
                    dst[p * 3 + 1] = UInt8((UInt32(src[p * 4 + 1]) * a + UInt32(background.1) * inv + 127) / 255)
                    dst[p * 3 + 2] = UInt8((UInt32(src[p * 4 + 2]) * a + UInt32(background.2) * inv + 127) / 255)
                }
            }
        }
        return out
    }
}
