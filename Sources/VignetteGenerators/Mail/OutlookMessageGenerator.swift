public import VignetteCore

/// Previews of Outlook messages (`.msg`): the header rows, body and attachment list of an
/// e-mail preview, read from the message's compound file (`OutlookMessage`).
public struct OutlookMessageGenerator: BuiltInGenerator, PreviewGenerating {
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
        let other = MailPage.shownFields.count + message.attachments.count + message.notes.count + 6
        let page = MailPage(
            rows: message.rows, bodyParts: message.bodyParts, attachments: message.attachments, notes: message.notes,
            maxBodyBytes: max(request.maxBytes, 1), maxBodyLines: max(request.maxLines - other, 1))
        var subject = message.subject ?? "(no subject)"
        if subject.count > MailPreviewGenerator.maxTitleSubject {
            subject = String(subject.prefix(MailPreviewGenerator.maxTitleSubject - 1)) + "…"
        }
        return TextPreview(title: "Outlook message: " + subject, text: page.text, html: page.html, truncated: page.truncated)
    }
}
