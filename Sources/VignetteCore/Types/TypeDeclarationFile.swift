public import Foundation

/// A file of type declarations: the built-in `UniformTypes.json`, or a user's custom file.
///
/// Built-in files list `types`; custom files list `exportedTypes` (types the author owns,
/// which win over built-in ones) and `importedTypes` (types used only where nothing else
/// declares them). `types` in a custom file counts as exported.
public struct TypeDeclarationFile: Sendable, Decodable {
    /// Schema version; 1 today.
    public var format: Int
    /// Declarations with no stated ownership.
    public var types: [TypeDeclaration]
    /// Declarations of types the file's author owns.
    public var exportedTypes: [TypeDeclaration]
    /// Declarations of types owned by others.
    public var importedTypes: [TypeDeclaration]

    enum CodingKeys: String, CodingKey { case format, types, exportedTypes, importedTypes }

    /// Creates a file's worth of declarations.
    init(format: Int = 1, types: [TypeDeclaration], exportedTypes: [TypeDeclaration] = [], importedTypes: [TypeDeclaration] = []) {
        self.format = format
        self.types = types
        self.exportedTypes = exportedTypes
        self.importedTypes = importedTypes
    }

    /// Decodes the file; every list may be absent.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        format = try c.decodeIfPresent(Int.self, forKey: .format) ?? 1
        types = try c.decodeIfPresent([TypeDeclaration].self, forKey: .types) ?? []
        exportedTypes = try c.decodeIfPresent([TypeDeclaration].self, forKey: .exportedTypes) ?? []
        importedTypes = try c.decodeIfPresent([TypeDeclaration].self, forKey: .importedTypes) ?? []
    }

    /// The largest declaration file read (the built-in catalog's is 0.2 MB).
    public static let maxBytes = 16 << 20

    /// Reads and decodes a declaration file, with errors that name the file and the key.
    public static func load(contentsOf path: String) throws -> TypeDeclarationFile {
        let data: Data
        do {
            data = try FileSample.readContents(ofFile: path, limit: maxBytes).withUnsafeBufferPointer { Data(buffer: $0) }
        } catch let error as VignetteError where error.code == .limitExceeded {
            throw VignetteError(.invalidDeclaration, path: path, "declaration file is over 16 MiB")
        }
        return try decode(data, path: path)
    }

    /// Decodes declaration JSON, naming `path` in errors.
    public static func decode(_ data: Data, path: String) throws -> TypeDeclarationFile {
        if let file = data.withUnsafeBytes({ DeclarationReader.read($0) }) { return file }
        do {
            let file = try JSONDecoder().decode(TypeDeclarationFile.self, from: data)
            guard file.format == 1 else {
                throw VignetteError(.invalidDeclaration, path: path, "unsupported format \(file.format) (expected 1)")
            }
            return file
        } catch let error as VignetteError {
            throw error
        } catch let error as DecodingError {
            throw VignetteError(.invalidDeclaration, path: path, describe(error))
        } catch {
            throw VignetteError(.invalidDeclaration, path: path, "\(error)")
        }
    }

    /// One readable line for a JSON decoding error: where (key path) and why.
    static func describe(_ error: DecodingError) -> String {
        func where_(_ path: [any CodingKey]) -> String {
            guard !path.isEmpty else { return "at the top level" }
            let text = path.map { key in key.intValue.map { "[\($0)]" } ?? ".\(key.stringValue)" }.joined()
            return "at " + (text.hasPrefix(".") ? String(text.dropFirst()) : text)
        }
        switch error {
        case .keyNotFound(let key, let ctx):
            return "missing key \"\(key.stringValue)\" \(where_(ctx.codingPath))"
        case .typeMismatch(_, let ctx), .valueNotFound(_, let ctx):
            return "wrong kind of value \(where_(ctx.codingPath)): \(ctx.debugDescription)"
        case .dataCorrupted(let ctx):
            if ctx.codingPath.isEmpty {
                let underlying = (ctx.underlyingError as? NSError)?.userInfo[NSDebugDescriptionErrorKey] as? String
                return "not valid JSON" + (underlying.map { ": \($0)" } ?? "")
            }
            return "\(ctx.debugDescription) \(where_(ctx.codingPath))"
        @unknown default:
            return "\(error)"
        }
    }
}

extension TypeCatalog {
    /// Reserved identifier prefixes custom declarations may not use.
    public static let reservedPrefixes = ["public.", DynamicType.prefix]

    /// The catalog of built-in declarations, loaded once from `UniformTypes.json`.
    public static let builtIn: TypeCatalog = {
        do {
            let (data, path) = try BuiltInResources.data(named: "UniformTypes.json")
            let file = try TypeDeclarationFile.decode(data, path: path)
            return try TypeCatalog(declarations: file.types.map { ($0, .builtIn) })
        } catch {
            // The shipped data is part of the program: if it is missing or broken the install is broken.
            fatalError("vignette: built-in type declarations are unusable: \(error)")
        }
    }()

    /// A new catalog with the declarations of custom files added, in order.
    ///
    /// - Throws: `VignetteError.reservedIdentifier` for `public.`/`dyn.` identifiers,
    ///   `.invalidDeclaration` for malformed files or a broken conformance graph.
    public func adding(files: [(path: String, file: TypeDeclarationFile)]) throws -> TypeCatalog {
        // Most manifests declare no type: rebuilding the whole index for nothing costs every command ~5 ms.
        guard files.contains(where: { !($0.file.types.isEmpty && $0.file.exportedTypes.isEmpty && $0.file.importedTypes.isEmpty) }) else {
            return self
        }
        var list = sourceDeclarations
        for (path, file) in files {
            let exported = (file.types + file.exportedTypes).map { ($0, Origin.exported(file: path)) }
            let imported = file.importedTypes.map { ($0, Origin.imported(file: path)) }
            for (declaration, origin) in exported + imported {
                try TypeCatalog.validateCustom(declaration, path: path)
                list.append((declaration, origin))
            }
        }
        do {
            return try TypeCatalog(declarations: list, system: sourceSystemExtras)
        } catch let error as VignetteError {
            throw files.count == 1 ? error.about(files[0].path) : error
        }
    }

    /// A new catalog with the declarations of the files at these paths added.
    public func adding(declarationFiles paths: [String]) throws -> TypeCatalog {
        guard !paths.isEmpty else { return self }
        return try adding(files: paths.map { ($0, try TypeDeclarationFile.load(contentsOf: $0)) })
    }

    static func validateCustom(_ d: TypeDeclaration, path: String) throws {
        if let prefix = reservedPrefixes.first(where: { d.identifier.hasPrefix($0) }) {
            throw VignetteError(
                .reservedIdentifier, path: path,
                "type \(d.identifier) uses the reserved prefix \"\(prefix)\"; use your own reverse-DNS name such as com.example.\(d.identifier.dropFirst(prefix.count))"
            )
        }
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-.")
        if d.identifier.isEmpty || !d.identifier.allSatisfy({ allowed.contains($0) }) || d.identifier.hasPrefix(".")
            || d.identifier.hasSuffix(".")
        {
            throw VignetteError(
                .invalidDeclaration, path: path,
                "type identifier \"\(d.identifier)\" is not a reverse-DNS name (letters, digits, '-' and '.')")
        }
        if d.conformsTo.isEmpty {
            throw VignetteError(
                .invalidDeclaration, path: path,
                "type \(d.identifier) conforms to nothing; add \"conformsTo\": [\"public.data\"] or a more specific parent")
        }
    }
}
