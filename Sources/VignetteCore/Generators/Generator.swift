/// A previewer for some content types: it declares what it handles, how much it should be
/// preferred, and its limits. Capabilities come from the two refinements below.
///
/// Register one with `registry.register(MyGenerator())`; the registry picks, for each file,
/// the generators whose types the file conforms to, most specific type first.
public protocol Generator: Sendable {
    /// A stable, unique name (`image`, `text`, `com.example.palette`).
    var identifier: String { get }
    /// Content types handled; a file matches when its type conforms to one of them.
    var supportedTypes: [String] { get }
    /// Preference among generators for equally specific types.
    var priority: GeneratorPriority { get }
    /// Caps under which the generator is tried at all.
    var limits: GeneratorLimits { get }
    /// Where the generator comes from: `built-in`, `in-process`, or the manifest file that declared it.
    var origin: String { get }
    /// This generator as a thumbnail generator, or nil when it draws none.
    ///
    /// Conforming to `ThumbnailGenerating` provides it; there is no need to write it.
    var asThumbnailGenerator: (any ThumbnailGenerating)? { get }
    /// This generator as a preview generator, or nil when it writes none.
    ///
    /// Conforming to `PreviewGenerating` provides it; there is no need to write it.
    var asPreviewGenerator: (any PreviewGenerating)? { get }
}

extension Generator {
    /// Generators compiled into the program say `in-process` unless they say otherwise.
    public var origin: String { "in-process" }

    /// A dynamic cast, for a type whose capabilities the defaults below cannot see statically
    /// (a conformance added in another module, or by a subclass).
    public var asThumbnailGenerator: (any ThumbnailGenerating)? { self as? any ThumbnailGenerating }

    /// A dynamic cast, for a type whose capabilities the defaults below cannot see statically.
    public var asPreviewGenerator: (any PreviewGenerating)? { self as? any PreviewGenerating }
}

/// A generator that draws thumbnails.
public protocol ThumbnailGenerating: Generator {
    /// A thumbnail for `input` fitting `request`, or a thrown error (`.declined` to pass the file on).
    func makeThumbnail(for input: GeneratorInput, request: ThumbnailRequest) throws -> GeneratedThumbnail
}

extension ThumbnailGenerating {
    // Known statically: a dynamic cast to a protocol costs the runtime a scan of every
    // conformance record in the program (about 25 µs) for each new type it meets.
    /// The generator itself.
    public var asThumbnailGenerator: (any ThumbnailGenerating)? { self }
}

/// A generator that writes text previews (plain text and HTML).
public protocol PreviewGenerating: Generator {
    /// A text preview of `input`, or a thrown error (`.declined` to pass the file on).
    func makePreview(for input: GeneratorInput, request: PreviewRequest) throws -> TextPreview
}

extension PreviewGenerating {
    /// The generator itself.
    public var asPreviewGenerator: (any PreviewGenerating)? { self }
}

/// Preference among generators whose types are equally specific; higher wins.
public struct GeneratorPriority: RawRepresentable, Comparable, Hashable, Sendable, CustomStringConvertible {
    /// The numeric value.
    public let rawValue: Int
    /// Creates a priority from its value.
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// The viewer fallback: answers for anything, always last.
    public static let fallback = GeneratorPriority(rawValue: -1000)
    /// A generator that copes with a broad family but is not specialised (an external tool for many formats).
    public static let generic = GeneratorPriority(rawValue: 0)
    /// The ordinary built-in generator for its types.
    public static let standard = GeneratorPriority(rawValue: 100)
    /// A generator meant to win over the standard one for the same types (a better custom renderer).
    public static let preferred = GeneratorPriority(rawValue: 200)

    /// Compares by value.
    public static func < (lhs: GeneratorPriority, rhs: GeneratorPriority) -> Bool { lhs.rawValue < rhs.rawValue }

    /// The named level when there is one, else the number.
    public var description: String {
        switch rawValue {
        case Self.fallback.rawValue: "fallback"
        case Self.generic.rawValue: "generic"
        case Self.standard.rawValue: "standard"
        case Self.preferred.rawValue: "preferred"
        default: String(rawValue)
        }
    }
}

/// Caps a generator works under; a file over them skips the generator (the reason shows in `which`).
public struct GeneratorLimits: Sendable, Equatable {
    /// Largest input file in bytes the generator is tried on; nil for no cap.
    public var maxFileBytes: Int?
    /// Longest a run may take, in seconds (enforced for external commands); nil for none.
    public var timeoutSeconds: Double?

    /// Creates limits.
    public init(maxFileBytes: Int? = nil, timeoutSeconds: Double? = nil) {
        self.maxFileBytes = maxFileBytes
        self.timeoutSeconds = timeoutSeconds
    }

    /// No caps.
    public static let none = GeneratorLimits()
}

/// What a thumbnail generator made.
public struct GeneratedThumbnail: Sendable {
    /// The pixels (straight-alpha RGBA), at most the requested size.
    public var bitmap: Bitmap
    /// Warnings (a partly decoded image, say).
    public var warnings: [String]
    /// Whether this is a generic icon rather than a picture of the content.
    public var isIcon: Bool
    /// The pictured image's own size in pixels, when the generator knows it
    /// (the freedesktop cache records it as `Thumb::Image::Width/Height`).
    public var originalSize: PixelSize?

    /// Creates a result.
    public init(bitmap: Bitmap, warnings: [String] = [], isIcon: Bool = false, originalSize: PixelSize? = nil) {
        self.bitmap = bitmap
        self.warnings = warnings
        self.isIcon = isIcon
        self.originalSize = originalSize
    }
}

/// A width and height in pixels.
public struct PixelSize: Sendable, Equatable {
    /// Pixels across.
    public var width: Int
    /// Pixels down.
    public var height: Int

    /// A size of `width` × `height`.
    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }
}
