import Foundation
import Testing
import VignetteCore

@testable import VignetteImaging

/// Characters DejaVu lacks drawn in the system's other fonts (fontconfig; `make test` installs
/// WenQuanYi Micro Hei for Chinese, Japanese and Korean).
@Suite("Font fallback")
struct FontFallbackTests {
    /// `text` drawn in `face` at 32 px on a white 200×48 canvas.
    private func drawn(_ text: String, _ face: FontFace) throws -> [UInt8] {
        var canvas = Canvas(width: 200, height: 48, background: .white)
        try canvas.drawText(text, font: face, size: 32, x: 4, baseline: 36, color: .black)
        return canvas.bitmap.pixels
    }

    @Test func chineseIsDrawnInAFontThatHasItWhereAPlainFaceDrawsBoxes() throws {
        let withFallback = try SystemFonts.face(.sans)
        let plain = try FontFace(path: try SystemFonts.path(of: .sans))
        let boxes = try drawn("\u{E000}\u{E000}", plain)
        // Without a fallback, 中文 is two .notdef boxes, exactly like two private-use characters.
        #expect(try drawn("中文", plain) == boxes)
        #expect(try drawn("中文", withFallback) != boxes)
        #expect(try drawn("\u{E000}\u{E000}", withFallback) == boxes, "private use is never looked up")
        let face = try #require(FontFallback.system.face(for: 0x4E2D))
        #expect(face.info.family != "DejaVu Sans")
        #expect(face.hasGlyph("中") && face.hasGlyph("ひ") && face.hasGlyph("한"))
        // A mixed line is measured as it is drawn: DejaVu's Latin plus the other font's ideographs.
        #expect(try withFallback.measure("ab中文", size: 32) == (try plain.measure("ab", size: 32)) + (try face.measure("中文", size: 32)))
    }

    @Test func charactersNeverDrawnAreNotLookedUp() {
        let fallback = FontFallback()
        // A control, a format character (zero-width space), private use, a noncharacter, an unassigned code point.
        for scalar: UInt32 in [0x07, 0x200B, 0xE000, 0xF_FFFD, 0xFFFF, 0x0378] {
            #expect(fallback.face(for: scalar) == nil, "U+\(String(scalar, radix: 16, uppercase: true))")
        }
        #expect(fallback.lookups == 0)
    }

    @Test func aBlockCostsOneLookupWhetherOrNotAFontHasIt() {
        let fallback = FontFallback()
        for scalar: UInt32 in 0x4E00..<0x4E80 { _ = fallback.face(for: scalar) }
        #expect(fallback.lookups == 1)
        #expect(fallback.openedFamilies.count == 1)
        // Egyptian hieroglyphs: installed or not, one question for the 128 of them.
        for scalar: UInt32 in 0x13000..<0x13080 { _ = fallback.face(for: scalar) }
        #expect(fallback.lookups == 2)
    }

    @Test func aFontPreviewsOwnFaceHasNoFallback() throws {
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: try SystemFonts.path(of: .mono))))
        #expect(try FontFace(bytes: bytes).fallback == nil)
        #expect(try SystemFonts.face(.mono).fallback === FontFallback.system)
    }
}
