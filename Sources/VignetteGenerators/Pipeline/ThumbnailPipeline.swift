public import VignetteCore
public import VignetteImaging

/// The one path from a file to a thumbnail that every edge takes (CLI, batch, service, viewer page).
///
/// Registry → generator attempts (first success wins, the fallback icon last) → icon decoration
/// when the request asks for it → encoding in the requested format and quality. Edges only say
/// where the input comes from and where the bytes go.
public struct ThumbnailPipeline: Sendable {
    /// The generators, and through them the type catalog.
    public let registry: GeneratorRegistry
    /// Type resolution over the registry's catalog.
    public let resolver: TypeResolver

    /// A pipeline over `registry`.
    public init(registry: GeneratorRegistry) {
        self.registry = registry
        self.resolver = TypeResolver(catalog: registry.catalog)
    }

    /// The input for the file at `path`, its type resolved; throws naming the file when it cannot be read.
    ///
    /// `displayPath` is what pages and errors show instead of `path` (the service's root-relative path).
    public func input(path: String, displayPath: String? = nil) throws -> GeneratorInput {
        try GeneratorInput(path: path, displayPath: displayPath, resolver: resolver)
    }

    /// The input for a file already opened (by the service: beneath its root, or an upload
    /// kept in a temporary file), read only through its descriptor; `displayPath` is what pages
    /// and errors show (nil for an upload).
    public func input(opened: OpenedFile, displayPath: String?) throws -> GeneratorInput {
        try GeneratorInput(opened: opened, displayPath: displayPath, resolver: resolver)
    }

    /// The input for uploaded `bytes`, typed by their content and `filename`.
    public func input(bytes: [UInt8], filename: String?) -> GeneratorInput {
        GeneratorInput(bytes: bytes, filename: filename, resolver: resolver)
    }

    /// The picture of `input`: the best generator's (decorated as an icon when `request.iconMode`).
    ///
    /// With `allowFallback` false a file no real generator draws is an error rather than an icon.
    /// `cropBox`: for `fill` and `smart`, a rectangle to cut instead of the square box; its sides
    /// at most `request.targetPixels` (the rendering covers that square, so it covers the box).
    public func render(
        _ input: GeneratorInput, request: ThumbnailRequest, allowFallback: Bool = true, cropBox: (width: Int, height: Int)? = nil
    ) throws -> RenderedThumbnail {
        let (made, generator, attempts) = try registry.thumbnail(for: input, request: request, allowFallback: allowFallback)
        var generated = made
        // Crops cut pictures, never the fallback icon or an icon-mode frame.
        if request.crop != .fit, !generated.isIcon, !request.iconMode {
            let box = cropBox ?? (request.targetPixels, request.targetPixels)
            generated.bitmap = ThumbnailCropper.crop(generated.bitmap, width: box.width, height: box.height, mode: request.crop)
        }
        let decorated = ThumbnailIcon.apply(generated, input: input, catalog: registry.catalog, request: request)
        return RenderedThumbnail(
            input: input, thumbnail: decorated, isFallbackIcon: generated.isIcon, generator: generator, attempts: attempts,
            mimeType: registry.catalog.preferredMIMEType(of: input.type))
    }

    /// Thumbnails at several sizes from one decode: rendered once at the largest, then each
    /// smaller one resampled from it (never from the original again).
    ///
    /// `request` gives everything but the size; the results come in the order of `sizes`.
    public func render(_ input: GeneratorInput, request: ThumbnailRequest, sizes: [Int], allowFallback: Bool = true) throws
        -> [RenderedThumbnail]
    {
        guard let largest = sizes.max() else { return [] }
        var big = request
        big.maxPixelSize = largest
        let rendered = try render(input, request: big, allowFallback: allowFallback)
        let bitmap = rendered.thumbnail.bitmap
        return sizes.map { size in
            guard size != largest else { return rendered }
            // The big one has the picture's aspect (or is the crop's square): fit it in the smaller box.
            var box = request
            box.maxPixelSize = size
            box.crop = .fit
            let (width, height) = box.outputSize(width: bitmap.width, height: bitmap.height)
            var small = rendered.thumbnail
            small.bitmap = bitmap.resized(width: width, height: height)
            return rendered.replacing(thumbnail: small)
        }
    }

    /// `render`, then the encoded bytes in `output`'s format and quality.
    public func make(
        _ input: GeneratorInput, request: ThumbnailRequest, output: ThumbnailOutput, allowFallback: Bool = true
    ) throws -> (rendered: RenderedThumbnail, bytes: [UInt8]) {
        let rendered = try render(input, request: request, allowFallback: allowFallback)
        return (rendered, try output.encode(rendered.thumbnail.bitmap))
    }
}

/// How a thumbnail is encoded: the format, and the quality of lossy formats.
public struct ThumbnailOutput: Sendable, Equatable {
    /// PNG or JPEG.
    public var format: ImageFormat
    /// JPEG quality, 1–100.
    public var quality: Int

    /// The default quality of lossy formats.
    public static let defaultQuality = 85

    /// An output in `format` at `quality`.
    public init(format: ImageFormat = .png, quality: Int = ThumbnailOutput.defaultQuality) {
        self.format = format
        self.quality = quality
    }

    /// The bytes of `bitmap` in this format (`text` goes into PNG tEXt chunks).
    public func encode(_ bitmap: Bitmap, text: [(String, String)] = [], compression: Int = 6) throws -> [UInt8] {
        try ImageEncoder.encode(bitmap, as: format, quality: quality, text: text, compression: compression)
    }
}

/// A thumbnail as the pipeline made it, with how it came about.
public struct RenderedThumbnail: Sendable {
    /// The file it pictures.
    public let input: GeneratorInput
    /// The pixels, decorated when icon mode was asked for, and the generator's warnings.
    public let thumbnail: GeneratedThumbnail
    /// Whether no generator pictured the content and the generic icon was drawn instead.
    public let isFallbackIcon: Bool
    /// The generator that answered.
    public let generator: String
    /// Every candidate tried, in order.
    public let attempts: [GeneratorRegistry.Attempt]
    /// The file's preferred MIME type (for `Thumb::Mimetype`).
    public let mimeType: String

    /// The same outcome with other pixels (a smaller size of it).
    func replacing(thumbnail: GeneratedThumbnail) -> RenderedThumbnail {
        RenderedThumbnail(
            input: input, thumbnail: thumbnail, isFallbackIcon: isFallbackIcon, generator: generator, attempts: attempts, mimeType: mimeType
        )
    }

    /// The generator failure that left only the icon (a damaged image, a limit), if that is what happened.
    public var problem: GeneratorRegistry.Attempt? {
        isFallbackIcon ? attempts.first(where: \.isProblem) : nil
    }

    /// A refusal over the safety limits (a pixel bomb) that left only the icon, as the error to report.
    ///
    /// An API client asked for a picture of the content and must learn why it got none, where a
    /// file manager would show the icon.
    public var refusal: VignetteError? {
        guard isFallbackIcon, let attempt = attempts.first(where: { $0.errorCode == .refused }),
            case .failed(let why) = attempt.outcome
        else { return nil }
        return VignetteError(.limitExceeded, path: input.filename, why)
    }
}
