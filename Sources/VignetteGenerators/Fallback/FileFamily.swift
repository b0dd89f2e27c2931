public import VignetteCore

/// The broad family of a content type, which picks the fallback icon's colour.
public enum FileFamily: String, Sendable, CaseIterable {
    /// Text of any kind (plain, source, structured, markup).
    case text
    /// Still images.
    case image
    /// Sound.
    case audio
    /// Moving pictures.
    case video
    /// Archives and compressed files.
    case archive
    /// Programs and libraries.
    case executable
    /// Documents (PDF, office, e-books).
    case document
    /// Fonts.
    case font
    /// Anything else.
    case unknown

    /// The family of `type`, by conformance (the first family that matches, in this order).
    public init(_ type: UniformType, catalog: TypeCatalog) {
        let rules: [(String, FileFamily)] = [
            ("public.image", .image), ("public.audio", .audio), ("public.movie", .video),
            ("public.video", .video), ("public.audiovisual-content", .video), ("public.font", .font),
            ("public.archive", .archive), ("com.adobe.pdf", .document), ("public.composite-content", .document),
            ("public.text", .text), ("public.executable", .executable),
        ]
        for (parent, family) in rules where catalog.conforms(type, to: parent) {
            self = family
            return
        }
        self = .unknown
    }

    /// The family's colour (RGB), used for the icon's fold and badge.
    public var color: (UInt8, UInt8, UInt8) {
        switch self {
        case .text: (0x3D, 0x7E, 0xD8)
        case .image: (0x2E, 0xA0, 0x5A)
        case .audio: (0xD9, 0x4F, 0x9C)
        case .video: (0x8E, 0x44, 0xD6)
        case .archive: (0xC8, 0x8A, 0x1E)
        case .executable: (0xD2, 0x3F, 0x31)
        case .document: (0xE0, 0x6A, 0x1B)
        case .font: (0x1F, 0x9A, 0xA8)
        case .unknown: (0x7A, 0x84, 0x8F)
        }
    }
}
