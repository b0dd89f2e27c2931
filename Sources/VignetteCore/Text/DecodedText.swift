/// The text of a file's bytes, the encoding it was decoded from, and how its lines ended.
public struct DecodedText: Sendable, Equatable {
    /// How the lines of a text ended before they were normalised to LF.
    public enum LineEnding: String, Sendable, Equatable {
        /// Unix: LF.
        case lf
        /// DOS and Windows: CR LF.
        case crlf
        /// Classic Mac OS: CR alone.
        case cr
        /// More than one of the above.
        case mixed
        /// No line break at all.
        case none
    }

    /// The decoded text, byte-order mark removed, every CR LF and lone CR turned into LF.
    public let text: String
    /// The encoding the bytes were decoded from.
    public let encoding: TextEncodingName
    /// How the lines ended in the bytes.
    public let lineEnding: LineEnding
    /// Whether some bytes were not valid in `encoding` (each bad sequence became U+FFFD).
    public let hadInvalidBytes: Bool

    /// Creates a decoded text.
    public init(text: String, encoding: TextEncodingName, lineEnding: LineEnding, hadInvalidBytes: Bool) {
        self.text = text
        self.encoding = encoding
        self.lineEnding = lineEnding
        self.hadInvalidBytes = hadInvalidBytes
    }
}
