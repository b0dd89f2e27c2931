import Foundation
public import VignetteCore
import VignetteImaging

/// The viewer fallback: answers for every file, last, with what can be said of any file.
///
/// Its thumbnail is a document icon tinted by family with the extension as a badge; its
/// preview gives name, size, type and conformance chain, MIME type, modification time,
/// permissions, a hex dump of the first bytes and the printable strings found in them.
public struct FallbackGenerator: BuiltInGenerator, ThumbnailGenerating, PreviewGenerating {
    /// `fallback`.
    public let identifier = "fallback"
    /// Every item.
    public let supportedTypes = ["public.item"]
    /// Always last.
    public let priority = GeneratorPriority.fallback
    /// None: it reads only the first bytes.
    public let limits = GeneratorLimits.none
    private let catalog: TypeCatalog
    /// Bytes shown in the hex dump.
    public static let hexBytes = 256
    /// Bytes searched for printable strings.
    public static let stringBytes = 64 << 10

    /// Creates the fallback over a catalog (for conformance chains and families).
    public init(catalog: TypeCatalog) {
        self.catalog = catalog
    }

    /// The document icon for the file's family and extension.
    public func makeThumbnail(for input: GeneratorInput, request: ThumbnailRequest) throws -> GeneratedThumbnail {
        let family = FileFamily(input.type, catalog: catalog)
        let bitmap = DocumentIcon.render(badge: ThumbnailIcon.badge(for: input), color: family.color, size: request.targetPixels)
        return GeneratedThumbnail(bitmap: bitmap, isIcon: true)
    }

    /// The metadata sheet, hex dump and strings, as text and HTML.
    public func makePreview(for input: GeneratorInput, request: PreviewRequest) throws -> TextPreview {
        let facts = FileFacts(input, catalog: catalog)
        let head = try input.prefix(max(Self.hexBytes, min(Self.stringBytes, request.maxBytes)))
        let dump = HexDump.lines(Array(head.prefix(Self.hexBytes)))
        let strings = PrintableStrings.find(in: head, limit: 200)
        var text = facts.rows.map { "\($0.0.padding(toLength: 13, withPad: " ", startingAt: 0))\($0.1)" }.joined(separator: "\n")
        if !dump.isEmpty {
            text += "\n\nFirst \(min(head.count, Self.hexBytes)) bytes:\n" + dump.joined(separator: "\n")
        }
        // An empty file has no bytes to show: the facts say so ("the file is empty").
        if !head.isEmpty {
            text += "\n\nPrintable strings (4 or more characters) in the first \(ByteCount.text(head.count)):\n"
            text += strings.isEmpty ? "  (none)" : strings.map { "  \($0)" }.joined(separator: "\n")
        }
        var html = "<dl class=\"vignette-facts\">\n"
        for (key, value) in facts.rows {
            html += "<dt>\(HTML.escape(String(key.dropLast())))</dt><dd>\(HTML.escape(value))</dd>\n"
        }
        html += "</dl>\n"
        if !dump.isEmpty {
            html +=
                "<h3>First \(min(head.count, Self.hexBytes)) bytes</h3>\n<pre class=\"vignette-hex\">\(HTML.escape(dump.joined(separator: "\n")))</pre>\n"
        }
        if !head.isEmpty {
            html += "<h3>Printable strings</h3>\n"
            html +=
                strings.isEmpty
                ? "<p>(none)</p>\n" : "<pre class=\"vignette-strings\">\(HTML.escape(strings.joined(separator: "\n")))</pre>\n"
        }
        return TextPreview(title: "\(input.filename ?? "(upload)") — \(input.type.localizedDescription)", text: text, html: html)
    }
}
