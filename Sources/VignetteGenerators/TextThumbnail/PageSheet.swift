public import VignetteCore
public import VignetteImaging

/// A white sheet with a thin grey edge to draw a page miniature on: drawn at an integer multiple
/// of the thumbnail's size so that text is at least `minimumDrawnFontSize` pixels, then shrunk,
/// so small text becomes an even grey texture instead of broken glyphs.
public struct PageSheet {
    /// The canvas to draw on, `factor` times the thumbnail's size.
    public var canvas: Canvas
    /// How many times larger the canvas is than the thumbnail.
    public let factor: Int
    /// The thumbnail's width.
    public let width: Int
    /// The thumbnail's height.
    public let height: Int

    /// Smallest font size drawn, in pixels; below it the page is drawn larger and shrunk.
    public static let minimumDrawnFontSize = 12.0

    /// A sheet whose longer side is `targetPixels` (at least 16), `aspect` wide over high, with
    /// a body font of the drawn height over `linesPerPage`.
    public init(targetPixels: Int, aspect: Double, linesPerPage: Double) {
        let long = max(16, targetPixels)
        if aspect <= 1 {
            height = long
            width = max(12, Int((Double(long) * aspect).rounded()))
        } else {
            width = long
            height = max(12, Int((Double(long) / aspect).rounded()))
        }
        factor = max(1, Int((Self.minimumDrawnFontSize * linesPerPage / Double(height)).rounded(.up)))
        canvas = Canvas(width: width * factor, height: height * factor, background: .white)
        let border = Double(factor)
        let W = Double(canvas.width), H = Double(canvas.height)
        let edge = Canvas.Color(0xC4, 0xC9, 0xCF)
        canvas.fillRect(x: 0, y: 0, width: W, height: border, color: edge)
        canvas.fillRect(x: 0, y: H - border, width: W, height: border, color: edge)
        canvas.fillRect(x: 0, y: 0, width: border, height: H, color: edge)
        canvas.fillRect(x: W - border, y: 0, width: border, height: H, color: edge)
    }

    /// The drawn canvas shrunk to the thumbnail's size.
    public func finished() -> Bitmap {
        guard factor > 1 else { return canvas.bitmap }
        let W = canvas.width, H = canvas.height
        let scaler = Downscaler(inWidth: W, inHeight: H, channels: 4, outWidth: width, outHeight: height)
        canvas.bitmap.pixels.withUnsafeBufferPointer { p in
            if let base = p.baseAddress { scaler.push(base, stride: W * 4, count: H) }
        }
        return scaler.finish()
    }
}
