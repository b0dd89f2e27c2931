import Foundation
import Testing
import VignetteCore

@testable import VignetteGenerators

@Suite("Office document previews")
struct OfficePreviewTests {
    private let generator = OfficePreviewGenerator()

    private func preview(path: String, request: PreviewRequest = PreviewRequest()) throws -> (TextPreview, String) {
        let input = try GeneratorInput(path: path, resolver: TypeResolver(catalog: GeneratorFixtures.registry.catalog))
        let (result, used, _) = try GeneratorFixtures.registry.preview(for: input, request: request)
        return (result, used)
    }

    private func upload(_ bytes: [UInt8], named name: String) -> GeneratorInput {
        GeneratorInput(bytes: bytes, filename: name, resolver: TypeResolver(catalog: GeneratorFixtures.registry.catalog))
    }

    @Test(arguments: ["docx", "odt"])
    func aTextDocumentWrittenByLibreOfficeShowsHeadingsParagraphsListsAndTables(ext: String) throws {
        let (result, used) = try preview(path: LibreOfficeDocuments.path(ext))
        #expect(used == "office")
        #expect(result.title == (ext == "docx" ? "Word document" : "OpenDocument text"))
        LibreOfficeDocuments.expectReport(result, properties: "")
    }

    @Test(arguments: ["xlsx", "ods"])
    func aSpreadsheetWrittenByLibreOfficeShowsItsSheetWithNumbersAndDates(ext: String) throws {
        let (result, used) = try preview(path: LibreOfficeDocuments.path(ext))
        #expect(used == "office")
        #expect(result.title == (ext == "xlsx" ? "Excel workbook" : "OpenDocument spreadsheet") + ", 1 sheet: budget")
        #expect(
            result.text == """
                ## budget

                  | A      | B      | C
                --+--------+--------+-----------
                1 | Name   | Amount | When
                2 | Apples | 3.5    | 2024-03-15
                3 | Pears  | 42     | 2023-12-31
                """)
        #expect(result.html.contains("<tr><th></th><th>A</th><th>B</th><th>C</th></tr>\n<tr><th>1</th><td>Name</td>"))
    }

    @Test(arguments: ["pptx", "odp"])
    func aPresentationWrittenByLibreOfficeShowsOneSectionPerSlideWithItsTitle(ext: String) throws {
        let (result, used) = try preview(path: LibreOfficeDocuments.path(ext))
        #expect(used == "office")
        #expect(result.title == (ext == "pptx" ? "PowerPoint presentation" : "OpenDocument presentation") + ", 2 slides")
        #expect(
            result.text == """
                ## Slide 1: Welcome Deck

                Opening remarks

                ## Slide 2: Second Slide

                Details here
                """)
    }

    @Test func aLegacyWordDocumentShowsItsPropertiesAndParagraphs() throws {
        let (result, used) = try preview(path: LibreOfficeDocuments.path("doc"))
        #expect(used == "office-legacy")
        #expect(result.title == "Word 97-2003 document")
        let lines = result.text.split(separator: "\n").map(String.init)
        #expect(lines.prefix(2) == ["  Title:  Report for the board", "  Author: Ada Lovelace"])
        #expect(
            Array(lines.dropFirst(2).prefix(10)) == [
                "Quarterly Report", "Revenue grew & costs fell.", "Highlights", "First bullet", "Second bullet", "Step one",
                "Step two", "Region", "Sales", "North",
            ])
    }

    @Test func aLegacyWorkbookShowsItsSheetLikeXLSX() throws {
        let (result, used) = try preview(path: LibreOfficeDocuments.path("xls"))
        #expect(used == "office-legacy")
        #expect(result.title == "Excel 97-2003 workbook, 1 sheet: budget")
        #expect(
            result.text.hasSuffix(
                """
                ## budget

                  | A      | B      | C
                --+--------+--------+-----------
                1 | Name   | Amount | When
                2 | Apples | 3.5    | 2024-03-15
                3 | Pears  | 42     | 2023-12-31
                """))
    }

    @Test func aLegacyPresentationShowsOneSectionPerSlide() throws {
        let (result, used) = try preview(path: LibreOfficeDocuments.path("ppt"))
        #expect(used == "office-legacy")
        #expect(result.title == "PowerPoint 97-2003 presentation, 2 slides")
        #expect(result.text.hasSuffix("## Slide 1: Welcome Deck\n\nOpening remarks\n\n## Slide 2: Second Slide\n\nDetails here"))
    }

    @Test func aLongDocumentIsCutAtTheRequestedBytesWithAVisibleMarker() throws {
        let paragraphs = (1...500).map { "<w:p><w:r><w:t>Paragraph number \($0) of the long document.</w:t></w:r></w:p>" }
        let docx = OfficeZipBuilder.zip([
            OfficeZipBuilder.stored("word/document.xml", "<w:document><w:body>\(paragraphs.joined())</w:body></w:document>")
        ])
        let result = try generator.makePreview(for: upload(docx, named: "long.docx"), request: PreviewRequest(maxBytes: 1000))
        #expect(result.truncated)
        #expect(result.text.hasPrefix("Paragraph number 1 of the long document.\n\nParagraph number 2 of"))
        #expect(result.text.hasSuffix("\nParagraph number 23 of the long document.\n\n… cut: the rest of the document is not shown"))
        #expect(
            result.html.hasSuffix(
                "<p>Paragraph number 23 of the long document.</p>\n<p class=\"vignette-cut\">… cut: the rest of the document is not shown</p>\n"
            ))
    }

    @Test func aTableOverTheRequestedBytesShowsTheRowsThatFit() throws {
        let rows = (1...100).map {
            "<table:table-row><table:table-cell><text:p>row \($0) of the sheet</text:p></table:table-cell></table:table-row>"
        }
        let content =
            "<office:document-content><office:body><office:spreadsheet><table:table table:name=\"Long\">"
            + rows.joined() + "</table:table></office:spreadsheet></office:body></office:document-content>"
        let ods = OfficeZipBuilder.zip([OfficeZipBuilder.stored("content.xml", content)])
        let result = try generator.makePreview(for: upload(ods, named: "long.ods"), request: PreviewRequest(maxBytes: 600, maxLines: 2000))
        #expect(result.truncated)
        #expect(result.text.utf8.count <= 600)
        let lines = result.text.split(separator: "\n").map(String.init)
        #expect(lines.last == "… cut: the rest of the document is not shown")
        let note = try #require(lines.dropLast().last)
        #expect(note.hasPrefix("… showing ") && note.hasSuffix(" of 100 rows"))
        #expect(result.html.contains("<p class=\"vignette-cut\">\(note)</p>"))
        let lineLimited = try generator.makePreview(for: upload(ods, named: "long.ods"), request: PreviewRequest(maxLines: 10))
        #expect(lineLimited.text.split(separator: "\n", omittingEmptySubsequences: false).count <= 10)
    }

    @Test func repeatedSpreadsheetCellsAreCountedNotExpanded() throws {
        // LibreOffice pads every sheet to its 16,384 × 1,048,576 grid with repeated empty cells.
        let content = """
            <office:document-content><office:body><office:spreadsheet>
            <table:table table:name="Wide">
            <table:table-row><table:table-cell><text:p>x</text:p></table:table-cell>\
            <table:table-cell table:number-columns-repeated="40"><text:p>y</text:p></table:table-cell>\
            <table:table-cell table:number-columns-repeated="16343"/></table:table-row>
            <table:table-row table:number-rows-repeated="1048575"><table:table-cell table:number-columns-repeated="16384"/></table:table-row>
            </table:table></office:spreadsheet></office:body></office:document-content>
            """
        let ods = OfficeZipBuilder.zip([OfficeZipBuilder.stored("content.xml", content)])
        let start = ContinuousClock.now
        let result = try generator.makePreview(for: upload(ods, named: "wide.ods"), request: PreviewRequest())
        // A hang guard only: the 2 s target is timed on the release build by bench/limits.sh and the CLI tests.
        #expect(ContinuousClock.now - start < .seconds(10))
        let lines = result.text.split(separator: "\n").map(String.init)
        #expect(lines.count == 5)
        #expect(lines[3].hasPrefix("1 | x | y | y |"))
        #expect(lines[4] == "… showing 30 of 41 columns")
    }

    @Test func aZipWithoutOfficePartsIsDeclined() throws {
        let zip = OfficeZipBuilder.zip([OfficeZipBuilder.stored("readme.txt", "hello")])
        #expect(throws: VignetteError(.declined, "no word/document.xml, xl/workbook.xml, ppt/presentation.xml or content.xml in the file"))
        {
            try generator.makePreview(for: upload(zip, named: "odd.docx"), request: PreviewRequest())
        }
    }
}
