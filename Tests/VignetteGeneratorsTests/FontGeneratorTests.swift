import Foundation
import Testing
import VignetteCore
import VignetteImaging

@testable import VignetteGenerators

@Suite("Font thumbnails and previews")
struct FontGeneratorTests {
    let registry = BuiltInGenerators.makeRegistry()
    var resolver: TypeResolver { TypeResolver(catalog: registry.catalog) }
    static let fixtures = Bundle.module.url(forResource: "Fixtures", withExtension: nil)!.path + "/fonts/"

    func darkPixels(_ b: Bitmap, rows: Range<Int>) -> Int {
        rows.reduce(0) { n, y in n + (0..<b.width).filter { b.pixels[(y * b.width + $0) * 4] < 128 }.count }
    }

    @Test func aDejaVuFontShowsItsSampleAndName() throws {
        let input = try GeneratorInput(path: try SystemFonts.path(of: .mono), resolver: resolver)
        let (thumb, generator, _) = try registry.thumbnail(for: input, request: ThumbnailRequest(maxPixelSize: 256))
        #expect(generator == "font")
        #expect(thumb.bitmap.width == 256 && thumb.bitmap.height == 256)
        #expect(darkPixels(thumb.bitmap, rows: 25..<130) > 1500)
        #expect(darkPixels(thumb.bitmap, rows: 135..<195) > 300)
        #expect(FontGenerator.sampleLines(try FontFace(path: try SystemFonts.path(of: .mono))) == ("Aa", "Bb 123"))
    }

    @Test(arguments: ["glyfTest.ttf", "CFFTest.otf"])
    func smallFixtureFontsRender(name: String) throws {
        let input = try GeneratorInput(path: Self.fixtures + name, resolver: resolver)
        let (thumb, generator, _) = try registry.thumbnail(for: input, request: ThumbnailRequest(maxPixelSize: 128))
        #expect(generator == "font")
        #expect(thumb.bitmap.width == 128)
        #expect(darkPixels(thumb.bitmap, rows: 10..<70) > 100)
    }

    @Test func thePreviewListsNamesAndCounts() throws {
        let input = try GeneratorInput(path: try SystemFonts.path(of: .mono), resolver: resolver)
        let (preview, generator, _) = try registry.preview(for: input, request: PreviewRequest())
        #expect(generator == "font")
        #expect(preview.title == "DejaVu Sans Mono Book — TrueType font")
        #expect(preview.text.contains("Family:       DejaVu Sans Mono\n"))
        #expect(preview.text.contains("Style:        Book\n"))
        #expect(preview.text.contains("Monospace:    yes\n"))
        #expect(preview.html.contains("<dt>Family</dt><dd>DejaVu Sans Mono</dd>"))
    }

    @Test func aTruncatedFontFailsWithFreeTypesReasonAndFallsThrough() throws {
        let whole = try Data(contentsOf: URL(fileURLWithPath: Self.fixtures + "glyfTest.ttf"))
        let input = GeneratorInput(bytes: Array(whole.prefix(300)), filename: "cut.ttf", resolver: resolver)
        #expect(throws: VignetteError(.corrupt, "damaged or unsupported font: cannot open font: horizontal header (hhea) table missing")) {
            try FontGenerator().makeThumbnail(for: input, request: ThumbnailRequest(maxPixelSize: 128))
        }
        let (_, generator, attempts) = try registry.thumbnail(for: input, request: ThumbnailRequest(maxPixelSize: 128))
        #expect(generator == "fallback")
        #expect(
            attempts.map(\.description).first
                == "font: failed: damaged or unsupported font: cannot open font: horizontal header (hhea) table missing")
    }

    @Test func anEmptyTTFIsACleanError() throws {
        let input = GeneratorInput(bytes: [], filename: "empty.ttf", resolver: resolver)
        #expect(throws: VignetteError(.corrupt, "damaged or unsupported font: the file is empty")) {
            try FontGenerator().makeThumbnail(for: input, request: ThumbnailRequest(maxPixelSize: 128))
        }
    }

    @Test func randomBytesNamedTTFAreACleanError() throws {
        var bytes = [UInt8](repeating: 0, count: 2048)
        var state: UInt32 = 12345
        for i in bytes.indices {
            state = state &* 1_103_515_245 &+ 12345
            bytes[i] = UInt8(truncatingIfNeeded: state >> 16)
        }
        let input = GeneratorInput(bytes: bytes, filename: "noise.ttf", resolver: resolver)
        #expect(throws: VignetteError(.corrupt, "damaged or unsupported font: cannot open font: unknown file format")) {
            try FontGenerator().makeThumbnail(for: input, request: ThumbnailRequest(maxPixelSize: 128))
        }
        let (thumb, generator, _) = try registry.thumbnail(for: input, request: ThumbnailRequest(maxPixelSize: 128))
        #expect(generator == "fallback")
        #expect(thumb.isIcon)
    }

    @Test func embeddedOpenTypeIsDeclined() throws {
        let eot =
            [UInt8](repeating: 0, count: 8) + [0x01, 0x00, 0x02, 0x00] + [UInt8](repeating: 0, count: 22) + Array("LP".utf8)
            + [UInt8](repeating: 0, count: 64)
        let input = GeneratorInput(bytes: eot, filename: "x.eot", resolver: resolver)
        #expect(input.type.identifier == "com.microsoft.embedded-opentype")
        #expect(throws: VignetteError(.declined, "Embedded OpenType font files cannot be read by FreeType")) {
            try FontGenerator().makeThumbnail(for: input, request: ThumbnailRequest(maxPixelSize: 128))
        }
    }
}
