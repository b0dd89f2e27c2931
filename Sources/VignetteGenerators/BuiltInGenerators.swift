public import VignetteCore
public import VignetteImaging

/// The generators compiled into Vignette, and the one place that lists them.
public enum BuiltInGenerators {
    /// Settings the built-in generators share (limits the CLI or server may tighten).
    public struct Options: Sendable {
        /// Caps for image decoding.
        public var imageLimits: ImageLimits
        /// Caps on the work of archive listings.
        public var archiveLimits: ArchiveLimits

        /// Creates options; the defaults are the standard limits.
        public init(imageLimits: ImageLimits = .standard, archiveLimits: ArchiveLimits = .standard) {
            self.imageLimits = imageLimits
            self.archiveLimits = archiveLimits
        }
    }

    /// Registers every built-in generator in `registry`, the viewer fallback included.
    public static func register(in registry: GeneratorRegistry, options: Options = Options()) {
        let catalog = registry.catalog
        registry.register(FallbackGenerator(catalog: catalog))
        registry.register(ImageGenerator(catalog: catalog, limits: options.imageLimits))
        registry.register(ImageFactsGenerator(catalog: catalog, limits: options.imageLimits))
        registry.register(EPSPreviewGenerator(catalog: catalog, limits: options.imageLimits))
        registry.register(PlainTextGenerator())
        registry.register(SourceCodeGenerator())
        registry.register(JSONGenerator())
        registry.register(CSVGenerator())
        registry.register(OfficePreviewGenerator())
        registry.register(LegacyOfficeGenerator())
        registry.register(RichTextGenerator())
        registry.register(CompoundFileListingGenerator())
        registry.register(MarkdownGenerator())
        registry.register(MarkupGenerator(catalog: catalog))
        registry.register(StructuredTextGenerator())
        registry.register(MailPreviewGenerator())
        registry.register(OutlookMessageGenerator())
        registry.register(CalendarPreviewGenerator())
        registry.register(ContactPreviewGenerator())
        registry.register(ZipListingGenerator(limits: options.archiveLimits))
        registry.register(TarListingGenerator(catalog: catalog, limits: options.archiveLimits))
        registry.register(ArListingGenerator(limits: options.archiveLimits))
        registry.register(OpenDocumentThumbnailGenerator(catalog: catalog, limits: options.imageLimits))
        registry.register(OfficeOpenXMLThumbnailGenerator(catalog: catalog, limits: options.imageLimits))
        registry.register(OfficePageGenerator(catalog: catalog))
        registry.register(EPUBCoverGenerator(catalog: catalog, limits: options.imageLimits))
        registry.register(LayeredImageGenerator(catalog: catalog, limits: options.imageLimits))
        registry.register(PDFGenerator())
        registry.register(MediaGenerator(catalog: catalog, imageLimits: options.imageLimits))
        registry.register(TextThumbnailGenerator(catalog: catalog))
        registry.register(FontGenerator())
        registry.register(SystemDataGenerator())
        registry.register(ExecutableGenerator())
    }

    /// A registry over `catalog` holding the built-in generators.
    public static func makeRegistry(catalog: TypeCatalog = .builtIn, options: Options = Options()) -> GeneratorRegistry {
        let registry = GeneratorRegistry(catalog: catalog)
        register(in: registry, options: options)
        return registry
    }
}
