public import VignetteCore

/// An RGBA drawing surface over a `Bitmap`: fills, anti-aliased rectangles, rounded
/// rectangles and polygons, coverage masks and text, all composited "over" in straight alpha.
///
/// Coordinates are in pixels with (0, 0) at the top-left corner of the top-left pixel, so a
/// rectangle from 0 to 10 covers pixels 0…9 exactly; fractional edges get partial coverage.
public struct Canvas: Sendable {
    /// The pixels drawn so far.
    public var bitmap: Bitmap

    /// A colour with straight alpha.
    public struct Color: Sendable, Equatable {
        /// Red.
        public var r: UInt8
        /// Green.
        public var g: UInt8
        /// Blue.
        public var b: UInt8
        /// Alpha (255 opaque).
        public var a: UInt8

        /// Creates a colour.
        public init(_ r: UInt8, _ g: UInt8, _ b: UInt8, _ a: UInt8 = 255) {
            self.r = r
            self.g = g
            self.b = b
            self.a = a
        }

        /// Creates an opaque colour from an RGB triple.
        public init(_ rgb: (UInt8, UInt8, UInt8), alpha: UInt8 = 255) {
            self.init(rgb.0, rgb.1, rgb.2, alpha)
        }

        /// The same colour with another alpha.
        public func with(alpha: UInt8) -> Color { Color(r, g, b, alpha) }

        /// The colour mixed towards `other` by `t` (0 keeps it, 1 gives `other`); alpha kept.
        public func mixed(with other: Color, _ t: Double) -> Color {
            let k = min(max(t, 0), 1)
            func mix(_ x: UInt8, _ y: UInt8) -> UInt8 { UInt8((Double(x) * (1 - k) + Double(y) * k).rounded()) }
            return Color(mix(r, other.r), mix(g, other.g), mix(b, other.b), a)
        }

        /// Opaque white.
        public static let white = Color(255, 255, 255)
        /// Opaque black.
        public static let black = Color(0, 0, 0)
        /// Fully transparent.
        public static let clear = Color(0, 0, 0, 0)
    }

    /// Width in pixels.
    public var width: Int { bitmap.width }
    /// Height in pixels.
    public var height: Int { bitmap.height }

    /// A `width × height` canvas filled with `background` (transparent by default).
    public init(width: Int, height: Int, background: Color = .clear) {
        bitmap = Bitmap(width: max(1, width), height: max(1, height))
        if background != .clear { fill(background) }
    }

    /// A canvas drawing over an existing bitmap.
    public init(bitmap: Bitmap) {
        self.bitmap = bitmap
    }

    /// Replaces every pixel with `color`.
    public mutating func fill(_ color: Color) {
        let px = [color.r, color.g, color.b, color.a]
        bitmap.pixels.withUnsafeMutableBufferPointer { p in
            var i = 0
            while i + 3 < p.count {
                p[i] = px[0]; p[i + 1] = px[1]; p[i + 2] = px[2]; p[i + 3] = px[3]
                i += 4
            }
        }
    }

    /// Composites `color` over pixel (x, y) with extra `coverage` (0…1); outside pixels are ignored.
    public mutating func blend(x: Int, y: Int, color: Color, coverage: Double) {
        guard x >= 0, y >= 0, x < width, y < height else { return }
        let a = Int((Double(color.a) * min(max(coverage, 0), 1)).rounded())
        guard a > 0 else { return }
        let i = (y * width + x) * 4
        bitmap.pixels.withUnsafeMutableBufferPointer { p in
            Canvas.over(p, i, color, a)
        }
    }

    @inline(__always)
    static func over(_ p: UnsafeMutableBufferPointer<UInt8>, _ i: Int, _ c: Color, _ a: Int) {
        let da = Int(p[i + 3])
        if da == 255 || a == 255 {
            let inv = 255 - a
            p[i] = UInt8((Int(p[i]) * inv + Int(c.r) * a + 127) / 255)
            p[i + 1] = UInt8((Int(p[i + 1]) * inv + Int(c.g) * a + 127) / 255)
            p[i + 2] = UInt8((Int(p[i + 2]) * inv + Int(c.b) * a + 127) / 255)
            p[i + 3] = UInt8(a == 255 ? 255 : da)
            return
        }
        // Straight alpha: weight each colour by its alpha, then divide the sum back out.
        let d = da * (255 - a) / 255
        let oa = a + d
        guard oa > 0 else { return }
        p[i] = UInt8((Int(c.r) * a + Int(p[i]) * d + oa / 2) / oa)
        p[i + 1] = UInt8((Int(c.g) * a + Int(p[i + 1]) * d + oa / 2) / oa)
        p[i + 2] = UInt8((Int(c.b) * a + Int(p[i + 2]) * d + oa / 2) / oa)
        p[i + 3] = UInt8(oa)
    }

    /// Composites `color` over every pixel of the box `x0..<x1 × y0..<y1` (clipped), weighted by
    /// `coverage(px, py)` at each pixel centre (0…1). `solid(y)`, when given, names the columns of
    /// row `y` known to be fully covered: they are filled without calling `coverage` (large shapes
    /// cost a closure call only along their edges).
    public mutating func fill(
        x0: Int, y0: Int, x1: Int, y1: Int, color: Color, solid: ((Int) -> Range<Int>?)? = nil,
        coverage: (Double, Double) -> Double
    ) {
        let xa = max(0, x0), xb = min(width, x1), ya = max(0, y0), yb = min(height, y1)
        guard xa < xb, ya < yb, color.a > 0 else { return }
        let w = width
        let full = Int(color.a)
        bitmap.pixels.withUnsafeMutableBufferPointer { p in
            for y in ya..<yb {
                let span = solid?(y)?.clamped(to: xa..<xb) ?? xa..<xa
                var x = xa
                while x < xb {
                    if x == span.lowerBound && !span.isEmpty {
                        if full == 255 {
                            for sx in span {
                                let i = (y * w + sx) * 4
                                p[i] = color.r; p[i + 1] = color.g; p[i + 2] = color.b; p[i + 3] = 255
                            }
                        } else {
                            for sx in span { Canvas.over(p, (y * w + sx) * 4, color, full) }
                        }
                        x = span.upperBound
                        continue
                    }
                    let c = coverage(Double(x) + 0.5, Double(y) + 0.5)
                    if c > 0 {
                        let a = Int((Double(color.a) * min(c, 1)).rounded())
                        if a > 0 { Canvas.over(p, (y * w + x) * 4, color, a) }
                    }
                    x += 1
                }
            }
        }
    }

    /// Blends an 8-bit coverage mask (`maskWidth` bytes a row) in `color` with its top-left at (x, y).
    public mutating func blend(mask: [UInt8], maskWidth: Int, x: Int, y: Int, color: Color) {
        guard maskWidth > 0 else { return }
        let maskHeight = mask.count / maskWidth
        let w = width, h = height
        bitmap.pixels.withUnsafeMutableBufferPointer { p in
            for my in 0..<maskHeight where y + my >= 0 && y + my < h {
                for mx in 0..<maskWidth where x + mx >= 0 && x + mx < w {
                    let a = Int(mask[my * maskWidth + mx]) * Int(color.a) / 255
                    if a > 0 { Canvas.over(p, ((y + my) * w + x + mx) * 4, color, a) }
                }
            }
        }
    }

    /// Copies `image` onto the canvas with its top-left at (x, y), composited over (clipped).
    public mutating func draw(_ image: Bitmap, x: Int, y: Int) {
        let w = width, h = height
        bitmap.pixels.withUnsafeMutableBufferPointer { p in
            image.pixels.withUnsafeBufferPointer { s in
                for iy in 0..<image.height where y + iy >= 0 && y + iy < h {
                    for ix in 0..<image.width where x + ix >= 0 && x + ix < w {
                        let si = (iy * image.width + ix) * 4
                        let a = Int(s[si + 3])
                        if a > 0 { Canvas.over(p, ((y + iy) * w + x + ix) * 4, Color(s[si], s[si + 1], s[si + 2]), a) }
                    }
                }
            }
        }
    }
}
