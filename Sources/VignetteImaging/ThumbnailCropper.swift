public import VignetteCore

/// Cuts a rendered thumbnail to its box (square, or any rectangle): centred (`fill`) or where the picture is most
/// interesting (`smart`).
///
/// It works on the thumbnail, not the original: the decoder already shrank the picture until
/// it just covers the box (`ThumbnailRequest.outputSize`), so the attention map costs a few
/// tens of thousands of pixels. A picture that does not cover the box (a generator that only
/// fits, a tiny image) is first enlarged to cover it.
public enum ThumbnailCropper {
    /// `bitmap` cut to `box × box` pixels by `mode` (`fit` returns it unchanged).
    public static func crop(_ bitmap: Bitmap, box: Int, mode: ThumbnailCrop) -> Bitmap {
        crop(bitmap, width: box, height: box, mode: mode)
    }

    /// `bitmap` cut to `width × height` pixels by `mode` (`fit` returns it unchanged).
    ///
    /// The picture is first scaled until it just covers the box (one side the box's, the other
    /// at least): a rendering that covers the square of the longer side is shrunk to it, one
    /// that does not cover is enlarged.
    public static func crop(_ bitmap: Bitmap, width: Int, height: Int, mode: ThumbnailCrop) -> Bitmap {
        guard mode != .fit, width > 0, height > 0, bitmap.width > 0, bitmap.height > 0 else { return bitmap }
        let covered = cover(bitmap, width: width, height: height)
        let (x, y) =
            mode == .smart
            ? attentionWindow(covered, width: width, height: height) : ((covered.width - width) / 2, (covered.height - height) / 2)
        return cut(covered, x: x, y: y, width: width, height: height)
    }

    /// The bitmap scaled so that it just covers `width × height` (unchanged when it already does:
    /// both sides at least the box's and one of them equal to it).
    static func cover(_ bitmap: Bitmap, width: Int, height: Int) -> Bitmap {
        let covers = bitmap.width >= width && bitmap.height >= height
        if covers && (bitmap.width == width || bitmap.height == height) { return bitmap }
        let s = max(Double(width) / Double(bitmap.width), Double(height) / Double(bitmap.height))
        let w = max(width, Int((Double(bitmap.width) * s).rounded()))
        let h = max(height, Int((Double(bitmap.height) * s).rounded()))
        return bitmap.resized(width: w, height: h)
    }

    /// A `width × height` window of `bitmap` at (`x`, `y`).
    static func cut(_ bitmap: Bitmap, x: Int, y: Int, width: Int, height: Int) -> Bitmap {
        var out = [UInt8](repeating: 0, count: width * height * 4)
        for row in 0..<height {
            let from = ((y + row) * bitmap.width + x) * 4
            out.replaceSubrange((row * width * 4)..<((row + 1) * width * 4), with: bitmap.pixels[from..<(from + width * 4)])
        }
        return Bitmap(width: width, height: height, pixels: out)
    }

    /// The top-left corner of the `box × box` window with the most attention.
    static func attentionWindow(_ bitmap: Bitmap, box: Int) -> (x: Int, y: Int) {
        attentionWindow(bitmap, width: box, height: box)
    }

    /// The top-left corner of the `width × height` window with the most attention.
    ///
    /// The measure follows libvips' `attention` strategy: edges (the absolute Laplacian of
    /// luma), saturated colour, and skin tones each add to a pixel's score; transparent pixels
    /// score nothing. The picture covers the box, so the window slides along one axis only;
    /// ties go to the window nearest the centre.
    static func attentionWindow(_ bitmap: Bitmap, width: Int, height: Int) -> (x: Int, y: Int) {
        let w = bitmap.width
        let h = bitmap.height
        let score = attention(bitmap)
        let horizontal = w - width > h - height
        let window = horizontal ? width : height
        let positions = (horizontal ? w - width : h - height) + 1
        guard positions > 1 else { return ((w - width) / 2, (h - height) / 2) }
        // Sum of each column (or row) over the window's other axis, then a sliding sum.
        var line = [Double](repeating: 0, count: horizontal ? w : h)
        let top = horizontal ? (h - height) / 2 : 0
        let left = horizontal ? 0 : (w - width) / 2
        for y in top..<(top + (horizontal ? height : h)) {
            for x in left..<(left + (horizontal ? w : width)) {
                line[horizontal ? x : y] += Double(score[y * w + x])
            }
        }
        var sum = line[0..<window].reduce(0, +)
        var best = sum
        var bestAt = 0
        let centre = Double(positions - 1) / 2
        for p in 1..<positions {
            sum += line[p + window - 1] - line[p - 1]
            if sum > best + 1e-6 || (abs(sum - best) <= 1e-6 && abs(Double(p) - centre) < abs(Double(bestAt) - centre)) {
                best = sum
                bestAt = p
            }
        }
        return horizontal ? (bestAt, top) : (left, bestAt)
    }

    /// Each pixel's interest: edge strength, plus saturated colour, plus skin tone.
    static func attention(_ bitmap: Bitmap) -> [Float] {
        let w = bitmap.width
        let h = bitmap.height
        let px = bitmap.pixels
        var luma = [Float](repeating: 0, count: w * h)
        var colour = [Float](repeating: 0, count: w * h)
        for i in 0..<(w * h) {
            let r = Float(px[i * 4])
            let g = Float(px[i * 4 + 1])
            let b = Float(px[i * 4 + 2])
            let a = Float(px[i * 4 + 3]) / 255
            luma[i] = (0.299 * r + 0.587 * g + 0.114 * b) * a
            let high = max(r, g, b)
            let low = min(r, g, b)
            let saturation = high > 0 ? (high - low) / high : 0
            // Saturated, not too dark: libvips counts pixels with saturation over about 0.4.
            var interest: Float = saturation > 0.4 && high > 60 ? 60 * saturation : 0
            // Skin: red above green above blue, a moderate red-green gap (the classic RGB rule).
            if r > 95 && g > 40 && b > 20 && r > g && r > b && r - min(g, b) > 15 && abs(r - g) > 15 {
                interest += 80
            }
            colour[i] = interest * a
        }
        var score = colour
        if w > 2 && h > 2 {
            for y in 1..<(h - 1) {
                for x in 1..<(w - 1) {
                    let i = y * w + x
                    let laplacian = 4 * luma[i] - luma[i - 1] - luma[i + 1] - luma[i - w] - luma[i + w]
                    score[i] += abs(laplacian)
                }
            }
        }
        return score
    }
}
