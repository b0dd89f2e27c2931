import Testing
import VignetteCore
import VignetteImaging

/// The RGBA bytes of pixel (x, y).
func pixel(_ b: Bitmap, _ x: Int, _ y: Int) -> [UInt8] {
    let i = (y * b.width + x) * 4
    return Array(b.pixels[i..<(i + 4)])
}

@Suite("Canvas drawing")
struct CanvasTests {
    @Test func aPixelAlignedRectangleCoversExactlyItsPixels() {
        var c = Canvas(width: 10, height: 10, background: .white)
        c.fillRect(x: 2, y: 3, width: 4, height: 5, color: Canvas.Color(255, 0, 0))
        #expect(pixel(c.bitmap, 2, 3) == [255, 0, 0, 255])
        #expect(pixel(c.bitmap, 5, 7) == [255, 0, 0, 255])
        #expect(pixel(c.bitmap, 6, 7) == [255, 255, 255, 255])
        #expect(pixel(c.bitmap, 2, 8) == [255, 255, 255, 255])
    }

    @Test func aHalfPixelEdgeIsHalfCovered() {
        var c = Canvas(width: 4, height: 1, background: .white)
        c.fillRect(x: 0, y: 0, width: 1.5, height: 1, color: .black)
        #expect(pixel(c.bitmap, 0, 0) == [0, 0, 0, 255])
        #expect(pixel(c.bitmap, 1, 0) == [127, 127, 127, 255])
    }

    @Test func roundedCornersAreAntialiasedAndTheCentreSolid() {
        var c = Canvas(width: 40, height: 40)
        c.fillRoundedRect(x: 0, y: 0, width: 40, height: 40, radius: 12, color: Canvas.Color(0, 0, 255))
        #expect(pixel(c.bitmap, 20, 20) == [0, 0, 255, 255])
        #expect(pixel(c.bitmap, 0, 0)[3] == 0)
        let edge = (0..<12).map { pixel(c.bitmap, $0, $0)[3] }
        #expect(edge.contains { $0 > 0 && $0 < 255 })
    }

    @Test func translucentOverTransparentKeepsTheColour() {
        var c = Canvas(width: 1, height: 1)
        c.blend(x: 0, y: 0, color: Canvas.Color(200, 100, 50, 128), coverage: 1)
        #expect(pixel(c.bitmap, 0, 0) == [200, 100, 50, 128])
    }

    @Test func textIsDrawnOnlyInsideTheClip() throws {
        var c = Canvas(width: 200, height: 40, background: .white)
        let font = try SystemFonts.face(.sans)
        let end = try c.drawText("WWWWWWWWWWWWWWWWWWWW", font: font, size: 24, x: 10, baseline: 30, color: .black, clip: 10..<100)
        var inside = 0, outside = 0
        for y in 0..<40 {
            for x in 0..<200 where pixel(c.bitmap, x, y)[0] < 128 {
                if x >= 10 && x < 100 { inside += 1 } else { outside += 1 }
            }
        }
        #expect(inside > 100)
        #expect(outside == 0)
        #expect(end >= 100 && end < 140)
    }

    @Test func fittingSizeShrinksLongTextToTheWidth() throws {
        let font = try SystemFonts.face(.bold)
        let size = try Canvas.fittingSize("MARKDOWN", font: font, width: 60, maxSize: 40)
        #expect(size < 40)
        #expect(try font.measure("MARKDOWN", size: size) <= 60)
        #expect(try font.measure("MARKDOWN", size: size + 1) > 60)
        #expect(try Canvas.fittingSize("A", font: font, width: 60, maxSize: 20) == 20)
    }

    @Test func aSquarePolygonMatchesTheRectangle() {
        var a = Canvas(width: 12, height: 12, background: .white), b = a
        a.fillPolygon([(2, 2), (9.5, 2), (9.5, 9), (2, 9)], color: .black)
        b.fillRect(x: 2, y: 2, width: 7.5, height: 7, color: .black)
        #expect(a.bitmap == b.bitmap)
    }

    @Test func aConcavePolygonLeavesItsNotchEmpty() {
        var c = Canvas(width: 20, height: 20, background: .white)
        c.fillPolygon([(0, 0), (20, 0), (20, 20), (10, 20), (10, 10), (0, 10)], color: .black)
        #expect(pixel(c.bitmap, 5, 5) == [0, 0, 0, 255])
        #expect(pixel(c.bitmap, 15, 15) == [0, 0, 0, 255])
        #expect(pixel(c.bitmap, 5, 15) == [255, 255, 255, 255])
    }

    @Test func aTriangleHasPartlyCoveredPixelsOnlyAlongItsDiagonal() {
        var c = Canvas(width: 16, height: 16, background: .white)
        c.fillPolygon([(0, 0), (16, 0), (0, 16)], color: .black)
        #expect(pixel(c.bitmap, 2, 2) == [0, 0, 0, 255])
        #expect(pixel(c.bitmap, 14, 14) == [255, 255, 255, 255])
        #expect(pixel(c.bitmap, 8, 7)[0] > 0 && pixel(c.bitmap, 8, 7)[0] < 255)
    }
}
