public import VignetteCore

/// Previews of e-mail: a message (`.eml`, `message/rfc822`) or the first messages of a mailbox
/// (`.mbox`), each with its decoded header, body text and attachment list.
///
/// Headers are decoded (RFC 2047), the body is the text/plain part (else the HTML part as text,
/// and sanitized HTML in the HTML rendering) in its charset, undone from quoted-printable or
/// base64; attachments show name, type and decoded size. Every parser is bounded (`MailLimits`);
/// damage is told in the preview's notes, and a file with no header at all is passed on.
public struct MailPreviewGenerator: BuiltInGenerator, PreviewGenerating {
    /// `mail`.
    public let identifier = "mail"
    /// E-mail messages and mbox mailboxes.
    public let supportedTypes = ["com.apple.mail.email", "org.ietf.mbox"]
    /// The parser's bounds.
    let limits: MailLimits
    /// Longest subject put in the title, in characters.
    static let maxTitleSubject = 200

    /// Creates the generator.
    public init() {
        limits = .standard
    }

    /// "E-mail: Subject" with the message, or "Mailbox, 12 messages" with the first of them.
    public func makePreview(for input: GeneratorInput, request: PreviewRequest) throws -> TextPreview {
        let read = try input.prefix(limits.maxReadBytes + 1)
        let cut = read.count > limits.maxReadBytes
        let bytes = read.prefix(limits.maxReadBytes)
        try Self.declineIfBinary(bytes)
        let readCut =
            cut
            ? "… cut: read the first \(ByteCount.text(bytes.count)) of \(ByteCount.text(max(input.size, read.count))); later parts are not listed"
            : nil
        // A message saved from a mailbox keeps its `From ` line; only several of them make a mailbox.
        let starts = bytes.starts(with: Array("From ".utf8)) || input.type.identifier == "org.ietf.mbox" ? Mailbox.messageStarts(bytes) : []
        if input.type.identifier == "org.ietf.mbox" || starts.count > 1 {
            return Mailbox(bytes: bytes, starts: starts, cut: cut, limits: limits).preview(request: request, readCut: readCut)
        }
        let message = MailMessage(bytes, limits: limits)
        guard !message.header.fields.isEmpty else {
            throw VignetteError(.corrupt, "no header fields at the start: not an e-mail message")
        }
        let page = MailPage(
            message, maxBodyBytes: max(request.maxBytes, 1),
            maxBodyLines: MailPage.bodyLines(within: request.maxLines, attachments: message.attachments.count, notes: message.notes.count))
        var text = page.text
        var html = page.html
        if let readCut {
            text += "\n" + readCut
            html += "<p class=\"vignette-cut\">\(HTML.escape(readCut))</p>\n"
        }
        let subject = MailPage.titleSubject(message.header.text("Subject"))
        return TextPreview(title: "E-mail: " + subject, text: text, html: html, truncated: page.truncated || cut)
    }

    /// Throws `.declined` when the start of `bytes` holds NUL bytes: not a message (an Outlook `.msg`, say).
    static func declineIfBinary(_ bytes: ArraySlice<UInt8>) throws {
        if bytes.prefix(4096).contains(0) {
            throw VignetteError(.declined, "holds NUL bytes: not an Internet message")
        }
    }
}
