import Foundation
import Testing
import VignetteCore

@testable import VignetteGenerators

/// Zip and XML bombs in Office files: each is stopped with a message naming the part, quickly,
/// before the memory it asks for is spent.
@Suite("Office documents: hostile inputs")
struct OfficeHostileInputTests {
    private let generator = OfficePreviewGenerator()

    private func docx(_ document: OfficeZipBuilder.Entry) -> GeneratorInput {
        let bytes = OfficeZipBuilder.zip([OfficeZipBuilder.stored("[Content_Types].xml", "<Types/>"), document])
        return GeneratorInput(bytes: bytes, filename: "hostile.docx", resolver: TypeResolver(catalog: GeneratorFixtures.registry.catalog))
    }

    /// Runs the generator on `input`, expecting `error` (well within the time a hang would take).
    private func expectStopped(_ input: GeneratorInput, with error: VignetteError) {
        let start = ContinuousClock.now
        #expect(throws: error) { try generator.makePreview(for: input, request: PreviewRequest()) }
        // A hang guard only: the 2 s target is timed on the release build by bench/limits.sh and the CLI tests.
        #expect(ContinuousClock.now - start < .seconds(10))
    }

    @Test func aGigabyteOfZerosAsTheDocumentIsRefusedBeforeInflating() {
        let (stream, size) = OfficeZipBuilder.zeros(chunks: 1016)
        #expect(size == 1_073_415_176)
        // The CRC is never reached: the declared size is checked first.
        let entry = OfficeZipBuilder.Entry(name: "word/document.xml", data: stream, method: 8, declaredSize: size, crc: 0)
        expectStopped(
            docx(entry), with: VignetteError(.refused, "word/document.xml is 1.1 GB uncompressed, over the limit of 33.6 MB"))
    }

    @Test func aDocumentThatInflatesPastItsDeclaredSizeIsStoppedThere() {
        let (stream, _) = OfficeZipBuilder.zeros(chunks: 1016)
        let entry = OfficeZipBuilder.Entry(name: "word/document.xml", data: stream, method: 8, declaredSize: 1 << 20, crc: 0)
        expectStopped(
            docx(entry), with: VignetteError(.corrupt, "word/document.xml inflates to more than its declared 1 MB; stopped there"))
    }

    /// A workbook whose one sheet is `sheet` (stored, or as given).
    private func xlsx(_ sheet: OfficeZipBuilder.Entry) -> GeneratorInput {
        let bytes = OfficeZipBuilder.zip([
            OfficeZipBuilder.stored("[Content_Types].xml", "<Types/>"),
            OfficeZipBuilder.stored("xl/workbook.xml", "<workbook><sheets><sheet name=\"Big\" r:id=\"rId1\"/></sheets></workbook>"),
            OfficeZipBuilder.stored(
                "xl/_rels/workbook.xml.rels", "<Relationships><Relationship Id=\"rId1\" Target=\"worksheets/sheet1.xml\"/></Relationships>"),
            sheet,
        ])
        return GeneratorInput(bytes: bytes, filename: "big.xlsx", resolver: TypeResolver(catalog: GeneratorFixtures.registry.catalog))
    }

    @Test func aSheetOverThePartCapIsReadAsFarAsThePreviewNeeds() throws {
        // 300 rows, each followed by 128 KB of comment: 38 MB, over the 32 MiB a part may have.
        let padding = "<!--" + String(repeating: "x", count: 128 << 10) + "-->"
        let rows = (1...300).map { "<row r=\"\($0)\"><c r=\"A\($0)\"><v>\($0)</v></c></row>" + padding }
        let xml = "<worksheet><dimension ref=\"A1:A300\"/><sheetData>" + rows.joined() + "</sheetData></worksheet>"
        let start = ContinuousClock.now
        let result = try generator.makePreview(
            for: xlsx(OfficeZipBuilder.stored("xl/worksheets/sheet1.xml", xml)), request: PreviewRequest())
        // A hang guard only: the 2 s target is timed on the release build by bench/limits.sh and the CLI tests.
        #expect(ContinuousClock.now - start < .seconds(10))
        #expect(result.text.hasSuffix("200 | 200\n… showing 200 of 300 rows"))
    }

    @Test func aDeflatedSheetUnderTheRatioCostsNoMoreThanThePartCap() throws {
        // 42 MB of zeros in 270 KB (157 times): inflated only to the 32 MiB cap, then no tags.
        let (stream, size) = OfficeZipBuilder.zeros(chunks: 40)
        let entry = OfficeZipBuilder.Entry(name: "xl/worksheets/sheet1.xml", data: stream, method: 8, declaredSize: size, crc: 0)
        let start = ContinuousClock.now
        let result = try generator.makePreview(for: xlsx(entry), request: PreviewRequest())
        // A hang guard only: the 2 s target is timed on the release build by bench/limits.sh and the CLI tests.
        #expect(ContinuousClock.now - start < .seconds(10))
        #expect(result.text == "## Big\n\n(empty)")
    }

    @Test func aSheetThatInflatesAThousandfoldIsRefused() {
        let (stream, _) = OfficeZipBuilder.zeros(chunks: 160)
        let entry = OfficeZipBuilder.Entry(name: "xl/worksheets/sheet1.xml", data: stream, method: 8, declaredSize: 1 << 30, crc: 0)
        expectStopped(
            xlsx(entry),
            with: VignetteError(.refused, "xl/worksheets/sheet1.xml inflates from 1.1 MB to 1.1 GB, more than 200 times (a zip bomb)"))
    }

    @Test func billionLaughsIsRefusedWithoutExpandingAnEntity() {
        var dtd = "<!DOCTYPE lolz [<!ENTITY lol \"lol\">"
        for level in 1...9 {
            dtd += "<!ENTITY lol\(level) \"" + String(repeating: "&lol\(level == 1 ? "" : String(level - 1));", count: 10) + "\">"
        }
        let xml =
            "<?xml version=\"1.0\"?>\n" + dtd + "]>\n<w:document><w:body><w:p><w:r><w:t>&lol9;</w:t></w:r></w:p></w:body></w:document>"
        expectStopped(
            docx(OfficeZipBuilder.stored("word/document.xml", xml)),
            with: VignetteError(
                .refused, "word/document.xml has a DOCTYPE or other declaration; Office parts have none, and entities are not expanded"))
    }

    @Test func anUndeclaredEntityIsAnErrorNotText() {
        let xml = "<w:document><w:body><w:p><w:r><w:t>&lol9;</w:t></w:r></w:p></w:body></w:document>"
        expectStopped(
            docx(OfficeZipBuilder.stored("word/document.xml", xml)),
            with: VignetteError(.corrupt, "word/document.xml uses the undefined entity &lol9; (entities are not expanded)"))
    }

    @Test func aHundredThousandLevelsOfNestingAreRefusedAtTheDepthCap() {
        let xml =
            "<w:document><w:body>" + String(repeating: "<w:p>", count: 100_000) + String(repeating: "</w:p>", count: 100_000)
            + "</w:body></w:document>"
        expectStopped(
            docx(OfficeZipBuilder.stored("word/document.xml", xml)),
            with: VignetteError(.refused, "word/document.xml nests deeper than 256 elements"))
    }

    @Test func aRefusedDocumentFallsToTheFallbackWithTheReasonInTheAttempts() throws {
        let xml = "<w:document>" + String(repeating: "<w:p>", count: 100_000)
        let input = docx(OfficeZipBuilder.stored("word/document.xml", xml))
        let (_, used, attempts) = try GeneratorFixtures.registry.preview(for: input, request: PreviewRequest())
        #expect(used == "fallback")
        #expect(
            attempts.map(\.description) == [
                "office: failed: word/document.xml nests deeper than 256 elements",
                "zip-listing: skipped: not tried: office refused the file",
                "fallback: succeeded",
            ])
        #expect(attempts.first?.errorCode == .refused)
    }
}
