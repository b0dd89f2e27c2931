import Foundation
import Testing
import VignetteCore
import VignetteImaging

@testable import VignetteGenerators

/// Office documents without a preview of their own: the first page drawn from their text.
@Suite("Office pages drawn from their text")
struct OfficePageTests {
    private let generator = OfficePageGenerator(catalog: GeneratorFixtures.registry.catalog)
    private let fonts: OfficePage.Fonts

    init() throws {
        fonts = OfficePage.Fonts(regular: try SystemFonts.face(.sans), bold: try SystemFonts.face(.bold))
    }

    private func input(_ path: String) throws -> GeneratorInput {
        try GeneratorInput(path: path, resolver: TypeResolver(catalog: GeneratorFixtures.registry.catalog))
    }

    private func upload(_ entries: [OfficeZipBuilder.Entry], named name: String) -> GeneratorInput {
        GeneratorInput(
            bytes: OfficeZipBuilder.zip(entries), filename: name, resolver: TypeResolver(catalog: GeneratorFixtures.registry.catalog))
    }

    /// The box around the pixels darker than mid-grey (text; rules and shading are lighter).
    private func inkBox(_ bitmap: Bitmap, rows: Range<Int>? = nil) -> (minX: Int, maxX: Int, minY: Int, maxY: Int)? {
        var box: (minX: Int, maxX: Int, minY: Int, maxY: Int)? = nil
        for y in rows ?? 0..<bitmap.height {
            for x in 0..<bitmap.width {
                let i = (y * bitmap.width + x) * 4
                let luma = (Int(bitmap.pixels[i]) * 299 + Int(bitmap.pixels[i + 1]) * 587 + Int(bitmap.pixels[i + 2]) * 114) / 1000
                guard luma < 128 else { continue }
                box = box.map { (min($0.minX, x), max($0.maxX, x), min($0.minY, y), max($0.maxY, y)) } ?? (x, x, y, y)
            }
        }
        return box
    }

    @Test(arguments: [
        ("docx", 181, 256), ("xlsx", 256, 181), ("pptx", 256, 144), ("doc", 181, 256), ("xls", 256, 181), ("ppt", 256, 144),
        ("rtf", 181, 256),
    ])
    func aDocumentWithoutAPreviewOfItsOwnIsDrawnInTheShapeOfItsKind(ext: String, width: Int, height: Int) throws {
        let (thumb, used, attempts) = try GeneratorFixtures.registry.thumbnail(
            for: try input(LibreOfficeDocuments.path(ext)), request: ThumbnailRequest(maxPixelSize: 256))
        #expect(used == "office-page", "\(attempts.map(\.description))")
        #expect(thumb.bitmap.width == width && thumb.bitmap.height == height)
        #expect(!thumb.isIcon)
        #expect(inkBox(thumb.bitmap) != nil)
    }

    @Test(arguments: [("odt", 181, 256), ("ods", 256, 181), ("odp", 256, 144)])
    func anOpenDocumentIsDrawnInTheShapeOfItsKind(ext: String, width: Int, height: Int) throws {
        let thumb = try generator.makeThumbnail(
            for: try input(LibreOfficeDocuments.path(ext)), request: ThumbnailRequest(maxPixelSize: 256))
        #expect(thumb.bitmap.width == width && thumb.bitmap.height == height)
        #expect(inkBox(thumb.bitmap) != nil)
    }

    @Test func theFirstSlideIsTheOneDrawn() throws {
        let document = try OfficePreviewGenerator.document(
            of: try input(LibreOfficeDocuments.path("pptx")), budget: OfficePageGenerator.budget)
        let slide = OfficePage.firstSlide(document)
        #expect(slide.title == "Welcome Deck")
        #expect(slide.body == ["Opening remarks"])
    }

    @Test func aTitleSlideIsCentred() throws {
        let document = try OfficePreviewGenerator.document(
            of: try input(LibreOfficeDocuments.path("pptx")), budget: OfficePageGenerator.budget)
        let bitmap = try OfficePage.draw(document, layout: .presentation, targetPixels: 512, fonts: fonts)
        #expect(bitmap.width == 512 && bitmap.height == 288)
        let box = try #require(inkBox(bitmap))
        #expect(abs((box.minX + box.maxX) / 2 - 256) <= 3)
        #expect(abs((box.minY + box.maxY) / 2 - 144) <= 20)
    }

    @Test func aSlideWithItsTextHasTheTitleTopLeftAndTheTextBelow() throws {
        var document = OfficeDocument(budget: 10_000)
        document.append(.heading(level: 2, text: OfficeDocument.slideHeading(number: 1, title: ["Roadmap"])))
        for item in ["Ship the thumbnailer", "WebP output", "Office pages", "A Nextcloud backend"] { document.append(.paragraph(item)) }
        document.append(.heading(level: 2, text: OfficeDocument.slideHeading(number: 2, title: ["Not drawn"])))
        let bitmap = try OfficePage.draw(document, layout: .presentation, targetPixels: 640, fonts: fonts)
        let box = try #require(inkBox(bitmap))
        #expect(abs(box.minX - 45) <= 4, "the title starts at the 7 % margin, not centred: \(box)")
        #expect(box.minY < 60)
        // Four items under the title reach well down the slide.
        #expect(box.maxY > 200)
        #expect(OfficePage.firstSlide(document).body.count == 4)
    }

    @Test func aTextPageWrapsParagraphsWithinItsMargins() throws {
        var document = OfficeDocument(budget: 100_000)
        document.append(.heading(level: 1, text: "Quarterly Report"))
        document.append(.paragraph(String(repeating: "Revenue grew and costs fell. ", count: 40)))
        let bitmap = try OfficePage.draw(document, layout: .text, targetPixels: 1024, fonts: fonts)
        #expect(bitmap.width == 724 && bitmap.height == 1024)
        let box = try #require(inkBox(bitmap))
        #expect(box.minX >= 65 && box.maxX <= 659, "ink from \(box.minX) to \(box.maxX), margins at 65 and 659")
        #expect(box.minY >= 61)
        // Forty sentences make many lines, not one line cut at the margin.
        #expect(box.maxY > 400)
    }

    @Test func numbersAreRightAlignedInTheirColumnAndTheSheetNamesAreTabs() throws {
        var document = OfficeDocument(budget: 10_000)
        document.append(.heading(level: 2, text: "Budget"))
        document.append(
            .table(
                OfficeDocument.Table(
                    rows: [["Name", "Sum"], ["Apples", "3.5"], ["Pears", "1234"]], rowCount: 3, columnCount: 2, labelled: true)))
        document.append(.heading(level: 2, text: "Notes"))
        let bitmap = try OfficePage.draw(document, layout: .spreadsheet, targetPixels: 1024, fonts: fonts)
        #expect(bitmap.width == 1024 && bitmap.height == 724)
        let row = 724 / 24
        func band(_ r: Int) -> Range<Int> { (1 + row * r + 2)..<(1 + row * (r + 1) - 1) }
        let apples = try #require(inkBox(bitmap, rows: band(2)))
        let pears = try #require(inkBox(bitmap, rows: band(3)))
        let header = try #require(inkBox(bitmap, rows: band(1)))
        #expect(abs(apples.maxX - pears.maxX) <= 1, "3.5 ends at \(apples.maxX), 1234 at \(pears.maxX)")
        #expect(header.maxX < apples.maxX, "Sum is left-aligned, so it ends before the numbers")
        // Both sheet names are in the tab strip under the grid.
        let tabs = try #require(inkBox(bitmap, rows: (724 - row)..<723))
        #expect(tabs.maxX - tabs.minX > 60)
    }

    @Test func wordsWrapAtTheWidthAndALongRunIsCut() throws {
        let font = fonts.regular
        let width = try font.measure("one two", size: 20)
        #expect(try OfficePage.wrap("one two three", font: font, size: 20, width: width, maxLines: 5) == ["one two", "three"])
        #expect(try OfficePage.wrap("one two three", font: font, size: 20, width: width, maxLines: 1) == ["one two"])
        #expect(try OfficePage.wrap("one\n\ttwo   three", font: font, size: 20, width: 10_000, maxLines: 5) == ["one two three"])
        let run = String(repeating: "x", count: 100_000)
        #expect(
            try OfficePage.wrap("a " + run, font: font, size: 20, width: width, maxLines: 5) == ["a", String(repeating: "x", count: 300)])
        #expect(try OfficePage.wrap("", font: font, size: 20, width: width, maxLines: 5) == [])
    }

    @Test func chineseAndJapaneseBreakBetweenCharactersButNotBeforeClosingPunctuation() throws {
        #expect(OfficePage.breakablePieces("报告：销售") == ["报", "告：", "销", "售"])
        #expect(OfficePage.breakablePieces("Unicode中文。") == ["Unicode", "中", "文。"])
        #expect(OfficePage.breakablePieces("テキスト") == ["テ", "キ", "ス", "ト"])
        #expect(OfficePage.breakablePieces("plain-word") == ["plain-word"])
        let font = fonts.regular
        let paragraph = "本季度公司的销售额比上一季度增长了百分之十五，主要得益于新产品的推出。"
        let width = try font.measure("本季度公司的销售", size: 20)
        let lines = try OfficePage.wrap(paragraph, font: font, size: 20, width: width, maxLines: 10)
        #expect(lines.joined() == paragraph)
        #expect(lines.count >= 4)
        for line in lines {
            #expect(try font.measure(line, size: 20) <= width, "\(line)")
            #expect(!line.hasPrefix("，") && !line.hasPrefix("。"), "\(line)")
        }
        // Korean keeps its spaces between words.
        #expect(try OfficePage.wrap("이번 분기 매출", font: font, size: 20, width: 10_000, maxLines: 2) == ["이번 분기 매출"])
    }

    @Test func slideHeadingsGiveBackTheirTitles() {
        #expect(OfficeDocument.slideTitle(inHeading: OfficeDocument.slideHeading(number: 3, title: ["Budget:", "2027"])) == "Budget: 2027")
        #expect(OfficeDocument.slideTitle(inHeading: OfficeDocument.slideHeading(number: 12, title: [])) == "")
        #expect(OfficeDocument.slideTitle(inHeading: "Slides") == nil)
        #expect(OfficeDocument.slideTitle(inHeading: "Slide x") == nil)
        #expect(OfficeDocument.slideTitle(inHeading: "Slide 2 of 3") == nil)
    }

    @Test func numbersDatesAndTimesReadAsNumeric() {
        for text in ["3.5", "1,234", "-42", "2024-03-15", "12:30", "(15)", "€ 5", "12%"] {
            #expect(OfficePage.looksNumeric(text), "\(text)")
        }
        for text in ["Apples", "", "3a", "-", "Q1"] { #expect(!OfficePage.looksNumeric(text), "\(text)") }
    }

    @Test func anEmptyDocumentDeclinesSoTheFallbackAnswers() throws {
        let (thumb, used, attempts) = try GeneratorFixtures.registry.thumbnail(
            for: GeneratorFixtures.input("documents/no-thumbnail.docx"), request: ThumbnailRequest(maxPixelSize: 64))
        #expect(used == "fallback")
        #expect(thumb.isIcon)
        #expect(
            attempts.map(\.description) == [
                "ooxml-thumbnail: declined: no docProps/thumbnail.jpeg, .png, .emf or .wmf in the Office Open XML file",
                "office-page: declined: the document has no text to draw",
                "fallback: succeeded",
            ])
    }

    @Test func aDrawingIsNotDrawnAsText() throws {
        let odg = upload(
            [
                OfficeZipBuilder.stored("mimetype", "application/vnd.oasis.opendocument.graphics"),
                OfficeZipBuilder.stored("content.xml", "<office:document-content/>"),
            ], named: "shapes.odg")
        #expect(odg.type.identifier == "org.oasis-open.opendocument.graphics")
        #expect(throws: VignetteError(.declined, "Vignette does not read the text of \(odg.type.localizedDescription) files")) {
            try generator.makeThumbnail(for: odg, request: ThumbnailRequest(maxPixelSize: 64))
        }
    }

    @Test func aDocumentOfOneHugeRunWithoutSpacesIsDrawnFromItsStart() throws {
        let run = String(repeating: "x", count: 2 << 20)
        let docx = upload(
            [
                OfficeZipBuilder.stored("[Content_Types].xml", "<Types/>"),
                OfficeZipBuilder.stored(
                    "word/document.xml", "<w:document><w:body><w:p><w:r><w:t>\(run)</w:t></w:r></w:p></w:body></w:document>"),
            ], named: "run.docx")
        let start = ContinuousClock.now
        let thumb = try generator.makeThumbnail(for: docx, request: ThumbnailRequest(maxPixelSize: 256))
        #expect(thumb.bitmap.height == 256)
        #expect(inkBox(thumb.bitmap) != nil)
        // A hang guard only.
        #expect(ContinuousClock.now - start < .seconds(10))
    }
}

extension OfficePageTests {
    /// A DOCX with the given picture as `docProps/thumbnail.jpeg` and one paragraph of text.
    private func docx(thumbnail: Bitmap) throws -> GeneratorInput {
        upload(
            [
                OfficeZipBuilder.stored("[Content_Types].xml", "<Types/>"),
                OfficeZipBuilder.Entry(name: "docProps/thumbnail.jpeg", data: try ImageEncoder.jpeg(thumbnail, quality: 75)),
                OfficeZipBuilder.stored(
                    "word/document.xml", "<w:document><w:body><w:p><w:r><w:t>Report</w:t></w:r></w:p></w:body></w:document>"),
            ], named: "generated.docx")
    }

    @Test func aBlankEmbeddedPreviewGivesWayToThePageDrawnFromTheText() throws {
        // python-docx and python-pptx put a white picture like this one in every file they write.
        let white = Bitmap(width: 395, height: 512, pixels: [UInt8](repeating: 255, count: 395 * 512 * 4))
        let (thumb, used, attempts) = try GeneratorFixtures.registry.thumbnail(
            for: try docx(thumbnail: white), request: ThumbnailRequest(maxPixelSize: 64))
        #expect(used == "office-page")
        #expect(!thumb.isIcon)
        #expect(
            attempts.map(\.description) == [
                "ooxml-thumbnail: declined: docProps/thumbnail.jpeg is blank (one colour all over)", "office-page: succeeded",
            ])
    }

    @Test func anEmbeddedPreviewWithAnythingOnItIsKept() throws {
        var pixels = [UInt8](repeating: 255, count: 64 * 64 * 4)
        for i in stride(from: 0, to: 64 * 4 * 8, by: 4) { pixels[i] = 0; pixels[i + 1] = 0; pixels[i + 2] = 0 }
        let (_, used, _) = try GeneratorFixtures.registry.thumbnail(
            for: try docx(thumbnail: Bitmap(width: 64, height: 64, pixels: pixels)), request: ThumbnailRequest(maxPixelSize: 64))
        #expect(used == "ooxml-thumbnail")
    }
}
