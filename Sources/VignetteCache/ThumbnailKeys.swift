public import VignetteCore

/// The freedesktop `tEXt` keys of a thumbnail, built in one place for the cache and `batch --out`.
public enum ThumbnailKeys {
    /// `Thumb::URI`, `Thumb::MTime`, `Thumb::Size`, `Thumb::Mimetype` (when known),
    /// `Thumb::Image::Width`/`Height` (when known) and `Software`, in that order.
    public static func text(for source: SourceFile, mimeType: String?, imageSize: PixelSize?, software: String) -> [(String, String)] {
        var text: [(String, String)] = [
            ("Thumb::URI", source.uri),
            ("Thumb::MTime", String(source.modificationSeconds)),
            ("Thumb::Size", String(source.size)),
        ]
        if let mimeType { text.append(("Thumb::Mimetype", mimeType)) }
        if let imageSize {
            text.append(("Thumb::Image::Width", String(imageSize.width)))
            text.append(("Thumb::Image::Height", String(imageSize.height)))
        }
        text.append(("Software", software))
        return text
    }
}
