public import VignetteCore
public import VignetteImaging

/// Thumbnails of Office Open XML files (docx, xlsx, pptx…) from the preview they may embed, `docProps/thumbnail.*`.
public struct OfficeOpenXMLThumbnailGenerator: BuiltInGenerator, ThumbnailGenerating {
    /// `ooxml-thumbnail`.
    public let identifier = "ooxml-thumbnail"
    /// The Office Open XML family.
    public let supportedTypes = ["org.openxmlformats.openxml"]
    /// None on size: only the zip directory and one capped entry are read.
    public let limits = GeneratorLimits.none
    private let reader: EmbeddedImageReader

    /// Creates the generator over a catalog, with decoding caps.
    public init(catalog: TypeCatalog, limits: ImageLimits = .standard) {
        reader = EmbeddedImageReader(
            thumbnailer: ImageThumbnailer(resolver: TypeResolver(catalog: catalog), limits: limits), declinesBlank: true,
            drawsMetafiles: true)
    }

    /// Decodes `docProps/thumbnail.jpeg` (or `.jpg`, `.png`, `.emf`, `.wmf`: JPEG and PNG first); declines
    /// for none, a blank picture, or a metafile that cannot be drawn (with the reason).
    public func makeThumbnail(for input: GeneratorInput, request: ThumbnailRequest) throws -> GeneratedThumbnail {
        let (sample, directory) = try EmbeddedImageReader.open(input)
        let candidates = directory.entries.filter { $0.name.lowercased().hasPrefix("docprops/thumbnail.") }
        let drawable = ["jpeg", "jpg", "png"]
        if let entry = candidates.first(where: { drawable.contains(Self.extensionOf($0.name)) }) {
            return try reader.thumbnail(of: entry, in: sample, request: request)
        }
        if let metafile = candidates.first(where: { ["emf", "wmf"].contains(Self.extensionOf($0.name)) }) {
            do {
                return try reader.thumbnail(of: metafile, in: sample, request: request)
            } catch let error as VignetteError where error.code == .corrupt || error.code == .unsupported {
                // A broken preview is no broken document: a generator drawing its text may answer.
                throw VignetteError(.declined, "\(metafile.name) cannot be drawn: \(error.reason)")
            }
        }
        throw VignetteError(.declined, "no docProps/thumbnail.jpeg, .png, .emf or .wmf in the Office Open XML file")
    }

    private static func extensionOf(_ name: String) -> String {
        name.split(separator: ".").last.map { $0.lowercased() } ?? ""
    }
}
