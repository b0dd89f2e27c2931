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
}
