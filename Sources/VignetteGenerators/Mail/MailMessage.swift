/// An e-mail message as a preview shows it: its header, the readable body (text/plain parts,
/// else HTML ones), the attachments with their decoded sizes, and notes on what was damaged or
/// over a limit.
///
/// The MIME tree is walked with every bound of `MailLimits`: parts, nesting depth, header
/// fields and their length. Attachments are measured, never decoded (base64 is counted).
struct MailMessage {
    /// One attachment: its file name (or a stand-in), MIME type and decoded size in bytes.
    struct Attachment {
        /// The parameters naming the file and the parameter's name, decoded only when shown.
        let nameSource: (parameters: MIMEParameters, key: String)?
        /// The name when no parameter gives one (`(no name)`, `(message: Subject)`).
        let standIn: String
        /// The MIME type, lower-cased (`application/pdf`).
        let type: String
        /// The decoded size in bytes.
        let size: Int

        /// The file name given, or the stand-in.
        var name: String { nameSource.flatMap { $0.parameters[$0.key] } ?? standIn }
    }

    /// One readable part of the body, decoded to text.
    struct BodyPart: Equatable {
        /// The text (or the HTML source when `isHTML`).
        let text: String
        /// Whether `text` is HTML.
        let isHTML: Bool
    }

    /// The message's own header.
    let header: MIMEHeader
    /// The readable parts, in order.
    private(set) var bodyParts: [BodyPart] = []
    /// The attachments, in order.
    private(set) var attachments: [Attachment] = []
    /// What was wrong or left out, as sentences.
    private(set) var notes: [String] = []
    /// Parts read so far (checked against `MailLimits.maxParts`).
    private var partsSeen = 0
    /// The bounds the walk works under.
    private let limits: MailLimits

    /// Parses the message in `bytes`.
    init(_ bytes: ArraySlice<UInt8>, limits: MailLimits = .standard) {
        self.limits = limits
        header = MIMEHeader(bytes, limits: limits)
        notes += header.notes
        walk(bytes, header: header, depth: 0)
    }

    /// Reads one part: a multipart's children, a readable text, or an attachment.
    private mutating func walk(_ bytes: ArraySlice<UInt8>, header: MIMEHeader, depth: Int) {
        partsSeen += 1
        if partsSeen > limits.maxParts {
            if partsSeen == limits.maxParts + 1 { note("only the first \(limits.maxParts) MIME parts were read") }
            return
        }
        if depth > 0 { notes += header.notes }
        let body = bytes[header.bodyStart...]
        let contentType = header.raw("Content-Type").map(MIMEParameters.init)
        let type = contentType.map { $0.value.contains("/") ? $0.value : "text/plain" } ?? "text/plain"
        if type.hasPrefix("multipart/") {
            // RFC 2046 allows 70 characters; a longer one would only make the search slower.
            if let boundary = contentType?["boundary"], !boundary.isEmpty, boundary.utf8.count <= 200 {
                walkMultipart(body, type: type, boundary: boundary, depth: depth)
                return
            }
            note("a \(type) part has no usable boundary parameter; its body is shown as text")
            bodyParts.append(BodyPart(text: MailCharset.decode(body, charset: nil), isHTML: false))
            return
        }
        let disposition = header.raw("Content-Disposition").map(MIMEParameters.init)
        let encoding = header.text("Content-Transfer-Encoding")?.lowercased() ?? "7bit"
        let nameSource: (parameters: MIMEParameters, key: String)? =
            if let disposition, disposition.has("filename") {
                (disposition, "filename")
            } else if let contentType, contentType.has("name") {
                (contentType, "name")
            } else {
                nil
            }
        let readable = type == "text/plain" || type == "text/html"
        if readable && nameSource == nil && disposition?.value != "attachment" {
            var bytes = Array(body)
            if encoding == "base64" {
                let decoded = TransferDecoding.base64(body)
                if decoded.damaged { note("the base64 of a \(type) part is damaged or cut; shown as far as it decodes") }
                bytes = decoded.bytes
            } else if encoding == "quoted-printable" {
                bytes = TransferDecoding.quotedPrintable(body)
            }
            bodyParts.append(BodyPart(text: MailCharset.decode(bytes[...], charset: contentType?["charset"]), isHTML: type == "text/html"))
            return
        }
        var name = "(no name)"
        if nameSource == nil, type == "message/rfc822", let subject = MIMEHeader(body, limits: limits).text("Subject") {
            name = "(message: \(subject))"
        }
        attachments.append(Attachment(nameSource: nameSource, standIn: name, type: type, size: Self.decodedSize(body, encoding: encoding)))
    }

    /// Reads the parts of a multipart body: every one, or for `multipart/alternative` the plainest.
    private mutating func walkMultipart(_ body: ArraySlice<UInt8>, type: String, boundary: String, depth: Int) {
        guard depth < limits.maxDepth else {
            note("multipart nesting is deeper than \(limits.maxDepth) levels; the parts below were not read")
            return
        }
        let (parts, closed) = Self.split(body, boundary: boundary, maxParts: limits.maxParts + 1)
        if parts.isEmpty {
            note("the \(type) part's boundary never occurs in its body; the body is shown as text")
            bodyParts.append(BodyPart(text: MailCharset.decode(body, charset: nil), isHTML: false))
            return
        }
        if !closed { note("a \(type) part has no closing boundary; the message may be cut") }
        let headers = parts.map { MIMEHeader($0, limits: limits) }
        if type == "multipart/alternative" {
            let kinds = headers.map { header in header.raw("Content-Type").map(MIMEParameters.init)?.value ?? "text/plain" }
            let chosen =
                kinds.firstIndex(of: "text/plain") ?? kinds.firstIndex(of: "text/html")
                ?? kinds.firstIndex { $0.hasPrefix("multipart/") } ?? parts.count - 1
            walk(parts[chosen], header: headers[chosen], depth: depth + 1)
            return
        }
        for (part, header) in zip(parts, headers) {
            walk(part, header: header, depth: depth + 1)
            if partsSeen > limits.maxParts { break }
        }
    }

    /// Adds a note once.
    private mutating func note(_ text: String) {
        if !notes.contains(text) && notes.count < 20 { notes.append(text) }
    }

    /// The parts of a multipart body between `--boundary` lines (the preamble and epilogue left
    /// out, the line end before each delimiter belonging to it), and whether `--boundary--` closed it.
    static func split(_ body: ArraySlice<UInt8>, boundary: String, maxParts: Int) -> (parts: [ArraySlice<UInt8>], closed: Bool) {
        let delimiter = Array(("--" + boundary).utf8)
        var parts: [ArraySlice<UInt8>] = []
        var partStart: Int? = nil
        var searchFrom = body.startIndex
        while let found = ByteSearch.firstIndex(of: delimiter, in: body, from: searchFrom) {
            searchFrom = found + 1
            // A delimiter begins a line.
            guard found == body.startIndex || body[found - 1] == 0x0A else { continue }
            let newline = ByteSearch.firstIndex(of: 0x0A, in: body, from: found)
            var rest = body[(found + delimiter.count)..<(newline ?? body.endIndex)]
            let closing = rest.starts(with: [UInt8(ascii: "-"), UInt8(ascii: "-")])
            if closing { rest = rest.dropFirst(2) }
            guard rest.allSatisfy(TransferDecoding.isSpace) else { continue }
            if let start = partStart {
                var end = found
                if end > start, body[end - 1] == 0x0A { end -= 1 }
                if end > start, body[end - 1] == 0x0D { end -= 1 }
                parts.append(body[start..<end])
            }
            if closing || parts.count >= maxParts { return (parts, true) }
            partStart = newline.map { $0 + 1 } ?? body.endIndex
            searchFrom = partStart!
        }
        if let start = partStart, start <= body.endIndex { parts.append(body[start...]) }
        return (parts, false)
    }

    /// The size of a part's content once its transfer encoding is undone.
    static func decodedSize(_ body: ArraySlice<UInt8>, encoding: String) -> Int {
        switch encoding {
        case "base64": TransferDecoding.base64DecodedCount(body)
        case "quoted-printable": TransferDecoding.quotedPrintable(body).count
        default: body.count
        }
    }
}
