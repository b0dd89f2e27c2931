import Foundation
public import VignetteCore

/// A generic document icon: a white page with a folded corner, a soft shadow and a band in
/// the family's colour carrying the extension in bold white letters.
///
/// Everything is drawn with anti-aliased shapes at the requested size (16 to 2048 pixels
/// tall), so it is as crisp at 16 px as at 1024. Without the DejaVu fonts the badge is left
/// blank rather than failing: the icon is the last resort and must always come out.
public enum DocumentIcon {
    /// Tallest icon drawn; larger requests are drawn at this size.
    public static let maxSize = 2048

    /// An icon `size` pixels tall (the page is about 3:4), in `color`, labelled `badge` (e.g. "BIN").
    public static func render(badge: String, color: (UInt8, UInt8, UInt8), size: Int) -> Bitmap {
        let h = min(max(16, size), maxSize)
        let w = max(12, h * 3 / 4)
        var canvas = Canvas(width: w, height: h)
        let tint = Canvas.Color(color)
        let H = Double(h), W = Double(w)
        // The page leaves room on every side for its shadow, most of it below.
        let margin = max(0.5, H * 0.035)
        let x0 = margin, x1 = W - margin
        let y0 = margin * 0.6, y1 = H - margin * 1.4
        let fold = (x1 - x0) * 0.3
        let line = max(1, (H / 220).rounded())

        if h >= 24 {
            // Below the fold only: a shadow behind the cut corner would show through it.
            canvas.fillRoundedRect(
                x: x0, y: y0 + fold, width: x1 - x0, height: y1 - y0 - fold + H * 0.012, radius: H * 0.02,
                color: Canvas.Color(0, 0, 0, 70), feather: max(1, H * 0.025))
        }
        let outline: [(x: Double, y: Double)] = [(x0, y0), (x1 - fold, y0), (x1, y0 + fold), (x1, y1), (x0, y1)]
        canvas.fillPolygon(outline, color: Canvas.Color(0x9A, 0xA3, 0xAD))
        // The white inside, inset by the border width (the 45° edge moves by line × √2).
        let d = line * 2.0.squareRoot()
        let inner: [(x: Double, y: Double)] = [
            (x0 + line, y0 + line), (x1 - fold + line - d, y0 + line), (x1 - line, y0 + fold - line + d),
            (x1 - line, y1 - line), (x0 + line, y1 - line),
        ]
        canvas.fillPolygon(inner, color: .white)

        // Grey "text" lines suggest a document above the band, when there is room to see them.
        let bandTop = y0 + (y1 - y0) * 0.56, bandHeight = (y1 - y0) * 0.24
        if h >= 48 {
            let gap = H * 0.055
            var y = y0 + fold + gap * 0.6
            var n = 0
            while y + line < bandTop - gap * 0.6 {
                let end = n % 3 == 2 ? 0.55 : 0.85
                canvas.fillRoundedRect(
                    x: x0 + (x1 - x0) * 0.15, y: y, width: (x1 - x0) * 0.7 * end, height: max(1, H * 0.018),
                    radius: H * 0.009, color: Canvas.Color(0xD5, 0xDA, 0xE0))
                y += gap
                n += 1
            }
        }

        canvas.fillRect(x: x0 + line, y: bandTop, width: x1 - x0 - 2 * line, height: bandHeight, color: tint)
        // The fold: a lighter tint of the family colour, edged like the page.
        let foldShape: [(x: Double, y: Double)] = [(x1 - fold, y0), (x1 - fold, y0 + fold), (x1, y0 + fold)]
        canvas.fillPolygon(foldShape, color: Canvas.Color(0x9A, 0xA3, 0xAD))
        let foldInner: [(x: Double, y: Double)] = [
            (x1 - fold + line, y0 + line + d), (x1 - fold + line, y0 + fold - line), (x1 - line - d, y0 + fold - line),
        ]
        canvas.fillPolygon(foldInner, color: tint.mixed(with: .white, 0.45))

        drawBadge(badge, in: &canvas, x: x0 + line, y: bandTop, width: x1 - x0 - 2 * line, height: bandHeight)
        return canvas.bitmap
    }

    /// Centres `badge` in the band, in bold white, shrunk to fit; nothing when too small to read or without fonts.
    static func drawBadge(_ badge: String, in canvas: inout Canvas, x: Double, y: Double, width: Double, height: Double) {
        let text = badge.trimmingCharacters(in: .whitespaces)
        guard !text.isEmpty, height >= 8, let font = try? SystemFonts.face(.bold) else { return }
        let maxSize = Int(height * 0.72)
        guard maxSize >= 6, let size = try? Canvas.fittingSize(text, font: font, width: width * 0.86, maxSize: maxSize, minSize: 6),
            let advance = try? font.measure(text, size: size), advance <= width,
            let cap = try? font.glyph("H", size: size)
        else { return }
        let baseline = Int((y + height / 2 + Double(cap.top) / 2).rounded())
        _ = try? canvas.drawText(
            text, font: font, size: size, x: x + (width - advance) / 2, baseline: baseline, color: .white,
            clip: Int(x.rounded(.down))..<Int((x + width).rounded(.up)))
    }
}
