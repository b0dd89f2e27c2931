import Foundation
public import VignetteCore
public import VignetteImaging

/// PDFs as what they hold: the document's facts and the text of its first pages as the preview,
/// page 1 as the thumbnail; read by poppler in a child process (`PDFReader`).
///
/// poppler-glib rather than poppler-cpp: its C API is loaded with `dlopen` in the child only, so
/// no command pays for loading poppler, GLib and cairo unless it reads a PDF, and it renders
/// pages (through cairo) as well as giving their text.
public struct PDFGenerator: BuiltInGenerator, ThumbnailGenerating, PreviewGenerating {
    /// `pdf-document`.
    public let identifier = "pdf-document"
    /// PDF.
    public let supportedTypes = ["com.adobe.pdf"]
    /// PDFs up to 256 MiB (poppler's child holds the file's bytes).
    public var limits: GeneratorLimits { GeneratorLimits(maxFileBytes: Self.maxFileBytes) }
    /// Largest PDF read.
    public static let maxFileBytes = 256 << 20

    private let readerLimits: PDFReader.Limits

    /// A generator reading at most `limits` of each PDF.
    public init(limits: PDFReader.Limits = PDFReader.Limits()) {
        self.readerLimits = limits
    }

    /// Page 1, drawn on white to the requested size.
    public func makeThumbnail(for input: GeneratorInput, request: ThumbnailRequest) throws -> GeneratedThumbnail {
        var limits = readerLimits
        limits.textPages = 0
        limits.textBytes = 0
        let contents = try read(input, renderSide: request.targetPixels, limits: limits)
        guard let bitmap = contents.rendering else {
            throw VignetteError(.corrupt, "the PDF has no page to draw")
        }
        return GeneratedThumbnail(bitmap: bitmap)
    }

    /// The facts and the text of the first pages, cut at the request's byte limit.
    public func makePreview(for input: GeneratorInput, request: PreviewRequest) throws -> TextPreview {
        var limits = readerLimits
        limits.textBytes = min(limits.textBytes, request.maxBytes)
        let contents = try read(input, renderSide: 0, limits: limits)
        return PDFPreview(contents).preview
    }

    private func read(_ input: GeneratorInput, renderSide: Int, limits: PDFReader.Limits) throws -> PDFContents {
        let bytes = try input.contents(limit: Self.maxFileBytes)
        let contents = try PDFReader.read(bytes, renderSide: renderSide, limits: limits)
        guard contents.pageCount > 0 else {
            throw VignetteError(
                .corrupt, "poppler finds no page in this PDF (its page tree is damaged, or declares more pages than the file holds)")
        }
        return contents
    }
}
