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
        "public.heic", "public.heif", "public.avif", "public.jpeg-xl", "public.camera-raw-image", "com.adobe.photoshop-image",
        "public.jpeg-2000", "org.jpeg.jpx", "org.jpeg.jpeg-2000-codestream", "com.apple.icns", "org.x.xpixmap-image",
        "public.xbitmap-image", "org.qoiformat.qoi", "net.sourceforge.netpbm.pfm",
        "com.microsoft.dds", "com.ilm.openexr-image", "com.zsoft.pcx", "com.sgi.sgi-image", "com.sun.raster-image", "org.jbig.jbig",
        "com.microsoft.wmf", "com.microsoft.emf", "public.radiance", "org.gimp.xcf",
        "gov.nasa.fits", "org.smpte.dpx", "org.nema.dicom",
    ]

    /// The streamed decoders, by the type each answers for.
    static let streamedTypes: [(type: String, format: ImageDecoder.StreamedFormat)] = [
        ("com.compuserve.gif", .gif), ("public.tiff", .tiff), ("com.microsoft.bmp", .bmp), ("com.truevision.tga-image", .tga),
        ("net.sourceforge.netpbm.pnm", .pnm), ("public.heif-standard", .heif), ("public.jpeg-xl", .jpegXL),
        ("com.adobe.photoshop-image", .psd), ("public.jpeg-2000", .jpeg2000), ("org.x.xpixmap-image", .xpm),
        ("public.xbitmap-image", .xbm), ("org.qoiformat.qoi", .qoi), ("net.sourceforge.netpbm.pfm", .pfm),
        ("com.microsoft.dds", .dds), ("com.ilm.openexr-image", .openEXR), ("com.zsoft.pcx", .pcx), ("com.sgi.sgi-image", .sgi),
        ("com.sun.raster-image", .sunRaster), ("org.jbig.jbig", .jbig), ("com.microsoft.wmf", .wmf),
        ("com.microsoft.emf", .emf), ("public.radiance", .radiance), ("org.gimp.xcf", .xcf),
        ("gov.nasa.fits", .fits), ("org.smpte.dpx", .dpx),
    ]

    /// The decoder for a type, in the order the checks must be made.
    enum Decoder {
        case jpeg, png, webp, cameraRaw, ico, icns, dicom
        case streamed(ImageDecoder.StreamedFormat)
    }

    /// The decoder that reads `type`, or nil.
    func decoder(for type: UniformType) -> Decoder? {
        let catalog = resolver.catalog
        if catalog.conforms(type, to: "public.jpeg") { return .jpeg }
        if catalog.conforms(type, to: "public.png") { return .png }
        if catalog.conforms(type, to: "org.webmproject.webp") { return .webp }
        // Before TIFF: most RAW formats are TIFF underneath, but their main image is the sensor data.
        if catalog.conforms(type, to: "public.camera-raw-image") { return .cameraRaw }
        if catalog.conforms(type, to: "com.microsoft.ico") { return .ico }
        if catalog.conforms(type, to: "com.apple.icns") { return .icns }
        if catalog.conforms(type, to: "org.nema.dicom") { return .dicom }
        return Self.streamedTypes.first(where: { catalog.conforms(type, to: $0.type) }).map { .streamed($0.format) }
    }

    /// Whether files of `type` are decoded through their descriptor (`thumbnail(descriptor:…)`),
    /// read as the decoder needs them, rather than from their whole bytes in memory.
    public func readsFiles(of type: UniformType) -> Bool {
        if case .streamed(let format) = decoder(for: type) { return format.readsFiles }
        return false
    }

    /// A thumbnail of the file open as `descriptor` (`size` bytes), of a `type` whose decoder
    /// `readsFiles(of:)`; only what the decoder needs is read.
    public func thumbnail(descriptor: Int32, size: Int, type: UniformType, request: ThumbnailRequest) throws -> DecodedImage {
        guard case .streamed(let format) = decoder(for: type), format.readsFiles else { throw unsupported(type) }
        return try ImageDecoder.decode(format, descriptor: descriptor, size: size, request: request, limits: limits)
    }

    /// A thumbnail of image bytes already known to be of `type`.
    public func thumbnail(bytes: [UInt8], type: UniformType, request: ThumbnailRequest) throws -> DecodedImage {
        guard let decoder = decoder(for: type) else { throw unsupported(type) }
        return try bytes.withUnsafeBytes { raw in
            switch decoder {
            case .jpeg: try ImageDecoder.jpeg(raw, request: request, limits: limits)
            case .png: try ImageDecoder.png(raw, request: request, limits: limits)
            case .webp: try ImageDecoder.webp(raw, request: request, limits: limits)
            case .cameraRaw: try ImageDecoder.cameraRaw(raw, request: request, limits: limits)
            case .ico: try ImageDecoder.ico(raw, request: request, limits: limits)
            case .icns: try ImageDecoder.icns(raw, request: request, limits: limits)
            case .dicom: try ImageDecoder.dicom(raw, request: request, limits: limits)
            case .streamed(let format): try ImageDecoder.decode(format, raw, request: request, limits: limits)
            }
        }
    }

    /// The refusal of a type no decoder here reads.
    func unsupported(_ type: UniformType) -> VignetteError {
        VignetteError(
            .unsupported,
            "no thumbnail generator for \(type.localizedDescription) (\(type.identifier), \(resolver.catalog.preferredMIMEType(of: type)))")
    }
}
