/// An encoded thumbnail's format, as every edge names it (`png`, `jpeg`, `jpg`).
public enum ImageFormat: String, Sendable, CaseIterable {
    /// PNG (keeps alpha).
    case png
    /// JPEG (alpha composited over a background colour).
    case jpeg

    /// The format named `name` (`png`, `jpeg` or `jpg`, any case); nil for anything else.
    public init?(name: String) {
        switch name.lowercased() {
        case "png": self = .png
        case "jpeg", "jpg": self = .jpeg
        default: return nil
        }
    }

    /// The format a file name's extension implies (`.jpg`, `.jpeg`, `.png`), if any.
    public init?(pathExtensionOf path: String) {
        guard let dot = path.lastIndex(of: "."), !path[dot...].contains("/") else { return nil }
        self.init(name: String(path[path.index(after: dot)...]))
    }

    /// The usual filename extension.
    public var fileExtension: String { self == .png ? "png" : "jpg" }

    /// The media type (`image/png`, `image/jpeg`).
    public var mediaType: String { self == .png ? "image/png" : "image/jpeg" }

    /// The message for a name that is no format: "`option` must be png or jpeg, not `name`".
    public static func invalidNameMessage(_ name: String, option: String) -> String {
        "\(option) must be png or jpeg, not \(name)"
    }
}
