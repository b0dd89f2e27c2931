public import VignetteCore
public import VignetteImaging

/// Previews of the images no generator draws (Photoshop, DDS, OpenEXR, JPEG 2000, QOI, PCX, ICNS…):
/// the facts their headers give (format, pixel size, colour profile, EXIF), with the reason the
/// picture is not drawn. A facts sheet about the image, where the viewer fallback could only
/// show bytes.
public struct ImageFactsGenerator: BuiltInGenerator, PreviewGenerating {
    /// `image-facts`.
    public let identifier = "image-facts"
    /// Every image; the generators of particular formats are more specific and come first.
    public let supportedTypes = ["public.image"]
    /// Below any generator that draws the image, even an external one.
    public let priority = GeneratorPriority(rawValue: GeneratorPriority.generic.rawValue - 10)
    /// The image limits' file-size cap.
    public var limits: GeneratorLimits { image.limits }
    private let image: ImageGenerator
    private let catalog: TypeCatalog

    /// Creates the generator over a catalog, with the image generator's caps.
    public init(catalog: TypeCatalog, limits: ImageLimits = .standard) {
        image = ImageGenerator(catalog: catalog, limits: limits)
        self.catalog = catalog
    }

    /// The facts, and that the picture is not drawn; images written as text (SVG, XPM, EPS…) are
    /// declined, so their text previews answer. A DOS binary EPS shows its TIFF preview.
    public func makePreview(for input: GeneratorInput, request: PreviewRequest) throws -> TextPreview {
        let head = try input.prefix(512)
        if catalog.conforms(input.type, to: "public.text"), !head.contains(0), !head.starts(with: Self.dosEPSMagic) {
            throw VignetteError(.declined, "\(input.type.localizedDescription) is text: a text preview shows it")
        }
        if head.starts(with: Self.dosEPSMagic), let tiff = try Self.dosEPSPreview(input) {
            let inner = GeneratorInput(bytes: tiff, filename: "preview.tif", resolver: TypeResolver(catalog: catalog))
            var preview = try image.preview(of: inner, undrawable: nil)
            // The facts are the preview's: say so, and name the file's own format first.
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
        return try image.preview(of: input, undrawable: "Vignette has no decoder for this format")
    }

    /// A DOS binary EPS's first bytes (C5 D0 D3 C6).
    static let dosEPSMagic: [UInt8] = [0xC5, 0xD0, 0xD3, 0xC6]

    /// The TIFF preview a DOS binary EPS carries (offset and length at bytes 20 and 24), or nil.
    static func dosEPSPreview(_ input: GeneratorInput) throws -> [UInt8]? {
        let head = try input.prefix(30)
        guard head.count == 30 else { return nil }
        func le32(_ at: Int) -> Int { Int(head[at]) | Int(head[at + 1]) << 8 | Int(head[at + 2]) << 16 | Int(head[at + 3]) << 24 }
        let (offset, length) = (le32(20), le32(24))
        guard offset >= 30, length > 8, length <= 64 << 20 else { return nil }
        let source = try input.randomAccess()
        guard offset <= source.size - length, let bytes = source.bytes(at: offset, count: min(length, FileSample.maxExtraRead)),
            bytes.count == length
        else { return nil }
        return Array(bytes)
    }
}
