public import VignetteCore

/// EXIF orientation (TIFF tag 274): how the stored pixels must be turned to be upright.
public enum ImageOrientation: Int, Sendable, CaseIterable {
    /// Stored upright.
    case up = 1
    /// Mirrored left to right.
    case upMirrored = 2
    /// Upside down.
    case down = 3
    /// Mirrored top to bottom.
    case downMirrored = 4
    /// Mirrored along the top-left to bottom-right diagonal.
    case leftMirrored = 5
    /// Needs a clockwise quarter turn.
    case right = 6
    /// Mirrored along the top-right to bottom-left diagonal.
    case rightMirrored = 7
    /// Needs a counter-clockwise quarter turn.
    case left = 8

    /// The orientation for an EXIF value; anything outside 1–8 means upright.
    public init(exif value: Int) {
        self = ImageOrientation(rawValue: value) ?? .up
    }

    /// Whether width and height trade places.
    public var swapsDimensions: Bool { rawValue >= 5 }
}

extension Bitmap {
    /// The bitmap turned upright according to `orientation`.
    public func applying(_ orientation: ImageOrientation) -> Bitmap {
        if orientation == .up { return self }
        let w = width
        let h = height
        let outW = orientation.swapsDimensions ? h : w
        let outH = orientation.swapsDimensions ? w : h
        var out = Bitmap(width: outW, height: outH)
        out.pixels.withUnsafeMutableBytes { dstRaw in
            pixels.withUnsafeBytes { srcRaw in
                let src = srcRaw.bindMemory(to: UInt32.self)
                let dst = dstRaw.bindMemory(to: UInt32.self)
                for y in 0..<outH {
                    for x in 0..<outW {
                        // (sx, sy): the stored pixel that lands at (x, y) once upright.
                        let (sx, sy): (Int, Int)
                        switch orientation {
                        case .up: (sx, sy) = (x, y)
                        case .upMirrored: (sx, sy) = (w - 1 - x, y)
                        case .down: (sx, sy) = (w - 1 - x, h - 1 - y)
                        case .downMirrored: (sx, sy) = (x, h - 1 - y)
                        case .leftMirrored: (sx, sy) = (y, x)
                        case .right: (sx, sy) = (y, h - 1 - x)
                        case .rightMirrored: (sx, sy) = (w - 1 - y, h - 1 - x)
                        case .left: (sx, sy) = (w - 1 - y, x)
                        }
                        dst[y * outW + x] = src[sy * w + sx]
                    }
                }
            }
        }
        return out
    }
}
