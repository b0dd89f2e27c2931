import Foundation
import Testing
import VignetteCore
import VignetteImaging

@testable import VignetteGenerators

@Suite("PDFs: facts, text and page 1 through poppler in a child")
struct PDFGeneratorTests {
    // These tests check what poppler reads, not the child's time limit: with the default 10 s,
    // a fresh-clone CI run sharing the two cores with a release build once ran out of time.
    static let generator = PDFGenerator(limits: PDFReader.Limits(timeoutMilliseconds: 120_000))
    static let pdftotext = "/usr/bin/pdftotext"
    static let sharedCorpus =
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().path + "/shared/corpora/mixed/pdf"

    /// The words of `text`, whitespace-normalised (ligatures and soft hyphens left as they are).
    static func words(_ text: String, _ count: Int = 200) -> [String] {
        Array(text.split(whereSeparator: { $0.isWhitespace || $0 == "\u{0C}" }).prefix(count).map(String.init))
    }

    /// pdftotext's text of the first `pages` pages.
    static func reference(_ path: String, pages: Int) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: pdftotext)
        process.arguments = ["-l", String(pages), "-enc", "UTF-8", path, "-"]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    /// Every PDF in `folder` (not below it) that pdftotext reads text from.
    static func withText(in folder: String) throws -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return try names.filter { $0.hasSuffix(".pdf") }.sorted().map { folder + "/" + $0 }.filter {
            !words(try reference($0, pages: 10)).isEmpty
        }
    }

    /// pdftotext's first 200 words are where our preview's text starts, whitespace aside.
    static func compare(_ files: [String]) throws {
        #expect(!files.isEmpty)
        for file in files {
            // The same 120 s as the generator above: this reads every fixture while the whole suite runs.
            let contents = try PDFReader.read(
                Array(try Data(contentsOf: URL(fileURLWithPath: file))), limits: PDFReader.Limits(timeoutMilliseconds: 120_000))
            let ours = PDFPreview(contents).pages.flatMap { $0 }.joined(separator: "\n")
            let theirs = words(try reference(file, pages: contents.pages.count))
            #expect(words(ours, .max).joined().hasPrefix(theirs.joined()), "\((file as NSString).lastPathComponent)")
        }
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: pdftotext), "needs pdftotext (poppler-utils)"))
    func theTextOfEveryFixtureIsPdftotextsText() throws {
        try Self.compare(try Self.withText(in: GeneratorFixtures.path("pdf")))
    }

    @Test(
        .enabled(if: FileManager.default.isExecutableFile(atPath: pdftotext), "needs pdftotext (poppler-utils)"),
        .enabled(if: FileManager.default.fileExists(atPath: sharedCorpus), "needs ../shared/corpora (absent on a fresh clone)"))
    func theTextOfEveryMixedCorpusPDFIsPdftotextsText() throws {
        try Self.compare(try Self.withText(in: Self.sharedCorpus))
    }

    @Test func formFieldsShowTheirValues() throws {
        let preview = try Self.generator.makePreview(
            for: try GeneratorFixtures.input("pdf/libreoffice-form.pdf"), request: PreviewRequest())
        #expect(preview.text.contains("\nExample for a Form\nFirst Name Alice\n"))
    }

    @Test func thePreviewGivesTheFactsThenEachPageInReadingOrder() throws {
        let preview = try Self.generator.makePreview(
            for: try GeneratorFixtures.input("pdf/pdflatex-4-pages.pdf"), request: PreviewRequest())
        #expect(preview.title == "PDF document, 4 pages")
        #expect(preview.text.hasPrefix("Pages: 4\nPage size: 595 × 842 pt (A4)\nPDF version: 1.5\n"))
        #expect(preview.text.contains("\n── Page 1 ──\n"))
        #expect(preview.text.contains("\n── Page 4 ──\n"))
        #expect(!preview.truncated)
        #expect(preview.html.contains("<dt>Pages</dt><dd>4</dd>"))
        #expect(preview.html.contains("<section class=\"page\"><h3>Page 2</h3><p>"))
    }

    @Test func theDocumentInformationIsShown() throws {
        let preview = try Self.generator.makePreview(
            for: try GeneratorFixtures.input("pdf/google-doc-document.pdf"), request: PreviewRequest())
        #expect(preview.title == "PDF: PDF Example Document, 1 page")
        #expect(preview.text.hasPrefix("Title: PDF Example Document\nPages: 1\nPage size: 596 × 842 pt (A4)\n"))
        #expect(preview.html.hasPrefix("<dl class=\"facts\"><dt>Title</dt><dd>PDF Example Document</dd>"))
    }

    @Test func aSmallByteLimitCutsTheTextWithAMarker() throws {
        let preview = try Self.generator.makePreview(
            for: try GeneratorFixtures.input("pdf/pdflatex-4-pages.pdf"), request: PreviewRequest(maxBytes: 300))
        #expect(preview.truncated)
        #expect(preview.text.hasSuffix("\n… cut: showing the text of the first 1 page of 4\n"))
    }

    @Test func aPDFThatNeedsAPasswordSaysSoAndNamesItsCipher() throws {
        let input = try GeneratorFixtures.input("pdf/libreoffice-writer-password.pdf")
        let preview = try Self.generator.makePreview(for: input, request: PreviewRequest())
        #expect(preview.title == "PDF document, protected by a password (128-bit RC4)")
        #expect(
            preview.text
                == "This PDF is protected by a password: it is encrypted with 128-bit RC4, and cannot be shown without the password.\n\nPDF version: 1.5\n"
        )
        #expect(throws: VignetteError(.declined, "the PDF is protected by a password (128-bit RC4): its pages cannot be drawn")) {
            try Self.generator.makeThumbnail(for: input, request: ThumbnailRequest(maxPixelSize: 128))
        }
        // A decline, not a failure: the icon stands in and nothing is reported as broken.
        let (thumb, used, attempts) = try GeneratorFixtures.registry.thumbnail(for: input, request: ThumbnailRequest(maxPixelSize: 128))
        #expect(used == "fallback" && thumb.isIcon)
        #expect(!attempts.contains { $0.isProblem })
    }

    @Test(arguments: [
        ("<</Filter/Standard/V 1/R 2/O(x)/U(y)/P -4>>", "40-bit RC4"),
        ("<</Filter /Standard /V 2 /R 3 /Length 128 /O (a>>b\\)c(d)) /U <3e3e> /P -4>>", "128-bit RC4"),
        (
            "<</CF<</StdCF<</AuthEvent/DocOpen/CFM/AESV2/Length 16>>>>/Filter/Standard/Length 128/R 4/StmF/StdCF/StrF/StdCF/V 4>>",
            "128-bit AES"
        ),
        ("<</CF<</StdCF<</CFM/AESV3/Length 32>>>>/Filter/Standard/Length 256/R 6/V 5/O(o)/U(u)/OE(e)/UE(f)/Perms(p)>>", "256-bit AES"),
        ("<</Filter/Adobe.PubSec/SubFilter/adbe.pkcs7.s5/V 4>>", "certificates (Adobe.PubSec)"),
        ("<</Filter/Standard/R 9>>", "an unknown cipher (version missing)"),
    ])
    func theCipherIsReadFromTheEncryptionDictionary(dictionary: String, cipher: String) throws {
        let file =
            "%PDF-1.7\n1 0 obj\n<</Type/Catalog>>\nendobj\n114 0 obj\n<</Filter/Standard/V 1>>\nendobj\n14 0 obj\n"
            + dictionary + "\nendobj\ntrailer\n<</Root 1 0 R/Encrypt 14 0 R>>\n%%EOF\n"
        #expect(PDFEncryption.dictionary(Array(file.utf8)[...])?.cipher == cipher)
        let inline = "%PDF-1.4\ntrailer\n<</Root 1 0 R/Encrypt " + dictionary + ">>\n"
        #expect(PDFEncryption.dictionary(Array(inline.utf8)[...])?.cipher == cipher)
    }

    @Test func aDamagedEncryptionDictionaryCostsLittleAndNamesNothingItDoesNotSay() {
        // No /Encrypt, a reference to no object, an unterminated string, endless nesting.
        #expect(PDFEncryption.dictionary(Array("%PDF-1.4\n<</Filter/Standard/V 2>>".utf8)[...]) == nil)
        #expect(PDFEncryption.dictionary(Array("trailer<</Encrypt 7 0 R>>".utf8)[...]) == nil)
        let open = "trailer<</Encrypt<</Filter/Standard/O(" + String(repeating: "\\(", count: 100_000)
        #expect(PDFEncryption.dictionary(Array(open.utf8)[...]) == PDFEncryption.Dictionary(filter: "Standard"))
        let deep = "trailer<</Encrypt" + String(repeating: "<<", count: 100_000) + "/V 5"
        #expect(PDFEncryption.dictionary(Array(deep.utf8)[...]) == PDFEncryption.Dictionary())
    }

    @Test func damagedPDFsAnswerOrFailCleanly() throws {
        for name in ["broken-trailer-loop.pdf", "broken-duplicate-xref-entry.pdf"] {
            do {
                let preview = try Self.generator.makePreview(for: try GeneratorFixtures.input("pdf/" + name), request: PreviewRequest())
                #expect(preview.text.contains("Pages: "), "\(name)")
            } catch let error as VignetteError {
                #expect(error.reason.hasPrefix("poppler cannot read the PDF: "), "\(name): \(error)")
            }
        }
        // Not a PDF at all behind the name.
        let junk = GeneratorInput(
            bytes: Array("%PDF-1.4\nnothing else".utf8), filename: "junk.pdf", resolver: TypeResolver(catalog: .builtIn))
        #expect(throws: VignetteError.self) { try Self.generator.makePreview(for: junk, request: PreviewRequest()) }
    }

    @Test func thePageIsDrawnOnWhiteAtTheRequestedSize() throws {
        let thumb = try Self.generator.makeThumbnail(
            for: try GeneratorFixtures.input("pdf/pdflatex-4-pages.pdf"), request: ThumbnailRequest(maxPixelSize: 128))
        // A4 (595 × 842 pt) with its longest side 128 pixels.
        #expect(thumb.bitmap.height == 128)
        #expect(thumb.bitmap.width == 91)
        let px = thumb.bitmap.pixels
        #expect(Array(px[0..<4]) == [255, 255, 255, 255])
        let inked = stride(from: 0, to: px.count, by: 4).filter { px[$0] < 200 && px[$0 + 1] < 200 && px[$0 + 2] < 200 }.count
        #expect(inked > 500, "the page's text should be drawn")
    }

    @Test func aHundredThousandPagesCostTheFirstTen() throws {
        let input = GeneratorInput(bytes: Self.pdf(pages: 100_000), filename: "many.pdf", resolver: TypeResolver(catalog: .builtIn))
        let preview = try Self.generator.makePreview(for: input, request: PreviewRequest())
        #expect(preview.title == "PDF document, 100,000 pages")
        #expect(preview.text.hasSuffix("\n── Page 10 ──\nthe same page\n\n… cut: showing the text of the first 10 pages of 100,000\n"))
    }

    @Test func aPageCountThePageTreeDoesNotHoldIsAClearError() throws {
        let input = GeneratorInput(
            bytes: Self.pdf(pages: 1, declared: 100_000), filename: "lies.pdf", resolver: TypeResolver(catalog: .builtIn))
        #expect(
            throws: VignetteError(
                .corrupt, "poppler finds no page in this PDF (its page tree is damaged, or declares more pages than the file holds)")
        ) { try Self.generator.makePreview(for: input, request: PreviewRequest()) }
    }

    /// A PDF of `pages` pages sharing one content stream, its page tree declaring `declared` pages.
    static func pdf(pages: Int, declared: Int? = nil) -> [UInt8] {
        let stream = "BT /F1 12 Tf 72 720 Td (the same page) Tj ET"
        var bodies = [
            "<< /Type /Catalog /Pages 2 0 R >>",
            "<< /Type /Pages /Kids [\((0..<pages).map { "\($0 + 5) 0 R" }.joined(separator: " "))] /Count \(declared ?? pages) "
                + "/MediaBox [0 0 595 842] /Resources << /Font << /F1 3 0 R >> >> >>",
            "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
            "<< /Length \(stream.utf8.count) >>\nstream\n\(stream)\nendstream",
        ]
        bodies += Array(repeating: "<< /Type /Page /Parent 2 0 R /Contents 4 0 R >>", count: pages)
        var out: [UInt8] = Array("%PDF-1.4\n".utf8)
        var offsets: [Int] = []
        for (i, body) in bodies.enumerated() {
            offsets.append(out.count)
            out += Array("\(i + 1) 0 obj\n\(body)\nendobj\n".utf8)
        }
        let xref = out.count
        out += Array("xref\n0 \(bodies.count + 1)\n0000000000 65535 f \n".utf8)
        for offset in offsets { out += Array((String(repeating: "0", count: 10 - String(offset).count) + "\(offset) 00000 n \n").utf8) }
        out += Array("trailer\n<< /Size \(bodies.count + 1) /Root 1 0 R >>\nstartxref\n\(xref)\n%%EOF\n".utf8)
        return out
    }
}
