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

    /// Page 1, drawn on white to the requested size; declines a PDF that needs a password.
    public func makeThumbnail(for input: GeneratorInput, request: ThumbnailRequest) throws -> GeneratedThumbnail {
        var limits = readerLimits
        limits.textPages = 0
        limits.textBytes = 0
        let contents: PDFContents
        do {
            contents = try read(input, renderSide: request.targetPixels, limits: limits)
        } catch let error where Self.needsPassword(error) {
            let cipher = Self.cipher(try input.contents(limit: Self.maxFileBytes)[...])
            throw VignetteError(.declined, "the PDF is protected by a password (\(cipher)): its pages cannot be drawn")
        }
        guard let bitmap = contents.rendering else {
            throw VignetteError(.corrupt, "the PDF has no page to draw")
        }
        return GeneratedThumbnail(bitmap: bitmap)
    }

    /// The facts and the text of the first pages, cut at the request's byte limit; for a PDF
    /// that needs a password, that it does, its cipher and its version.
    public func makePreview(for input: GeneratorInput, request: PreviewRequest) throws -> TextPreview {
        var limits = readerLimits
        limits.textBytes = min(limits.textBytes, request.maxBytes)
        do {
            return PDFPreview(try read(input, renderSide: 0, limits: limits)).preview
        } catch let error where Self.needsPassword(error) {
            let bytes = try input.contents(limit: Self.maxFileBytes)[...]
            let cipher = Self.cipher(bytes)
            let version = PDFEncryption.headerVersion(bytes)
            let text =
                "This PDF is protected by a password: it is encrypted with \(cipher), and cannot be shown without the password.\n"
                + (version.map { "\nPDF version: \($0)\n" } ?? "")
            let html =
                "<p class=\"vignette-protected\">This PDF is protected by a password: it is encrypted with \(HTML.escape(cipher)), "
                + "and cannot be shown without the password.</p>\n"
                + (version.map { "<dl class=\"facts\"><dt>PDF version</dt><dd>\(HTML.escape($0))</dd></dl>\n" } ?? "")
            return TextPreview(title: "PDF document, protected by a password (\(cipher))", text: text, html: html)
        }
    }

    /// Whether `error` is poppler's answer to a PDF that needs a password to be opened.
    private static func needsPassword(_ error: any Error) -> Bool {
        (error as? VignetteError).map { $0.code == .unsupported && $0.reason == PDFReader.passwordMessage } ?? false
    }

    /// The cipher of the encrypted PDF in `bytes` ("128-bit RC4"), from its encryption dictionary.
    private static func cipher(_ bytes: ArraySlice<UInt8>) -> String {
        PDFEncryption.dictionary(bytes)?.cipher ?? "a cipher the file does not name"
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
