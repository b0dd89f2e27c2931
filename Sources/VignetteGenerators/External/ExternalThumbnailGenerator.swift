import Foundation
public import VignetteCore
public import VignetteImaging

/// A thumbnail generator that runs an external command (a manifest's or a `.thumbnailer`'s).
///
/// The command writes a PNG or JPEG to `%o` (or, without `%o`, to stdout); the image is checked from its header (format,
/// dimensions under the image limits) before it is decoded, at the requested size, like any image.
public struct ExternalThumbnailGenerator: ThumbnailGenerating {
    /// What to run and for which types.
    public let spec: ExternalGeneratorSpec
    private let catalog: TypeCatalog
    private let imageLimits: ImageLimits

    /// Creates the generator; `imageLimits` caps the output image.
    public init(spec: ExternalGeneratorSpec, catalog: TypeCatalog, imageLimits: ImageLimits = .standard) {
        self.spec = spec
        self.catalog = catalog
        self.imageLimits = imageLimits
    }

    /// The spec's identifier.
    public var identifier: String { spec.identifier }
    /// The spec's types.
    public var supportedTypes: [String] { spec.types }
    /// The spec's priority.
    public var priority: GeneratorPriority { spec.priority }
    /// The spec's file-size cap and timeout.
    public var limits: GeneratorLimits { spec.limits }
    /// The manifest or `.thumbnailer` file.
    public var origin: String { spec.origin }
    /// None: it draws thumbnails only.
    public var asPreviewGenerator: (any PreviewGenerating)? { nil }

    /// Runs the command with `%s` = the requested pixel size and decodes what it wrote.
    public func makeThumbnail(for input: GeneratorInput, request: ThumbnailRequest) throws -> GeneratedThumbnail {
        try PixelCap.check(input, limits: imageLimits)
        let (bytes, truncated) = try ExternalCommand(spec: spec, catalog: catalog)
            .run(input, size: request.targetPixels, outputName: "thumbnail.png", outputLimit: ExternalCommand.maxImageOutputBytes)
        if truncated {
            throw VignetteError(.limitExceeded, "its output is over \(ByteCount.text(ExternalCommand.maxImageOutputBytes))")
        }
        guard let header = ImageHeader(bytes) else {
            throw VignetteError(.corrupt, "its output is not a PNG or JPEG image")
        }
        if let w = header.width, let h = header.height {
            guard w > 0, h > 0 else { throw VignetteError(.corrupt, "its output image has no pixels (\(w) × \(h))") }
            if w * h > imageLimits.maxPixels {
                throw VignetteError(
                    .limitExceeded,
                    "its output image is \(w) × \(h) pixels, over the limit of \(imageLimits.maxPixels / 1_000_000) MP")
            }
        }
        let id = header.format == .png ? "public.png" : "public.jpeg"
        guard let type = catalog.type(withIdentifier: id) else {
            throw VignetteError(.unsupported, "the catalog has no \(id) type to decode the output with")
        }
        let thumbnailer = ImageThumbnailer(resolver: TypeResolver(catalog: catalog), limits: imageLimits)
        do {
            let image = try thumbnailer.thumbnail(bytes: bytes, type: type, request: request)
            return GeneratedThumbnail(bitmap: image.bitmap, warnings: image.warnings)
        } catch let error as VignetteError {
            // A huge output is the command's fault, not the input's: the next candidate may try.
            throw VignetteError(error.code == .refused ? .limitExceeded : error.code, "its output image is unusable: \(error.reason)")
        }
    }
}
