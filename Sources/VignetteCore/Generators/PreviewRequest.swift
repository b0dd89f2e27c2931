/// What a text preview should contain.
public struct PreviewRequest: Sendable, Equatable {
    /// Most bytes of the file to show (the preview is cut with a visible marker beyond).
    public var maxBytes: Int
    /// Most lines to show.
    public var maxLines: Int

    /// Creates a request; defaults show 64 KiB or 2,000 lines.
    public init(maxBytes: Int = 64 << 10, maxLines: Int = 2000) {
        self.maxBytes = maxBytes
        self.maxLines = maxLines
    }
}

/// A text preview: plain text and HTML renderings of the same content.
public struct TextPreview: Sendable, Equatable {
    /// A one-line title ("CSV table, 3 columns × 120 rows").
    public var title: String
    /// The plain-text rendering.
    public var text: String
    /// An HTML fragment (no `<html>` wrapper) rendering the same content.
    public var html: String
    /// Whether the content was cut to the request's limits.
    public var truncated: Bool

    /// Creates a preview.
    public init(title: String, text: String, html: String, truncated: Bool = false) {
        self.title = title
        self.text = text
        self.html = html
        self.truncated = truncated
    }
}
