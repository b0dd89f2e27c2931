public import VignetteCore
import VignetteImaging

/// Thumbnails of Office documents that carry no preview of their own: the first page drawn from
/// their text, as `OfficePage` lays it out (a text page, a spreadsheet grid or a slide).
///
/// It declares the Office Open XML and OpenDocument families, as the embedded-preview generators
/// do, at a lower priority: a picture the writing program embedded wins, and this draws only
/// when there is none. Legacy Word, Excel and PowerPoint files, which embed none Vignette reads,
/// and RTF documents are drawn directly. The text comes from the same bounded readers as the
/// `office`, `office-legacy` and `rtf` previews, stopped after `budget` characters, which more
/// than fill a page.
public struct OfficePageGenerator: BuiltInGenerator, ThumbnailGenerating {
    /// `office-page`.
    public let identifier = "office-page"
    /// The Office families, the legacy binary formats and RTF.
    public let supportedTypes = [
        "org.openxmlformats.openxml", "org.oasis-open.opendocument",
        "com.microsoft.word.doc", "com.microsoft.excel.xls", "com.microsoft.powerpoint.ppt", "public.rtf",
    ]
    /// Below standard: the embedded previews of the same families are tried first.
    public let priority = GeneratorPriority.generic
    /// None on size: the readers stop after `budget` characters.
    public let limits = GeneratorLimits.none
    /// Characters of text read: a page never shows more.
    public static let budget = 16 << 10
    private let catalog: TypeCatalog
    /// The types whose text the `office` preview reads.
    private let modernTypes = OfficePreviewGenerator().supportedTypes
    /// The types whose text the `office-legacy` preview reads.
    private let legacyTypes = LegacyOfficeGenerator().supportedTypes

    /// Creates the generator over a catalog.
    public init(catalog: TypeCatalog) {
        self.catalog = catalog
    }

    /// The first page of the document; declines a type whose text is not read (a drawing, a
    /// formula) and a document with no text.
    public func makeThumbnail(for input: GeneratorInput, request: ThumbnailRequest) throws -> GeneratedThumbnail {
        let document: OfficeDocument
        if catalog.conforms(input.type, to: "public.rtf") {
            document = try RichTextGenerator.document(of: input, budget: Self.budget, properties: false)
        } else if legacyTypes.contains(where: { catalog.conforms(input.type, to: $0) }) {
            document = try LegacyOfficeGenerator.document(of: input, budget: Self.budget, properties: false, strings: false)
        } else if modernTypes.contains(where: { catalog.conforms(input.type, to: $0) }) {
            document = try OfficePreviewGenerator.document(of: input, budget: Self.budget)
        } else {
            throw VignetteError(.declined, "Vignette does not read the text of \(input.type.localizedDescription) files")
        }
        if let cipher = document.protection {
            throw VignetteError(.declined, "the document is protected by a password (\(cipher)): its text cannot be read")
        }
        guard !document.blocks.isEmpty else { throw VignetteError(.declined, "the document has no text to draw") }
        let layout: OfficePage.Layout =
            catalog.conforms(input.type, to: "public.spreadsheet")
            ? .spreadsheet : catalog.conforms(input.type, to: "public.presentation") ? .presentation : .text
        let fonts = OfficePage.Fonts(regular: try SystemFonts.face(.sans), bold: try SystemFonts.face(.bold))
        let bitmap = try OfficePage.draw(document, layout: layout, targetPixels: request.targetPixels, fonts: fonts)
        return GeneratedThumbnail(bitmap: bitmap)
    }
}
