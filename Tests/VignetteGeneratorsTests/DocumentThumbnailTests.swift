import Foundation
import Testing
import VignetteCore

@testable import VignetteGenerators

@Suite("Embedded document previews")
struct DocumentThumbnailTests {
    private let request = ThumbnailRequest(maxPixelSize: 64)

    private func thumbnail(_ input: GeneratorInput) throws -> (GeneratedThumbnail, String, [GeneratorRegistry.Attempt]) {
        let (thumb, generator, attempts) = try GeneratorFixtures.registry.thumbnail(for: input, request: request)
        return (thumb, generator, attempts)
    }

    @Test(arguments: [
        ("documents/writer.odt", "opendocument-thumbnail", 45, 64),
        ("documents/thumbnail.docx", "ooxml-thumbnail", 64, 48),
        ("documents/cover3.epub", "epub-cover", 48, 64),
        ("documents/cover2.epub", "epub-cover", 64, 48),
    ])
    func theEmbeddedPictureIsDecodedAtTheRequestedSize(file: String, generator: String, width: Int, height: Int) throws {
        let (thumb, used, _) = try thumbnail(GeneratorFixtures.input(file))
        #expect(used == generator)
        #expect(thumb.bitmap.width == width)
        #expect(thumb.bitmap.height == height)
        #expect(!thumb.isIcon)
    }

    @Test func anUploadedDocumentIsReadFromMemory() throws {
        let (thumb, used, _) = try thumbnail(GeneratorFixtures.upload("documents/thumbnail.docx"))
        #expect(used == "ooxml-thumbnail")
        #expect(thumb.bitmap.width == 64)
    }

    @Test func theCoverIsReallyTheDeclaredPicture() throws {
        // The EPUB 3 cover is blue with a white square in the middle (make-archives.py).
        let (thumb, _, _) = try thumbnail(GeneratorFixtures.input("documents/cover3.epub"))
        let bitmap = thumb.bitmap
        func rgb(_ x: Int, _ y: Int) -> [UInt8] { Array(bitmap.pixels[((y * bitmap.width + x) * 4)..<((y * bitmap.width + x) * 4 + 3)]) }
        #expect(rgb(2, 2)[2] > 150 && rgb(2, 2)[0] < 100)
        #expect(rgb(24, 32).allSatisfy { $0 > 200 })
    }

    @Test func aMetafileThumbnailIsDrawnAndABrokenOneDeclinedWithTheReason() throws {
        let (_, used, attempts) = try thumbnail(GeneratorFixtures.input("documents/metafile.xlsx"))
        #expect(used == "fallback")
        #expect(attempts.first?.outcome == .declined("docProps/thumbnail.emf is data, not a JPEG, PNG or Windows metafile"))
        // A real one (a WMF without a placeable header: shapes, a 4-bit DIB, text) is drawn.
        let wmf = try Array(Data(contentsOf: URL(fileURLWithPath: GeneratorFixtures.root + "/documents/window.wmf")))
        let sheet = OfficeZipBuilder.zip([
            OfficeZipBuilder.stored("[Content_Types].xml", "<Types/>"), OfficeZipBuilder.stored("xl/workbook.xml", "<workbook/>"),
            OfficeZipBuilder.Entry(name: "docProps/thumbnail.wmf", data: wmf),
        ])
        let (thumb, drawnBy, _) = try thumbnail(GeneratorInput(bytes: sheet, filename: "drawn.xlsx", resolver: TypeResolver()))
        #expect(drawnBy == "ooxml-thumbnail")
        #expect(thumb.bitmap.width == 64 || thumb.bitmap.height == 64)
        #expect(!EmbeddedImageReader.isBlank(thumb.bitmap))
        // Cut inside its header: declined with the decoder's reason, so the document is still drawn by another.
        let cut = OfficeZipBuilder.zip([
            OfficeZipBuilder.stored("[Content_Types].xml", "<Types/>"), OfficeZipBuilder.stored("xl/workbook.xml", "<workbook/>"),
            OfficeZipBuilder.Entry(name: "docProps/thumbnail.wmf", data: Array(wmf.prefix(40))),
        ])
        let (_, _, tried) = try thumbnail(GeneratorInput(bytes: cut, filename: "cut.xlsx", resolver: TypeResolver()))
        guard case .declined(let why) = tried.first?.outcome else {
            Issue.record("ooxml-thumbnail did not decline: \(tried)")
            return
        }
        #expect(why.hasPrefix("docProps/thumbnail.wmf cannot be drawn: "), "\(why)")
    }

    @Test func anOpenDocumentWithoutAThumbnailDeclines() throws {
        let input = GeneratorInput(
            bytes: ZipBuilder.storedEmptyFiles(["mimetype", "content.xml"]), filename: "bare.odt", resolver: TypeResolver())
        #expect(throws: VignetteError(.declined, "no Thumbnails/thumbnail.png in the OpenDocument file")) {
            try OpenDocumentThumbnailGenerator(catalog: .builtIn).makeThumbnail(for: input, request: request)
        }
    }

    @Test func aZipBombDeclaringItsSizeIsRefusedBeforeInflating() throws {
        let generator = OfficeOpenXMLThumbnailGenerator(catalog: .builtIn)
        #expect(throws: VignetteError(.limitExceeded, "docProps/thumbnail.jpeg is 41.9 MB uncompressed, over the limit of 33.6 MB")) {
            try generator.makeThumbnail(for: GeneratorFixtures.input("documents/bomb.docx"), request: request)
        }
    }

    @Test func aZipBombLyingAboutItsSizeStopsAtTheDeclaredSize() throws {
        let generator = OfficeOpenXMLThumbnailGenerator(catalog: .builtIn)
        #expect(throws: VignetteError(.corrupt, "docProps/thumbnail.jpeg inflates to more than its declared 1 KB; stopped there")) {
            try generator.makeThumbnail(for: GeneratorFixtures.input("documents/lying-bomb.docx"), request: request)
        }
    }

    @Test func aDamagedEntryFailsItsCRCCheck() throws {
        var bytes = Array(try Data(contentsOf: URL(fileURLWithPath: GeneratorFixtures.path("documents/writer.odt"))))
        // Flip one byte inside the stored thumbnail's pixels (after its local header).
        let name = Array("Thumbnails/thumbnail.png".utf8)
        let at = try #require((0..<(bytes.count - name.count)).first { bytes[$0..<($0 + name.count)].elementsEqual(name) })
        bytes[at + name.count + 200] ^= 0xFF
        let input = GeneratorInput(bytes: bytes, filename: "damaged.odt", resolver: TypeResolver())
        #expect(throws: VignetteError(.corrupt, "Thumbnails/thumbnail.png fails its CRC-32 check")) {
            try OpenDocumentThumbnailGenerator(catalog: .builtIn).makeThumbnail(for: input, request: request)
        }
    }

    @Test func anUndeclaredCoverIsFoundByItsNameAndNoCoverDeclines() {
        let named = XMLElements(
            Array(
                "<package><manifest><item id=\"a\" href=\"x.png\" media-type=\"image/png\"/><item id=\"b\" href=\"img/Cover.jpg\" media-type=\"image/jpeg\"/></manifest></package>"
                    .utf8))
        #expect(EPUBCoverGenerator.coverHref(named) == "img/Cover.jpg")
        let none = XMLElements(
            Array("<package><manifest><item id=\"a\" href=\"x.png\" media-type=\"image/png\"/></manifest></package>".utf8))
        #expect(EPUBCoverGenerator.coverHref(none) == nil)
    }

    @Test func epubCoverPathsResolveAgainstThePackageDocument() {
        #expect(EPUBCoverGenerator.resolve("images/cover%20art.png", relativeTo: "OEBPS/content.opf") == "OEBPS/images/cover art.png")
        #expect(EPUBCoverGenerator.resolve("../Images/cover.jpg", relativeTo: "OEBPS/content.opf") == "Images/cover.jpg")
        #expect(EPUBCoverGenerator.resolve("../../../x.png", relativeTo: "content.opf") == "x.png")
    }
}
