import Foundation
public import VignetteCore

/// Icon mode: a thumbnail set in a white frame with a soft drop shadow, and the file's
/// extension as a coloured badge in the bottom-right corner (like Quick Look's icon mode or
/// the file managers' framed thumbnails).
public enum IconDecorator {
    /// Largest icon drawn; larger requests are drawn at this size.
    public static let maxSize = 2048

    /// `bitmap` framed, shadowed and badged (no badge under 48 px), its longest side at most `size` pixels (the
    /// thumbnail is shrunk to fit, never enlarged); no badge when `badge` is nil or empty.
    public static func decorate(_ bitmap: Bitmap, badge: String?, color: (UInt8, UInt8, UInt8), size: Int) -> Bitmap {
        let box = min(max(16, size), maxSize)
        let S = Double(box)
        let shadow = box >= 32 ? max(1.0, (S * 0.045).rounded()) : 0
        let frame = max(1.0, (S * 0.03).rounded())
        let room = max(1, box - Int(2 * (shadow + frame)))
        let image = fit(bitmap, into: room)
        let frameW = Double(image.width) + 2 * frame, frameH = Double(image.height) + 2 * frame
        let canvasW = Int(frameW + 2 * shadow), canvasH = Int(frameH + 2 * shadow)
        var canvas = Canvas(width: canvasW, height: canvasH)
        let fx = shadow, fy = shadow * 0.6

        if shadow > 0 {
            canvas.fillRoundedRect(
                x: fx, y: fy + shadow * 0.5, width: frameW, height: frameH, radius: frame,
                color: Canvas.Color(0, 0, 0, 90), feather: shadow * 1.2)
        }
        canvas.fillRoundedRect(x: fx, y: fy, width: frameW, height: frameH, radius: frame * 0.6, color: Canvas.Color(0xB8, 0xBF, 0xC6))
        let edge = box >= 64 ? 1.0 : 0.5
        canvas.fillRoundedRect(
            x: fx + edge, y: fy + edge, width: frameW - 2 * edge, height: frameH - 2 * edge,
            radius: frame * 0.5, color: .white)
        canvas.draw(image, x: Int(fx + frame), y: Int(fy + frame))

        if let badge, !badge.isEmpty, box >= 48 {
            drawBadge(
                badge, in: &canvas, color: Canvas.Color(color), right: fx + frameW, bottom: fy + frameH, box: S,
                maxWidth: frameW * 0.9)
        }
        return canvas.bitmap
    }

    /// `bitmap` shrunk (aspect kept) so its longest side is at most `side`.
    static func fit(_ bitmap: Bitmap, into side: Int) -> Bitmap {
        let longest = max(bitmap.width, bitmap.height)
        guard longest > side, bitmap.width > 0, bitmap.height > 0 else { return bitmap }
        let s = Double(side) / Double(longest)
        let w = max(1, Int((Double(bitmap.width) * s).rounded())), h = max(1, Int((Double(bitmap.height) * s).rounded()))
        let scaler = Downscaler(inWidth: bitmap.width, inHeight: bitmap.height, channels: 4, outWidth: w, outHeight: h)
        bitmap.pixels.withUnsafeBufferPointer { p in
            if let base = p.baseAddress { scaler.push(base, stride: bitmap.width * 4, count: bitmap.height) }
        }
        return scaler.finish()
    }

    /// A rounded badge in `color` with `text` in bold white, its bottom-right corner overhanging the frame's.
    static func drawBadge(
        _ text: String, in canvas: inout Canvas, color: Canvas.Color, right: Double, bottom: Double,
        box: Double, maxWidth: Double
    ) {
        let height = (box * 0.13).rounded()
        let pad = height * 0.35
        guard let font = try? SystemFonts.face(.bold),
            let size = try? Canvas.fittingSize(text, font: font, width: maxWidth - 2 * pad, maxSize: Int(height * 0.66), minSize: 5),
            let advance = try? font.measure(text, size: size), let cap = try? font.glyph("H", size: size)
        else { return }
        let width = min(maxWidth, max(height * 1.4, advance + 2 * pad))
        let x = right - width + box * 0.01, y = bottom - height + box * 0.01
        canvas.fillRoundedRect(
            x: x, y: y + 1, width: width, height: height, radius: height * 0.28,
            color: Canvas.Color(0, 0, 0, 60), feather: max(1, box * 0.01))
        canvas.fillRoundedRect(x: x, y: y, width: width, height: height, radius: height * 0.28, color: color)
        let baseline = Int((y + height / 2 + Double(cap.top) / 2).rounded())
        _ = try? canvas.drawText(
            text, font: font, size: size, x: x + (width - advance) / 2, baseline: baseline, color: .white,
            clip: Int(x)..<Int((x + width).rounded(.up)))
    }
}
