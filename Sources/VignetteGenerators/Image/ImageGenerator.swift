public import VignetteCore
public import VignetteImaging

/// Thumbnails of images, shrunk while decoding (see `ImageDecoder`), and previews that show the
/// picture with its facts (see `ImageGenerator+Preview.swift`).
public struct ImageGenerator: BuiltInGenerator, ThumbnailGenerating, PreviewGenerating {
    /// `image`.
    public let identifier = "image"
    /// JPEG and PNG.
    public let supportedTypes = ImageThumbnailer.supportedTypes
    /// The file-size cap of the image limits.
    public var limits: GeneratorLimits { GeneratorLimits(maxFileBytes: imageLimits.maxFileBytes) }
    let imageLimits: ImageLimits
    let thumbnailer: ImageThumbnailer

    /// Creates the generator over a catalog, with decoding caps.
    public init(catalog: TypeCatalog, limits: ImageLimits = .standard) {
        self.imageLimits = limits
        self.thumbnailer = ImageThumbnailer(resolver: TypeResolver(catalog: catalog), limits: limits)
    }

    /// Decodes the image at the requested size: a file whose decoder reads files (TIFF, GIF) through its
    /// descriptor, so that only what the decoder needs is read; anything else from its bytes.
    public func makeThumbnail(for input: GeneratorInput, request: ThumbnailRequest) throws -> GeneratedThumbnail {
        let image: DecodedImage
        if thumbnailer.readsFiles(of: input.type),
            let decoded = try input.withDescriptor(
                limit: imageLimits.maxFileBytes,
                { fd, size in try thumbnailer.thumbnail(descriptor: fd, size: size, type: input.type, request: request) })
        {
            image = decoded
        } else {
            image = try thumbnailer.thumbnail(
                bytes: try input.contents(limit: imageLimits.maxFileBytes), type: input.type, request: request)
        }
        return GeneratedThumbnail(
            bitmap: image.bitmap, warnings: image.warnings, originalSize: PixelSize(width: image.sourceWidth, height: image.sourceHeight))
    }
}
