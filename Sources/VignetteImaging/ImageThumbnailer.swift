import Foundation
public import VignetteCore

/// Makes thumbnails of image files: resolves the type, reads the file under the limits, decodes to size.
public struct ImageThumbnailer: Sendable {
    /// Resolves content types.
    public let resolver: TypeResolver
    /// Caps on file size and pixel count.
    public var limits: ImageLimits

    /// Creates a thumbnailer.
    public init(resolver: TypeResolver = TypeResolver(), limits: ImageLimits = .standard) {
        self.resolver = resolver
        self.limits = limits
    }

    /// The decoders this thumbnailer has, by the type they handle.
    public static let supportedTypes = ["public.jpeg", "public.png", "org.webmproject.webp"]

    /// A thumbnail of image bytes already known to be of `type`.
    public func thumbnail(bytes: [UInt8], type: UniformType, request: ThumbnailRequest) throws -> DecodedImage {
        let catalog = resolver.catalog
        return try bytes.withUnsafeBytes { raw in
            if catalog.conforms(type, to: "public.jpeg") {
                return try ImageDecoder.jpeg(raw, request: request, limits: limits)
            }
            if catalog.conforms(type, to: "public.png") {
                return try ImageDecoder.png(raw, request: request, limits: limits)
            }
            if catalog.conforms(type, to: "org.webmproject.webp") {
                return try ImageDecoder.webp(raw, request: request, limits: limits)
            }
            throw VignetteError(
                .unsupported,
                "no thumbnail generator for \(type.localizedDescription) (\(type.identifier), \(catalog.preferredMIMEType(of: type)))")
        }
    }
}
