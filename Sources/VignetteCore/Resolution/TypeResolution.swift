/// The answer of type resolution: the type, how it was decided, and what the text looked like.
public struct TypeResolution: Sendable, Equatable {
    /// How the type was decided, for `vignette which` and `type --explain`.
    public enum Evidence: Sendable, Equatable, CustomStringConvertible {
        /// The file has no bytes.
        case emptyFile
        /// A byte signature of the type matched.
        case signature(priority: Int)
        /// A signature matched a generic container and the file name named a kind of it.
        case signatureRefinedByName(container: String)
        /// A zip container's entries say what it is.
        case containerEntries(String)
        /// A header past the signature says which kind (ELF program headers, TZif counts).
        case structure(String)
        /// A `#!` line names the interpreter.
        case interpreter(String)
        /// A tar header with a valid checksum.
        case tarHeader
        /// The text's content (markup root, structure) says what it is.
        case textContent(String)
        /// Text whose name names a text type.
        case textName
        /// Binary content whose name names a type that has no signature to check it against.
        case unverifiableName
        /// Text with nothing more specific to say.
        case plainText
        /// Bytes with no signature and no usable name.
        case unknownBinary

        /// A short explanation for people.
        public var description: String {
            switch self {
            case .emptyFile: "the file is empty"
            case .signature(let p): "byte signature (priority \(p))"
            case .signatureRefinedByName(let c): "byte signature of \(c), refined by the file name"
            case .containerEntries(let why): "zip entries: \(why)"
            case .structure(let why): "byte signature and file structure: \(why)"
            case .interpreter(let name): "#! line names \(name)"
            case .tarHeader: "tar header checksum"
            case .textContent(let why): "text content: \(why)"
            case .textName: "text, typed by its file name"
            case .unverifiableName: "file name (the type has no signature to check)"
            case .plainText: "text with no more specific structure"
            case .unknownBinary: "binary data with no known signature"
            }
        }
    }

    /// The content type.
    public let type: UniformType
    /// How it was decided.
    public let evidence: Evidence
    /// The text encoding family, when the content is text.
    public let text: TextSniffer.Result?
    /// The system MIME package whose rule (magic, glob, XML root) decided, when one did.
    public var source: String? = nil
}
