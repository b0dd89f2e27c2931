import Foundation
import Testing
import VignetteCore
import VignetteImaging

@Suite("FreeType faces")
struct FontFaceTests {
    @Test func theGlyphForCapitalAHasInk() throws {
        let glyph = try SystemFonts.face(.sans).glyph("A", size: 32)
        #expect(glyph.width > 10 && glyph.height > 15)
        #expect(glyph.coverage.count == glyph.width * glyph.height)
        #expect(glyph.coverage.max() == 255)
        #expect(glyph.top > 15)
    }

    @Test func spaceHasAnAdvanceButNoInk() throws {
        let glyph = try SystemFonts.face(.sans).glyph(" ", size: 32)
        #expect(glyph.coverage.isEmpty)
        #expect(glyph.advance > 5)
    }

    @Test func iIsNarrowerThanWInSansAndAsWideInMono() throws {
        let sans = try SystemFonts.face(.sans), mono = try SystemFonts.face(.mono)
        #expect(try sans.measure("i", size: 20) < sans.measure("W", size: 20))
        #expect(try mono.measure("i", size: 20) == mono.measure("W", size: 20))
        #expect(try mono.measure("iiii", size: 20) == 4 * mono.measure("i", size: 20))
    }

    @Test func theFacesNameThemselves() throws {
        let info = try SystemFonts.face(.mono).info
        #expect(info.family == "DejaVu Sans Mono")
        #expect(info.style == "Book")
        #expect(info.format == "TrueType")
        #expect(info.isFixedWidth)
        #expect(info.faceCount == 1)
        #expect(try SystemFonts.face(.bold).info.style == "Bold")
    }

    @Test func metricsGrowWithTheSize() throws {
        let face = try SystemFonts.face(.sans)
        let small = try face.metrics(size: 10), large = try face.metrics(size: 40)
        #expect(small.ascender > 0 && small.descender < 0)
        #expect(large.lineHeight > 3.5 * small.lineHeight)
    }

    @Test func hasGlyphTellsLatinFromCJK() throws {
        let face = try SystemFonts.face(.sans)
        #expect(face.hasGlyph("A"))
        #expect(!face.hasGlyph("漢"))
    }

    @Test func anEmptyFontIsACleanError() throws {
        #expect(throws: VignetteError(.corrupt, "damaged or unsupported font: the file is empty")) {
            try FontFace(bytes: [])
        }
    }

    @Test func randomBytesAreACleanError() throws {
        var rng = SystemRandomNumberGenerator()
        let bytes = (0..<4096).map { _ in UInt8.random(in: 0...255, using: &rng) }
        #expect(throws: VignetteError(.corrupt, "damaged or unsupported font: cannot open font: unknown file format")) {
            try FontFace(bytes: bytes)
        }
    }

    @Test func aTruncatedFontIsACleanError() throws {
        let whole = try Data(contentsOf: URL(fileURLWithPath: try SystemFonts.path(of: .mono)))
        for length in [12, 100, 1000, 20000] {
            do {
                let face = try FontFace(bytes: Array(whole.prefix(length)))
                // FreeType may accept the directory and fail later, per glyph: that must be an error too.
                _ = try face.glyph("A", size: 20)
                Issue.record("a font cut at \(length) bytes rendered")
            } catch let error as VignetteError {
                #expect(error.reason.hasPrefix("damaged or unsupported font: "))
            }
        }
    }

    @Test func aMissingFontFileNamesThePath() throws {
        #expect(throws: VignetteError(.io, path: "/nonexistent/x.ttf", "cannot open font file: No such file or directory")) {
            try FontFace(path: "/nonexistent/x.ttf")
        }
    }

    @Test func aMissingFontFolderNamesThePackage() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("vgn-nofonts-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let expected = VignetteError(
            .notFound,
            "font DejaVuSansMono.ttf not found in VIGNETTE_FONT_DIR (\(dir)): install the fonts-dejavu-core package or set VIGNETTE_FONT_DIR"
        )
        #expect(throws: expected) { try SystemFonts.path(of: .mono, environment: ["VIGNETTE_FONT_DIR": dir]) }
    }

    @Test func fontDirOverrideIsUsed() throws {
        let path = try SystemFonts.path(of: .sans, environment: ["VIGNETTE_FONT_DIR": "/usr/share/fonts/truetype/dejavu"])
        #expect(path == "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")
    }

    @Test func hugeSizesAreCappedNotFatal() throws {
        let glyph = try SystemFonts.face(.sans).glyph(".", size: 1_000_000)
        #expect(glyph.height <= FontFace.maxPixelSize)
    }
}
