/// An encoded thumbnail's format, as every edge names it (`png`, `jpeg`, `jpg`, `webp`, `avif`).
public enum ImageFormat: String, Sendable, CaseIterable {
    /// PNG (keeps alpha).
    case png
    /// JPEG (alpha composited over a background colour).
    case jpeg
    /// WebP, lossy (keeps alpha).
    case webp
    /// AVIF: AV1 in HEIF (keeps alpha).
    case avif

    /// The format named `name` (`png`, `jpeg` or `jpg`, `webp`, `avif`, any case); nil for anything else.
    public init?(name: String) {
        switch name.lowercased() {
        case "png": self = .png
        case "jpeg", "jpg": self = .jpeg
        case "webp": self = .webp
        case "avif": self = .avif
        default: return nil
        }
    }

    /// The format a file name's extension implies (`.jpg`, `.jpeg`, `.png`, `.webp`, `.avif`), if any.
    public init?(pathExtensionOf path: String) {
        guard let dot = path.lastIndex(of: "."), !path[dot...].contains("/") else { return nil }
        self.init(name: String(path[path.index(after: dot)...]))
    }

    /// The usual filename extension.
    public var fileExtension: String { self == .jpeg ? "jpg" : rawValue }

    /// The media type (`image/png`, `image/jpeg`, `image/webp`, `image/avif`).
    public var mediaType: String { "image/" + rawValue }

    /// Whether the format takes a quality setting.
    public var isLossy: Bool { self != .png }

    /// Whether the format keeps transparency.
    public var keepsAlpha: Bool { self != .jpeg }

    /// The message for a name that is no format: "`option` must be png, jpeg, webp or avif, not `name`".
    public static func invalidNameMessage(_ name: String, option: String) -> String {
        "\(option) must be png, jpeg, webp or avif, not \(name)"
    }
}
