public import VignetteCore
public import VignetteImaging

/// Thumbnails and previews of DOS binary EPS files from the TIFF preview they carry (what
/// Illustrator and Photoshop write for page-layout programs); PostScript itself is not run.
/// A text EPS, or one without a TIFF preview, is declined, so the text generators answer.
public struct EPSPreviewGenerator: BuiltInGenerator, ThumbnailGenerating, PreviewGenerating {
    /// `eps-preview`.
    public let identifier = "eps-preview"
    /// Encapsulated PostScript.
    public let supportedTypes = ["com.adobe.encapsulated-postscript"]
    /// The image limits' file-size cap.
    public var limits: GeneratorLimits { image.limits }
    private let image: ImageGenerator
    private let catalog: TypeCatalog

    /// A DOS binary EPS's first bytes (C5 D0 D3 C6).
    static let magic: [UInt8] = [0xC5, 0xD0, 0xD3, 0xC6]
    /// Largest TIFF preview read.
    static let maxPreviewBytes = FileSample.maxExtraRead

    /// Creates the generator over a catalog, with the image generator's caps.
    public init(catalog: TypeCatalog, limits: ImageLimits = .standard) {
        image = ImageGenerator(catalog: catalog, limits: limits)
        self.catalog = catalog
    }

    /// The TIFF preview, shrunk like any image.
    public func makeThumbnail(for input: GeneratorInput, request: ThumbnailRequest) throws -> GeneratedThumbnail {
        try image.makeThumbnail(for: try tiffPreview(input), request: request)
    }

    /// The TIFF preview as a picture with its facts, under the EPS's own format.
    public func makePreview(for input: GeneratorInput, request: PreviewRequest) throws -> TextPreview {
        var preview = try image.preview(of: try tiffPreview(input), undrawable: nil)
        let size = preview.title.split(separator: ", ", maxSplits: 1).dropFirst().first.map { ", preview \($0)" } ?? ""
        preview.title = "Encapsulated PostScript" + size
        preview.text =
            "Format: Encapsulated PostScript (DOS binary)\n" + preview.text.replacingOccurrences(of: "Format: ", with: "Preview: ")
        preview.html = preview.html.replacingOccurrences(
            of: "<dl class=\"facts\">", with: "<dl class=\"facts\"><dt>Format</dt><dd>Encapsulated PostScript (DOS binary)</dd>"
        )
        .replacingOccurrences(of: "<dt>Format</dt><dd>TIFF", with: "<dt>Preview</dt><dd>TIFF")
        return preview
    }

    /// The TIFF preview (offset and length at bytes 20 and 24 of the header) as an input, or a
    /// thrown `.declined` for an EPS without one.
    func tiffPreview(_ input: GeneratorInput) throws -> GeneratorInput {
        let head = try input.prefix(30)
        guard head.count == 30, head.starts(with: Self.magic) else {
            throw VignetteError(.declined, "not a DOS binary EPS (no TIFF preview to show)")
        }
        func le32(_ at: Int) -> Int { Int(head[at]) | Int(head[at + 1]) << 8 | Int(head[at + 2]) << 16 | Int(head[at + 3]) << 24 }
        let (offset, length) = (le32(20), le32(24))
        guard offset != 0 || length != 0 else { throw VignetteError(.declined, "the EPS carries no TIFF preview") }
        let source = try input.randomAccess()
        guard offset >= 30, length > 8, length <= Self.maxPreviewBytes, offset <= source.size - length,
            let bytes = source.bytes(at: offset, count: length)
        else { throw VignetteError(.corrupt, "the EPS header's TIFF preview lies outside the file") }
        return GeneratorInput(bytes: Array(bytes), filename: "preview.tif", resolver: TypeResolver(catalog: catalog))
    }
}
