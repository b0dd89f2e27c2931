public import VignetteCore
import VignetteImaging

/// Previews of Outlook messages (`.msg`): the header rows, body and attachment list of an
/// e-mail preview, read from the message's compound file (`OutlookMessage`); their thumbnails
/// are the start of that text on a page, as text files' are.
public struct OutlookMessageGenerator: BuiltInGenerator, PreviewGenerating, ThumbnailGenerating {
    /// `outlook-message`.
    public let identifier = "outlook-message"
    /// Outlook messages.
    public let supportedTypes = ["com.microsoft.outlook.message"]
    /// None on size: the directory and the text properties are read, capped; attachments are not.
    public let limits = GeneratorLimits.none

    /// Creates the generator.
    public init() {}

    /// "Outlook message: Subject" with the message laid out as an e-mail.
    public func makePreview(for input: GeneratorInput, request: PreviewRequest) throws -> TextPreview {
        let message = try OutlookMessage(try CompoundFile(try input.randomAccess()))
        let page = MailPage(
            rows: message.rows, bodyParts: message.bodyParts, attachments: message.attachments, notes: message.notes,
            maxBodyBytes: max(request.maxBytes, 1),
            maxBodyLines: MailPage.bodyLines(within: request.maxLines, attachments: message.attachments.count, notes: message.notes.count))
        return TextPreview(
            title: "Outlook message: " + MailPage.titleSubject(message.subject), text: page.text, html: page.html,
            truncated: page.truncated)
    }

    /// The message's header rows and the start of its body on an A4 page (`TextThumbnailGenerator.page`).
    public func makeThumbnail(for input: GeneratorInput, request: ThumbnailRequest) throws -> GeneratedThumbnail {
        let message = try OutlookMessage(try CompoundFile(try input.randomAccess()))
        // A page shows about 30 lines; this is more than fits.
        let page = MailPage(
            rows: message.rows, bodyParts: message.bodyParts, attachments: [], notes: [], maxBodyBytes: 8 << 10, maxBodyLines: 60)
        let bitmap = try TextThumbnailGenerator.page(
            text: page.text, font: try SystemFonts.face(.sans), monospace: false, targetPixels: request.targetPixels)
        return GeneratedThumbnail(bitmap: bitmap)
    }
}
