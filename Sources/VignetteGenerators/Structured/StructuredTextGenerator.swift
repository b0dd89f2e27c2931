public import VignetteCore

/// Previews of configuration and data formats read as text (property lists, YAML, TOML), titled
/// by format; a binary property list gets a summary of its objects instead.
public struct StructuredTextGenerator: BuiltInGenerator, PreviewGenerating {
    /// `structured-text`.
    public let identifier = "structured-text"
    /// Property lists (XML plists named here so they come here, not to the XML generator), YAML, TOML.
    public let supportedTypes = ["com.apple.property-list", "com.apple.xml-property-list", "public.yaml", "io.toml.toml"]
    /// None: text is read only as far as shown; binary property lists over 16 MiB are declined.
    public let limits = GeneratorLimits.none
    /// Largest binary property list summarised (it is read whole, its trailer being at the end).
    public static let maxBinaryPropertyListBytes = 16 << 20

    /// Creates the generator.
    public init() {}

    /// "YAML document, 30 lines" with the text, or a binary property list's summary.
    public func makePreview(for input: GeneratorInput, request: PreviewRequest) throws -> TextPreview {
        let head = try input.prefix(8)
        if head.starts(with: Array("bplist".utf8)) { return try binaryPreview(input, request: request) }
        let excerpt = try TextExcerpt.read(input, request: request)
        try excerpt.declineIfBinary()
        let page = excerpt.page(maxLines: request.maxLines)
        var title = CountText.capitalizedFirst(input.type.localizedDescription)
        if excerpt.hasUnusualEncoding { title += ", " + excerpt.encodingAndLineEnds }
        title += ", " + (input.size == 0 ? "empty" : page.lineCountText)
        let language = input.type.identifier == "public.yaml" ? "yaml" : input.type.identifier == "io.toml.toml" ? "toml" : "xml"
        return TextPreview(title: title, text: page.text, html: page.html(language: language), truncated: page.truncated)
    }

    /// The summary of a binary property list; declines one too large or damaged to read.
    func binaryPreview(_ input: GeneratorInput, request: PreviewRequest) throws -> TextPreview {
        guard input.size <= Self.maxBinaryPropertyListBytes else {
            throw VignetteError(
                .declined,
                "binary property list is \(ByteCount.text(input.size)), over the summary limit of \(ByteCount.text(Self.maxBinaryPropertyListBytes))"
            )
        }
        let bytes = try input.contents(limit: Self.maxBinaryPropertyListBytes)
        guard let plist = BinaryPropertyList(bytes) else {
            throw VignetteError(.declined, "binary property list trailer is damaged")
        }
        let page = TextPage(plist.summary().joined(separator: "\n"), maxLines: request.maxLines)
        let title = "Binary property list, " + CountText.counted(plist.objectCount, "object")
        return TextPreview(title: title, text: page.text, html: page.html(), truncated: page.truncated)
    }
}
