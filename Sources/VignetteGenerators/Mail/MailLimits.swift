/// Bounds on the work of the e-mail parser: bytes read, parts, multipart depth and headers.
///
/// Over a bound the parser stops that piece of work and says so in a note of the preview;
/// it never reads more than `maxReadBytes` of a file.
struct MailLimits: Sendable, Equatable {
    /// Bytes of a message or mailbox read at most (a message with large attachments is listed up to here).
    var maxReadBytes = 32_000_000
    /// Multipart levels entered; parts nested deeper are not read.
    var maxDepth = 24
    /// MIME parts read in one message.
    var maxParts = 1_000
    /// Header fields read in one part's header.
    var maxHeaderFields = 500
    /// Bytes kept of one header field (unfolded); the rest is cut.
    var maxHeaderBytes = 16_000
    /// Messages of a mailbox shown.
    var maxMessages = 20
    /// Lines of body text shown per message of a mailbox (a single message shows all it may).
    var maxMailboxBodyLines = 40

    /// The defaults.
    static let standard = MailLimits()
}
