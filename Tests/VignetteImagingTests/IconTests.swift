import Testing
import VignetteCore
import VignetteImaging

@Suite("Document icon and icon mode")
struct IconTests {
    let orange: (UInt8, UInt8, UInt8) = (0xC8, 0x8A, 0x1E)

    @Test(arguments: [16, 32, 128, 1024])
    func theIconIsAsTallAsAskedAndThreeQuartersWide(size: Int) {
        let icon = DocumentIcon.render(badge: "ZIP", color: orange, size: size)
        #expect(icon.height == size)
        #expect(icon.width == size * 3 / 4)
        #expect(icon.hasTransparency)
    }

    @Test func theBandIsTheFamilyColourWithWhiteLettersInIt() {
        let icon = DocumentIcon.render(badge: "ZIP", color: orange, size: 256)
        // The band's left end holds no letters: pure family colour.
        let bandRows = (0..<256).filter { pixel(icon, 20, $0)[0...2] == [0xC8, 0x8A, 0x1E] }
        #expect(bandRows.count > 40)
        let mid = bandRows[bandRows.count / 2]
        let white = (0..<icon.width).filter { pixel(icon, $0, mid)[0...2] == [255, 255, 255] }
        #expect(white.count > 10)
        #expect(white.allSatisfy { $0 > icon.width / 4 && $0 < icon.width * 3 / 4 })
    }

    @Test func aLongBadgeIsShrunkToFitTheBand() {
        let icon = DocumentIcon.render(badge: "MARKDOWN", color: orange, size: 128)
        let mid = (0..<128).filter { pixel(icon, 10, $0)[0...2] == [0xC8, 0x8A, 0x1E] }
        #expect(!mid.isEmpty)
        let y = mid[mid.count / 2]
        // Letters never reach the band's ends.
        #expect(pixel(icon, 7, y)[0...2] != [255, 255, 255])
        #expect(pixel(icon, icon.width - 8, y)[0...2] != [255, 255, 255])
    }

    @Test func decorationFitsTheBoxAndKeepsTheAspect() {
        let photo = Bitmap(
            width: 400, height: 200,
            pixels: [UInt8](repeating: 90, count: 400 * 200 * 4).enumerated().map { $0.offset % 4 == 3 ? 255 : $0.element })
        let icon = IconDecorator.decorate(photo, badge: "JPG", color: orange, size: 128)
        #expect(max(icon.width, icon.height) <= 128)
        #expect(icon.width > icon.height)
        #expect(pixel(icon, 0, 0)[3] == 0)
        // The photo sits inside the frame.
        #expect(pixel(icon, icon.width / 3, icon.height / 2)[0...2] == [90, 90, 90])
    }

    @Test func theBadgeSitsBottomRightInTheFamilyColour() {
        let photo = Bitmap(width: 256, height: 256, pixels: [UInt8](repeating: 255, count: 256 * 256 * 4))
        let icon = IconDecorator.decorate(photo, badge: "PNG", color: orange, size: 256)
        var found = false
        for y in (icon.height * 3 / 4)..<icon.height {
            for x in (icon.width * 3 / 4)..<icon.width where pixel(icon, x, y) == [0xC8, 0x8A, 0x1E, 255] { found = true }
        }
        #expect(found)
        let plain = IconDecorator.decorate(photo, badge: nil, color: orange, size: 256)
        #expect(
            !plain.pixels.indices.contains {
                $0 % 4 == 0 && plain.pixels[$0] == 0xC8 && plain.pixels[$0 + 1] == 0x8A && plain.pixels[$0 + 2] == 0x1E
            })
    }

    @Test func aSmallThumbnailIsNotEnlarged() {
        let tiny = Bitmap(width: 20, height: 10, pixels: [UInt8](repeating: 255, count: 20 * 10 * 4))
        let icon = IconDecorator.decorate(tiny, badge: nil, color: orange, size: 256)
        #expect(icon.width < 80)
    }
}
