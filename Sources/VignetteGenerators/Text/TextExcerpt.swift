public import VignetteCore

/// A file's text as far as a preview needs it: at most the request's bytes, decoded with
/// encoding detection, line ends normalised to LF, and whether the bytes were cut.
///
/// Every text-family generator reads through this type, so a 2 GB file costs one read of
/// `maxBytes` bytes, never the whole file.
public struct TextExcerpt: Sendable {
    /// Most bytes read whatever the request says (a request for more is served this much).
    public static let maxReadBytes = 16 << 20
    /// Scalars looked at to decide whether a text is really binary data.
    static let binarySample = 4096

    /// The decoded text of the bytes read (cut bytes decoded with `complete: false`).
    public let decoded: DecodedText
    /// Bytes of the file that were decoded.
    public let bytesShown: Int
    /// Size of the whole file in bytes.
    public let fileSize: Int
    /// Whether the file goes on past the bytes decoded.
    public let cutAtBytes: Bool
    /// Whether the bytes began with a Unicode byte-order mark.
    public let hasByteOrderMark: Bool

    /// Reads and decodes at most `request.maxBytes` bytes of `input`.
    public static func read(_ input: GeneratorInput, request: PreviewRequest) throws -> TextExcerpt {
        let limit = min(max(request.maxBytes, 1), maxReadBytes)
        // One byte more than shown tells whether the file goes on, without trusting the size.
        let bytes = try input.prefix(limit + 1)
        return TextExcerpt(bytes: bytes, limit: limit, fileSize: max(input.size, bytes.count))
    }

    /// Decodes `bytes`, cut to `limit` bytes (the file being `fileSize` bytes long).
    public init(bytes: [UInt8], limit: Int, fileSize: Int) {
        let cut = bytes.count > limit
        let shown = bytes.prefix(limit)
        decoded = TextDecoder.decode(shown, complete: !cut)
        bytesShown = shown.count
        self.fileSize = max(fileSize, shown.count)
        cutAtBytes = cut
        hasByteOrderMark =
            shown.starts(with: [0xEF, 0xBB, 0xBF]) || shown.starts(with: [0xFF, 0xFE]) || shown.starts(with: [0xFE, 0xFF])
    }

    /// The decoded text.
    public var text: String { decoded.text }

    /// The encoding as titles show it: "ASCII", "UTF-8 with BOM", "Shift_JIS".
    public var encodingLabel: String {
        let name = decoded.encoding == .ascii ? "ASCII" : decoded.encoding.rawValue
        let unicode = decoded.encoding.rawValue.uppercased().hasPrefix("UTF-")
        return unicode && hasByteOrderMark ? name + " with BOM" : name
    }

    /// The line ends as titles show them when they are not plain LF ("CRLF line ends"), else nil.
    public var lineEndingLabel: String? {
        switch decoded.lineEnding {
        case .lf, .none: nil
        case .crlf: "CRLF line ends"
        case .cr: "CR line ends"
        case .mixed: "mixed line ends"
        }
    }

    /// The encoding, and the line ends when they are unusual ("UTF-16LE, CRLF line ends").
    public var encodingAndLineEnds: String {
        [encodingLabel, lineEndingLabel].compactMap { $0 }.joined(separator: ", ")
    }

    /// Whether the text is unusual enough to mention in a title: not ASCII or UTF-8, or not LF.
    public var hasUnusualEncoding: Bool {
        !(decoded.encoding == .ascii || decoded.encoding == .utf8) || hasByteOrderMark || lineEndingLabel != nil
    }

    /// Whether the start of the text looks like binary data: over a tenth control characters
    /// (tab, line and form feed, carriage return and escape aside) or undecodable bytes.
    public var looksBinary: Bool {
        var seen = 0
        var odd = 0
        for scalar in text.unicodeScalars.prefix(Self.binarySample) {
            seen += 1
            switch scalar.value {
            case 0x09, 0x0A, 0x0C, 0x0D, 0x1B: break
            case 0x00..<0x20, 0x7F, 0xFFFD: odd += 1
            default: break
            }
        }
        return seen > 0 && odd * 10 > seen
    }

    /// Throws `.declined` when the text looks like binary data, so the viewer fallback shows it.
    public func declineIfBinary() throws {
        if looksBinary {
            throw VignetteError(.declined, "does not look like text (too many control characters or undecodable bytes)")
        }
    }

    /// The text cut to `maxLines` lines, with long lines and the cut marked.
    public func page(maxLines: Int) -> TextPage {
        TextPage(text, maxLines: maxLines, byteCut: cutAtBytes ? (bytesShown, fileSize) : nil)
    }

    /// "first 65.5 KB of 2.1 GB" when the bytes were cut, else nil.
    public var byteCutDescription: String? {
        cutAtBytes ? "first \(ByteCount.text(bytesShown)) of \(ByteCount.text(fileSize))" : nil
    }
}
