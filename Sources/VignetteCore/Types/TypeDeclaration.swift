/// The declaration of one content type: what it is, what it conforms to, and how to recognise it.
///
/// Declarations are data: the built-in ones come from `UniformTypes.json`, custom ones from
/// files users write in the same schema (see README, "Custom types").
public struct TypeDeclaration: Sendable, Equatable, Codable {
    /// Reverse-DNS identifier, e.g. `public.png`.
    public var identifier: String
    /// Direct parents; conformance is the transitive, reflexive closure of these.
    public var conformsTo: [String]
    /// Human-readable name, e.g. "PNG image".
    public var description: String
    /// Filename extensions without the dot, lower case; the first is preferred. May be multi-part (`tar.gz`).
    public var extensions: [String]
    /// MIME types; the first is preferred, the rest are aliases.
    public var mimeTypes: [String]
    /// Exact file names that identify the type (`Makefile`).
    public var filenames: [String]
    /// Interpreter names a `#!` line may name (`python3`).
    public var interpreters: [String]
    /// Byte signatures; any one matching identifies the type.
    public var signatures: [ByteSignature]
    /// Where the format is specified.
    public var reference: String?

    /// Creates a declaration; only the identifier is required.
    public init(
        identifier: String, conformsTo: [String] = [], description: String = "",
        extensions: [String] = [], mimeTypes: [String] = [], filenames: [String] = [],
        interpreters: [String] = [], signatures: [ByteSignature] = [], reference: String? = nil
    ) {
        self.identifier = identifier
        self.conformsTo = conformsTo
        self.description = description
        self.extensions = extensions
        self.mimeTypes = mimeTypes
        self.filenames = filenames
        self.interpreters = interpreters
        self.signatures = signatures
        self.reference = reference
    }

    enum CodingKeys: String, CodingKey {
        case identifier, conformsTo, description, extensions, mimeTypes, filenames, interpreters, signatures, reference
    }

    /// Decodes a declaration; every field but `identifier` may be absent.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        identifier = try c.decode(String.self, forKey: .identifier)
        conformsTo = try c.decodeIfPresent([String].self, forKey: .conformsTo) ?? []
        description = try c.decodeIfPresent(String.self, forKey: .description) ?? ""
        extensions = try c.decodeIfPresent([String].self, forKey: .extensions) ?? []
        mimeTypes = try c.decodeIfPresent([String].self, forKey: .mimeTypes) ?? []
        filenames = try c.decodeIfPresent([String].self, forKey: .filenames) ?? []
        interpreters = try c.decodeIfPresent([String].self, forKey: .interpreters) ?? []
        signatures = try c.decodeIfPresent([ByteSignature].self, forKey: .signatures) ?? []
        reference = try c.decodeIfPresent(String.self, forKey: .reference)
    }

    /// Encodes the declaration, leaving out empty lists.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(identifier, forKey: .identifier)
        if !conformsTo.isEmpty { try c.encode(conformsTo, forKey: .conformsTo) }
        if !description.isEmpty { try c.encode(description, forKey: .description) }
        if !extensions.isEmpty { try c.encode(extensions, forKey: .extensions) }
        if !mimeTypes.isEmpty { try c.encode(mimeTypes, forKey: .mimeTypes) }
        if !filenames.isEmpty { try c.encode(filenames, forKey: .filenames) }
        if !interpreters.isEmpty { try c.encode(interpreters, forKey: .interpreters) }
        if !signatures.isEmpty { try c.encode(signatures, forKey: .signatures) }
        try c.encodeIfPresent(reference, forKey: .reference)
    }
}
