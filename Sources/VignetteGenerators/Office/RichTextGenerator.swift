public import VignetteCore

/// Previews of RTF documents (`.rtf`: WordPad, TextEdit, Word's "Rich Text Format"): their
/// `\info` properties, then their text as paragraphs, headings, list items and tables
/// (`RichTextReader`), instead of the control words a text preview shows.
///
/// Only the first `maxScannedBytes` are read: pictures, stored as hex, make RTF files large,
/// and a preview needs the text that comes first.
public struct RichTextGenerator: BuiltInGenerator, PreviewGenerating {
    /// `rtf`.
    public let identifier = "rtf"
    /// RTF documents.
    public let supportedTypes = ["public.rtf"]
    /// None on size: at most `maxScannedBytes` are read.
    public let limits = GeneratorLimits.none
    /// Most bytes of the file read.
    public static let maxScannedBytes = 16 << 20

    /// Creates the generator.
    public init() {}

    /// The properties as `Label: value` lines, then the text, cut at the request's limits;
    /// declines a file that does not start with `{\rtf`, so that the text preview shows it.
    public func makePreview(for input: GeneratorInput, request: PreviewRequest) throws -> TextPreview {
        let document = try Self.document(of: input, budget: max(request.maxBytes, 1), properties: true)
        guard !document.blocks.isEmpty else {
            return TextPreview(
                title: input.type.localizedDescription + ", no text", text: "", html: "<p class=\"vignette-empty\">(no text)</p>\n")
        }
        let (text, html, truncated) = document.rendered(maxBytes: request.maxBytes, maxLines: request.maxLines)
        return TextPreview(title: input.type.localizedDescription, text: text, html: html, truncated: truncated)
    }

    /// The document in `input`, read until `budget` characters of text are held, with its
    /// properties first when `properties`; marked cut when the file is longer than what is read.
    static func document(of input: GeneratorInput, budget: Int, properties: Bool) throws -> OfficeDocument {
        // prefix(_:) allocates what it is asked for: no more than the file holds.
        let bytes = try input.prefix(min(Self.maxScannedBytes, max(input.size, 0)))
        let reader = try RichTextReader(bytes[...], budget: budget)
        var document = reader.document(budget: budget, properties: properties)
        if input.size > bytes.count, !document.isFull { document.cut = true }
        return document
    }
}
