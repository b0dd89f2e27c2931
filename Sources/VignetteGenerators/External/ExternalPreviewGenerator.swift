import Foundation
public import VignetteCore
public import VignetteImaging

/// A text preview generator that runs an external command printing text or an HTML fragment.
///
/// Output comes from `%o` when the command names it, else from stdout; it is decoded with
/// the usual encoding detection and cut at the request's byte limit.
public struct ExternalPreviewGenerator: PreviewGenerating {
    /// What to run and for which types.
    public let spec: ExternalGeneratorSpec
    private let catalog: TypeCatalog
    private let imageLimits: ImageLimits

    /// Creates the generator; an image input over `imageLimits`' pixel cap is refused unseen.
    public init(spec: ExternalGeneratorSpec, catalog: TypeCatalog, imageLimits: ImageLimits = .standard) {
        self.spec = spec
        self.catalog = catalog
        self.imageLimits = imageLimits
    }

    /// The spec's identifier.
    public var identifier: String { spec.identifier }
    /// The spec's types.
    public var supportedTypes: [String] { spec.types }
    /// The spec's priority.
    public var priority: GeneratorPriority { spec.priority }
    /// The spec's file-size cap and timeout.
    public var limits: GeneratorLimits { spec.limits }
    /// The manifest file.
    public var origin: String { spec.origin }
    /// None: it writes previews only.
    public var asThumbnailGenerator: (any ThumbnailGenerating)? { nil }

    /// Runs the command with `%s` = the request's byte limit; the title is the type's description.
    public func makePreview(for input: GeneratorInput, request: PreviewRequest) throws -> TextPreview {
        try PixelCap.check(input, limits: imageLimits)
        let name = spec.kind == .html ? "preview.html" : "preview.txt"
        let (bytes, truncated) = try ExternalCommand(spec: spec, catalog: catalog)
            .run(input, size: request.maxBytes, outputName: name, outputLimit: request.maxBytes)
        let decoded = TextDecoder.decode(bytes[...], complete: !truncated)
        var text = decoded.text
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let cut = truncated || lines.count > request.maxLines
        if lines.count > request.maxLines { text = lines.prefix(request.maxLines).joined(separator: "\n") }
        let title = input.type.localizedDescription
        switch spec.kind {
        case .html:
            // A command's HTML is as untrusted as the file it read: the one sanitizer makes it safe for the page.
            let safe = HTMLSanitizer.sanitize(text)
            return TextPreview(title: title, text: Self.plainText(ofHTML: safe), html: safe, truncated: cut)
        case .text, .thumbnail:
            return TextPreview(
                title: title, text: text, html: "<pre class=\"vignette-text\">" + HTML.escape(text) + "</pre>", truncated: cut)
        }
    }

    /// The text of an HTML fragment: tags dropped (rows, paragraphs and breaks become new
    /// lines, table cells are spaced), common entities decoded, empty lines dropped.
    static func plainText(ofHTML html: String) -> String {
        let lineTags: Set<String> = [
            "br", "p", "/p", "div", "/div", "tr", "/tr", "li", "/li", "table", "/table", "/h1", "/h2", "/h3", "/h4", "/h5", "/h6", "pre",
            "/pre",
        ]
        var out = ""
        var tag: String? = nil
        for c in html {
            if var name = tag {
                if c == ">" {
                    name = String(name.lowercased().prefix { !" \t\n/".contains($0) || $0 == "/" && name.hasPrefix("/") })
                    if lineTags.contains(name) { out.append("\n") } else if name == "/td" || name == "/th" { out.append("  ") }
                    tag = nil
                } else {
                    tag = name + String(c)
                }
            } else if c == "<" {
                tag = ""
            } else {
                // Source line breaks are only spacing in HTML; the tags above make the lines.
                out.append(c.isNewline ? " " : c)
            }
        }
        for (entity, char) in [("&lt;", "<"), ("&gt;", ">"), ("&quot;", "\""), ("&#39;", "'"), ("&nbsp;", " "), ("&amp;", "&")] {
            out = out.replacingOccurrences(of: entity, with: char)
        }
        let lines = out.split(separator: "\n", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        return lines.filter { !$0.isEmpty }.joined(separator: "\n")
    }
}
