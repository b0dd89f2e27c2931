public import VignetteCore

/// Previews of Office documents as their text: DOCX and ODT as headings, paragraphs, lists and
/// tables; XLSX and ODS as their first sheets as tables; PPTX and ODP as one section per slide.
///
/// Its types are more specific than the zip family's, so it wins over the zip listing. Parts
/// are read through capped, CRC-checked zip reads (`OfficePackage.maxPartBytes`) and a bounded
/// XML reader with no entity expansion (`XMLTokenizer`): a zip or XML bomb is refused with the
/// part named, and the file falls to the next generator.
public struct OfficePreviewGenerator: BuiltInGenerator, PreviewGenerating {
    /// `office`.
    public let identifier = "office"
    /// Word processing, spreadsheet and presentation documents, Office Open XML and OpenDocument,
    /// with their templates.
    public let supportedTypes = [
        "org.openxmlformats.wordprocessingml.document", "org.openxmlformats.wordprocessingml.template",
        "org.openxmlformats.spreadsheetml.sheet", "org.openxmlformats.spreadsheetml.template",
        "org.openxmlformats.presentationml.presentation", "org.openxmlformats.presentationml.template",
        "org.openxmlformats.presentationml.slideshow",
        "org.oasis-open.opendocument.text", "org.oasis-open.opendocument.text-template",
        "org.oasis-open.opendocument.spreadsheet", "org.oasis-open.opendocument.spreadsheet-template",
        "org.oasis-open.opendocument.presentation", "org.oasis-open.opendocument.presentation-template",
    ]

    /// Creates the generator.
    public init() {}

    /// The document's text; declines a zip that holds none of the parts it reads (an `.xlsb`).
    public func makePreview(for input: GeneratorInput, request: PreviewRequest) throws -> TextPreview {
        let document = try Self.document(of: input, budget: max(request.maxBytes, 1))
        let (text, html, truncated) = document.rendered(maxBytes: request.maxBytes, maxLines: request.maxLines)
        let title = ([input.type.localizedDescription] + document.summary).joined(separator: ", ")
        guard !document.blocks.isEmpty else {
            return TextPreview(title: title + ", no text", text: "", html: "<p class=\"vignette-empty\">(no text)</p>\n")
        }
        return TextPreview(title: title, text: text, html: html, truncated: truncated)
    }

    /// The text of the Office document `input`, read until `budget` characters are held;
    /// declines a zip that holds none of the parts it reads (an `.xlsb`).
    static func document(of input: GeneratorInput, budget: Int) throws -> OfficeDocument {
        let package = try OfficePackage(input)
        var document = OfficeDocument(budget: budget)
        if package.has("word/document.xml") {
            try WordprocessingReader.read(package, into: &document)
        } else if package.has("xl/workbook.xml") {
            try SpreadsheetReader.read(package, into: &document)
        } else if package.has("ppt/presentation.xml") {
            try PresentationReader.read(package, into: &document)
        } else if package.has("content.xml") {
            try OpenDocumentReader.read(package, into: &document)
        } else {
            throw VignetteError(
                .declined, "no word/document.xml, xl/workbook.xml, ppt/presentation.xml or content.xml in the file")
        }
        return document
    }
}
