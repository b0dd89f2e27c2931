import CVignetteCodecs
public import Foundation
public import VignetteCore

/// What poppler read from a PDF: its facts, the text of its first pages and page 1 drawn.
public struct PDFContents: Sendable {
    /// Pages in the document.
    public var pageCount: Int
    /// Page 1's width and height in points (1/72 inch), when the document has a page.
    public var pageSize: (width: Double, height: Double)?
    /// `PDF-1.7` and the like.
    public var version: String?
    /// The document information's title, when set.
    public var title: String?
    /// The author, when set.
    public var author: String?
    /// The subject, when set.
    public var subject: String?
    /// The keywords, when set.
    public var keywords: String?
    /// The application that made the original document, when set.
    public var creator: String?
    /// The application that wrote the PDF, when set.
    public var producer: String?
    /// When the document was created, when recorded.
    public var created: Date?
    /// When it was last changed, when recorded.
    public var modified: Date?
    /// The text of the first `textPages` pages, in reading order, one entry a page.
    public var pages: [String]
    /// Whether the text stops before the document does (the page or byte limit).
    public var textIsCut: Bool
    /// Page 1 on white, when a rendering was asked for.
    public var rendering: Bitmap?
}

/// Reads PDFs with poppler in a child process: a crash, a hang or runaway memory there is an
/// error here, never the caller's end.
public enum PDFReader {
    /// How much a read may touch.
    public struct Limits: Sendable {
        /// Pages whose text is read, from the first.
        public var textPages: Int
        /// Bytes of text read at most.
        public var textBytes: Int
        /// The child is stopped after this many milliseconds.
        public var timeoutMilliseconds: UInt32
        /// Memory the child may take beyond what it starts with.
        public var memoryBytes: Int

        /// Limits; the defaults read 10 pages, 256 KiB of text, for 10 s and 256 MiB.
        public init(textPages: Int = 10, textBytes: Int = 256 << 10, timeoutMilliseconds: UInt32 = 10_000, memoryBytes: Int = 256 << 20) {
            self.textPages = textPages
            self.textBytes = textBytes
            self.timeoutMilliseconds = timeoutMilliseconds
            self.memoryBytes = memoryBytes
        }
    }

    /// The contents of the PDF in `bytes`, with page 1 drawn `renderSide` pixels on its longest
    /// side (0: not drawn).
    ///
    /// - Throws: `.unsupported` for an encrypted PDF or when poppler is missing, `.corrupt` for
    ///   what poppler cannot read, `.refused` past the time or memory limit.
    public static func read(_ bytes: [UInt8], renderSide: Int = 0, limits: Limits = Limits()) throws -> PDFContents {
        _ = ImageDecoder.StreamedFormat.helper
        var request = vgn_pdf_request()
        request.max_pages = UInt32(clamping: limits.textPages)
        request.max_text = limits.textBytes
        request.render_side = UInt32(clamping: min(renderSide, Int(VGN_PDF_MAX_RENDER_SIDE)))
        request.timeout_ms = limits.timeoutMilliseconds
        request.max_memory = limits.memoryBytes
        var facts = vgn_pdf_facts()
        var err = vgn_error()
        let status = bytes.withUnsafeBufferPointer { buffer in
            vgn_pdf_read_isolated(buffer.baseAddress, buffer.count, &request, &facts, &err)
        }
        defer { vgn_pdf_facts_free(&facts) }
        guard status == 0 else { throw error(err, encrypted: facts.encrypted != 0) }
        try WorkPool.stopIfAbandoned()
        let text =
            facts.text.map {
                String(
                    decoding: UnsafeBufferPointer(start: UnsafeRawPointer($0).assumingMemoryBound(to: UInt8.self), count: facts.text_size),
                    as: UTF8.self)
            } ?? ""
        var rendering: Bitmap?
        if let pixels = facts.pixels, facts.width > 0, facts.height > 0 {
            let count = Int(facts.width) * Int(facts.height) * 4
            rendering = Bitmap(
                width: Int(facts.width), height: Int(facts.height), pixels: Array(UnsafeBufferPointer(start: pixels, count: count)))
        }
        func field<T>(_ tuple: T) -> String? {
            let value = CodecError.text(tuple).trimmingCharacters(in: .whitespacesAndNewlines)
            return value.isEmpty ? nil : value
        }
        func date(_ seconds: Int64) -> Date? { seconds > 0 ? Date(timeIntervalSince1970: TimeInterval(seconds)) : nil }
        return PDFContents(
            pageCount: Int(facts.pages),
            pageSize: facts.page_width > 0 && facts.page_height > 0 ? (facts.page_width, facts.page_height) : nil,
            version: field(facts.version), title: field(facts.title), author: field(facts.author), subject: field(facts.subject),
            keywords: field(facts.keywords), creator: field(facts.creator), producer: field(facts.producer),
            created: date(facts.created), modified: date(facts.modified),
            pages: text.isEmpty && facts.text_pages == 0
                ? [] : text.split(separator: "\u{0C}", omittingEmptySubsequences: false).map(String.init),
            textIsCut: facts.text_cut != 0, rendering: rendering)
    }

    /// What a read of a PDF that needs a password throws (`.unsupported`), so that callers can
    /// tell it from poppler missing.
    public static let passwordMessage = "the PDF is encrypted and needs a password"

    /// The error for a failed read, in words that name what was wrong.
    static func error(_ err: vgn_error, encrypted: Bool) -> VignetteError {
        if encrypted { return VignetteError(.unsupported, passwordMessage) }
        let message = CodecError.text(err.message)
        switch Int32(err.code) {
        case VGN_E_UNSUPPORTED.rawValue: return VignetteError(.unsupported, message)
        case VGN_E_LIMIT.rawValue, VGN_E_NOMEM.rawValue: return VignetteError(.refused, message)
        case VGN_E_STATE.rawValue: return VignetteError(.invalidRequest, "PDF reader misuse: \(message)")
        default: return VignetteError(.corrupt, "poppler cannot read the PDF: \(message)")
        }
    }
}
