public import VignetteCore
public import VignetteImaging

/// Thumbnails of layered painting documents kept as zips (Krita's `.kra`, OpenRaster's `.ora`, which
/// GIMP, MyPaint and Krita write) from the flattened pictures they store beside their layers: the small
/// preview when it covers the request, else the full-size merged image. The layers are never read.
public struct LayeredImageGenerator: BuiltInGenerator, ThumbnailGenerating {
    /// `layered-image`.
    public let identifier = "layered-image"
    /// Krita and OpenRaster documents.
    public let supportedTypes = ["org.krita.kra", "org.openraster.ora"]
    /// None on size: only the zip directory and one picture are read.
    public let limits = GeneratorLimits.none
    /// The previews each format stores (at most 256 pixels a side), in the order tried.
    public static let previewNames = ["Thumbnails/thumbnail.png", "preview.png"]
    /// The full-size flattened picture both formats store.
    public static let mergedName = "mergedimage.png"
    /// Most bytes of the merged image read (it is a PNG of the whole canvas).
    public static let maxMergedBytes = 256 << 20
    private let reader: EmbeddedImageReader

    /// Creates the generator over a catalog, with decoding caps.
    public init(catalog: TypeCatalog, limits: ImageLimits = .standard) {
        reader = EmbeddedImageReader(
            thumbnailer: ImageThumbnailer(resolver: TypeResolver(catalog: catalog), limits: limits), maxBytes: Self.maxMergedBytes)
    }

    /// Decodes the preview when its longest side covers the request, else the merged image; declines
    /// when the document stores neither (an old Krita file, an OpenRaster file of layers alone).
    public func makeThumbnail(for input: GeneratorInput, request: ThumbnailRequest) throws -> GeneratedThumbnail {
        let (sample, directory) = try EmbeddedImageReader.open(input)
        func entry(_ name: String) -> ZipDirectory.Entry? { directory.entries.first { $0.name == name } }
        let merged = entry(Self.mergedName)
        if let preview = Self.previewNames.lazy.compactMap(entry).first,
            let bytes = try? reader.contents(of: preview, in: sample, limit: 1 << 20), let side = Self.pngLongestSide(bytes),
            side >= request.targetPixels || merged == nil
        {
            return try reader.thumbnail(of: bytes, named: preview.name, request: request)
        }
        guard let merged else {
            throw VignetteError(.declined, "no \(Self.mergedName) or preview in the layered image (its layers are not drawn)")
        }
        return try reader.thumbnail(of: merged, in: sample, request: request)
    }

    /// The longest side a PNG's header gives, or nil for bytes that are not a PNG.
    static func pngLongestSide(_ bytes: [UInt8]) -> Int? {
        guard bytes.count >= 24, bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]),
            bytes[12..<16].elementsEqual(Array("IHDR".utf8))
        else { return nil }
        func be32(_ at: Int) -> Int { bytes[at..<(at + 4)].reduce(0) { $0 << 8 | Int($1) } }
        return max(be32(16), be32(20))
    }
}
