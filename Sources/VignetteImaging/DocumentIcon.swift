public import VignetteCore

/// A generic document icon: a page with a folded corner, tinted by family, with a text badge.
///
/// First version: shapes only; the badge text is drawn by `TextRenderer` once fonts are in.
public enum DocumentIcon {
    /// An icon `size` pixels tall (the page is about 3:4), in `color`, labelled `badge` (e.g. "BIN").
    public static func render(badge: String, color: (UInt8, UInt8, UInt8), size: Int) -> Bitmap {
        let h = max(16, size)
        let w = max(12, h * 3 / 4)
        var bitmap = Bitmap(width: w, height: h)
        let fold = w / 4
        let border = max(1, h / 64)
        bitmap.pixels.withUnsafeMutableBufferPointer { px in
            for y in 0..<h {
                for x in 0..<w {
                    // The folded corner is cut off the top right.
                    if x >= w - fold && y < fold && (x - (w - fold)) > y { continue }
                    let edge = x < border || y < border || x >= w - border || y >= h - border
                    let inFold = x >= w - fold && y < fold
                    let inBand = y >= h * 5 / 8 && y < h * 5 / 8 + h / 5
                    let i = (y * w + x) * 4
                    let c: (UInt8, UInt8, UInt8) = edge ? (0x9A, 0xA0, 0xA6) : (inFold || inBand) ? color : (0xFF, 0xFF, 0xFF)
                    px[i] = c.0
                    px[i + 1] = c.1
                    px[i + 2] = c.2
                    px[i + 3] = 255
                }
            }
        }
        _ = badge
        return bitmap
    }
}
