extension Canvas {
    /// Draws one line of `text` in `font` at `size` pixels per em, the pen starting at `x` on
    /// baseline `baseline`, touching only columns in `clip` (the whole width by default);
    /// glyphs that start past the clip are not drawn. Returns where the pen ended.
    @discardableResult
    public mutating func drawText(
        _ text: String, font: FontFace, size: Int, x: Double, baseline: Int, color: Color,
        clip: Range<Int>? = nil
    ) throws -> Double {
        let scalars = text.unicodeScalars.map(\.value)
        let w = width, h = height
        let range = clip ?? 0..<w
        return try bitmap.pixels.withUnsafeMutableBufferPointer { p in
            try font.draw(
                scalars, size: size, into: p, width: w, height: h, x: x, y: baseline,
                color: [color.r, color.g, color.b, color.a], clip: range)
        }
    }

    /// The advance of `text` in `font` at `size` pixels per em.
    public func measure(_ text: String, font: FontFace, size: Int) throws -> Double {
        try font.measure(text, size: size)
    }

    /// The largest size (≤ `maxSize`, ≥ `minSize`) at which `text` fits in `width` pixels.
    public static func fittingSize(_ text: String, font: FontFace, width: Double, maxSize: Int, minSize: Int = 1) throws -> Int {
        var size = max(maxSize, minSize)
        let measured = try font.measure(text, size: size)
        guard measured > width, measured > 0 else { return size }
        // Advances scale almost linearly; start from the estimate, then step down past hinting rounding.
        size = max(minSize, min(size, Int(Double(size) * width / measured)))
        while size > minSize, try font.measure(text, size: size) > width { size -= 1 }
        return size
    }
}
