public import ArgumentParser
public import VignetteCore
public import VignetteImaging

extension ImageFormat: ExpressibleByArgument {
    /// `png`, `jpeg` or `jpg`, `webp`, `avif`, any case.
    public init?(argument: String) {
        self.init(name: argument)
    }

    /// The names shown in help and completion.
    public static var allValueStrings: [String] { ["png", "jpeg", "webp", "avif"] }

    // What ArgumentParser's default derives too, but its derivation costs conformance-table scans (generic
    // metadata, a reduction) on every parse.
    /// None: each value is described by its name alone.
    public static var allValueDescriptions: [String: String] { [:] }

    /// A transform for `@Option(transform:)` that names `option` in its error:
    /// "--format must be png, jpeg, webp or avif, not gif".
    static func argument(for option: String) -> @Sendable (String) throws -> ImageFormat {
        { text in
            guard let format = ImageFormat(name: text) else { throw ValidationError(invalidNameMessage(text, option: option)) }
            return format
        }
    }
}

extension ThumbnailCrop: ExpressibleByArgument {
    /// `fit`, `fill` or `smart`.
    public init?(argument: String) {
        self.init(rawValue: argument.lowercased())
    }

    // Spelled out for the same reason as ImageFormat's: the defaults' key path and reduction cost a
    // conformance-table scan each on every parse; the values are the same.
    /// `fit`, `fill`, `smart`: the names shown in completion.
    public static var allValueStrings: [String] { allCases.map { $0.rawValue } }

    /// None: each value is described by its name alone.
    public static var allValueDescriptions: [String: String] { [:] }
}
