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

    /// The decoders this thumbnailer has, by the type they handle (conformance picks the rest:
    /// HEIC and AVIF are `public.heif-standard`, PBM/PGM/PPM/PAM `net.sourceforge.netpbm.pnm`,
    /// CUR `com.microsoft.ico`, DNG/NEF/CR3… `public.camera-raw-image`).
    /// The subtypes are listed too, so that a generator declaring one exactly (gdk-pixbuf's
    /// `.thumbnailer` declares image/x-portable-pixmap) does not outrank us by closeness.
    public static let supportedTypes = [
        "public.jpeg", "public.png", "org.webmproject.webp", "com.compuserve.gif", "public.tiff", "com.microsoft.bmp",
        "com.microsoft.ico", "com.microsoft.cur", "com.truevision.tga-image", "net.sourceforge.netpbm.pnm", "public.pbm",
        "net.sourceforge.netpbm.pgm", "net.sourceforge.netpbm.ppm", "net.sourceforge.netpbm.pam", "public.heif-standard",
        "public.heic", "public.heif", "public.avif", "public.jpeg-xl", "public.camera-raw-image",
    ]

    /// The streamed decoders, by the type each answers for.
    static let streamedTypes: [(type: String, format: ImageDecoder.StreamedFormat)] = [
        ("com.compuserve.gif", .gif), ("public.tiff", .tiff), ("com.microsoft.bmp", .bmp), ("com.truevision.tga-image", .tga),
        ("net.sourceforge.netpbm.pnm", .pnm), ("public.heif-standard", .heif), ("public.jpeg-xl", .jpegXL),
    ]

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
            // Before TIFF: most RAW formats are TIFF underneath, but their main image is the sensor data.
            if catalog.conforms(type, to: "public.camera-raw-image") {
                return try ImageDecoder.cameraRaw(raw, request: request, limits: limits)
            }
            if catalog.conforms(type, to: "com.microsoft.ico") {
                return try ImageDecoder.ico(raw, request: request, limits: limits)
            }
            if let format = Self.streamedTypes.first(where: { catalog.conforms(type, to: $0.type) })?.format {
                return try ImageDecoder.decode(format, raw, request: request, limits: limits)
            }
            throw VignetteError(
                .unsupported,
                "no thumbnail generator for \(type.localizedDescription) (\(type.identifier), \(catalog.preferredMIMEType(of: type)))")
        }
    }
}
