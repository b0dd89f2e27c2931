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

    /// An EOT file around `font`: the 82-byte fixed header (sizes, version 2.1, `flags`, the
    /// 0x504C magic), empty names, then the font data (XOR-ed with 0x50 when the flag says so).
    static func eot(_ font: [UInt8], flags: UInt32 = 0) -> [UInt8] {
        func le32(_ v: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: v >> (8 * $0)) } }
        let names = [UInt8](repeating: 0, count: 2 + 2 + 2 + 2 + 2 + 2 + 2 + 2 + 2 + 2)  // four names, padding, root string
        let data = flags & 0x1000_0000 != 0 ? font.map { $0 ^ 0x50 } : font
        let total = UInt32(82 + names.count + data.count)
        let header =
            le32(total) + le32(UInt32(data.count)) + le32(0x0002_0001) + le32(flags) + [UInt8](repeating: 0, count: 18)
            + [0x4C, 0x50] + [UInt8](repeating: 0, count: 46)
        return header + names + data
    }

    @Test(arguments: [UInt32(0), 0x1000_0000])
    func theFontInsideAnEmbeddedOpenTypeFileIsShown(flags: UInt32) throws {
        let ttf = Array(try Data(contentsOf: URL(fileURLWithPath: try SystemFonts.path(of: .mono))))
        let input = GeneratorInput(bytes: Self.eot(ttf, flags: flags), filename: "webfont.eot", resolver: resolver)
        #expect(input.type.identifier == "com.microsoft.embedded-opentype")
        let (preview, generator, _) = try registry.preview(for: input, request: PreviewRequest())
        #expect(generator == "font")
        #expect(preview.text.contains("Family:       DejaVu Sans Mono\n"))
        let (thumb, _, _) = try registry.thumbnail(for: input, request: ThumbnailRequest(maxPixelSize: 128))
        #expect(!thumb.isIcon)
    }

    @Test func compressedAndDamagedEmbeddedOpenTypeAreClearErrors() throws {
        let ttf = Array(try Data(contentsOf: URL(fileURLWithPath: Self.fixtures + "glyfTest.ttf")))
        let compressed = GeneratorInput(bytes: Self.eot(ttf, flags: 0x4), filename: "x.eot", resolver: resolver)
        #expect(throws: VignetteError(.unsupported, "the EOT font is MicroType Express-compressed, which Vignette cannot read")) {
            try FontGenerator().makeThumbnail(for: compressed, request: ThumbnailRequest(maxPixelSize: 128))
        }
        var lying = Self.eot(ttf)
        lying[4] = 0xFF
        lying[5] = 0xFF
        lying[6] = 0xFF
        let damaged = GeneratorInput(bytes: lying, filename: "x.eot", resolver: resolver)
        #expect(throws: VignetteError(.corrupt, "damaged or unsupported font: the EOT header's sizes do not fit the file")) {
            try FontGenerator().makePreview(for: damaged, request: PreviewRequest())
        }
        let (_, generator, _) = try registry.preview(for: damaged, request: PreviewRequest())
        #expect(generator == "fallback")
    }
}
