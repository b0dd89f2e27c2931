public import VignetteCore
public import VignetteImaging

/// Thumbnails of OpenDocument (and StarOffice) files from the preview they embed, `Thumbnails/thumbnail.png`.
public struct OpenDocumentThumbnailGenerator: BuiltInGenerator, ThumbnailGenerating {
    /// `opendocument-thumbnail`.
    public let identifier = "opendocument-thumbnail"
    /// OpenDocument and its children (text, spreadsheet, presentation…), and StarOffice.
    public let supportedTypes = ["org.oasis-open.opendocument", "org.openoffice.staroffice"]
    /// None on size: only the zip directory and one capped entry are read.
    public let limits = GeneratorLimits.none
    /// Where ODF keeps its preview.
    public static let entryName = "Thumbnails/thumbnail.png"
    private let reader: EmbeddedImageReader

    /// Creates the generator over a catalog, with decoding caps.
    public init(catalog: TypeCatalog, limits: ImageLimits = .standard) {
        reader = EmbeddedImageReader(
            thumbnailer: ImageThumbnailer(resolver: TypeResolver(catalog: catalog), limits: limits), declinesBlank: true)
    }

    /// Decodes `Thumbnails/thumbnail.png` at the requested size; declines when there is none or it is blank.
    public func makeThumbnail(for input: GeneratorInput, request: ThumbnailRequest) throws -> GeneratedThumbnail {
        let (sample, directory) = try EmbeddedImageReader.open(input)
        guard let entry = directory.entries.first(where: { $0.name == Self.entryName }) else {
            throw VignetteError(.declined, "no \(Self.entryName) in the OpenDocument file")
        }
        return try reader.thumbnail(of: entry, in: sample, request: request)
    }
}
