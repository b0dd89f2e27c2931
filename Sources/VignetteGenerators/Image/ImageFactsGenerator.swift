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
    /// declined, so their text previews answer.
    public func makePreview(for input: GeneratorInput, request: PreviewRequest) throws -> TextPreview {
        let head = try input.prefix(512)
        if catalog.conforms(input.type, to: "public.text"), !head.contains(0) {
            throw VignetteError(.declined, "\(input.type.localizedDescription) is text: a text preview shows it")
        }
        return try image.preview(of: input, undrawable: "Vignette has no decoder for this format")
    }
}
