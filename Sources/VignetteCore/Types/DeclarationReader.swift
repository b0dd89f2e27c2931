/// A fast reader for plainly valid type declaration files; anything else is left to `JSONDecoder`.
///
/// Foundation's `JSONDecoder` took about 13 ms of every command's start to decode the built-in
/// `UniformTypes.json` (534 types), a third of a short `vignette type`. This reader parses the
/// same schema directly (through `PlainJSON`). It answers nil for anything it does not plainly
/// understand (a fraction, a duplicate key, a bad escape, a wrong kind of value, a broken pattern), and the
/// caller then decodes with `JSONDecoder`, which names the problem: the error messages stay in
/// one place, and for valid files both give the same declarations (a test holds them to it).
struct DeclarationReader {
    typealias Value = PlainJSON.Value

    /// The declarations in `bytes`, or nil when `JSONDecoder` should decide.
    static func read(_ bytes: UnsafeRawBufferPointer) -> TypeDeclarationFile? {
        PlainJSON.parse(bytes).flatMap(file)
    }

    // MARK: Mapping to declarations

    private static func file(_ value: Value) -> TypeDeclarationFile? {
        guard case .object(let o) = value else { return nil }
        guard let format = int(o["format"], default: 1), format == 1,
            let types = list(o["types"], declaration),
            let exported = list(o["exportedTypes"], declaration),
            let imported = list(o["importedTypes"], declaration)
        else { return nil }
        return TypeDeclarationFile(format: format, types: types, exportedTypes: exported, importedTypes: imported)
    }

    private static func declaration(_ value: Value) -> TypeDeclaration? {
        guard case .object(let o) = value, case .string(let identifier)? = o["identifier"],
            let conformsTo = list(o["conformsTo"], string), let description = string(o["description"], default: ""),
            let extensions = list(o["extensions"], string), let mimeTypes = list(o["mimeTypes"], string),
            let filenames = list(o["filenames"], string), let interpreters = list(o["interpreters"], string),
            let signatures = list(o["signatures"], signature)
        else { return nil }
        var reference: String? = nil
        switch o["reference"] {
        case nil, .null?: break
        case .string(let text)?: reference = text
        default: return nil
        }
        return TypeDeclaration(
            identifier: identifier, conformsTo: conformsTo, description: description, extensions: extensions,
            mimeTypes: mimeTypes, filenames: filenames, interpreters: interpreters, signatures: signatures,
            reference: reference)
    }

    private static func signature(_ value: Value) -> ByteSignature? {
        guard case .object(let o) = value, let priority = int(o["priority"], default: 50) else { return nil }
        let patterns: [BytePattern]
        switch o["patterns"] {
        case nil, .null?:
            // A single pattern written inline, as `ByteSignature(from:)` accepts.
            guard let one = pattern(value) else { return nil }
            patterns = [one]
        case let listed?:
            guard let many = list(listed, pattern) else { return nil }
            patterns = many
        }
        return patterns.isEmpty ? nil : ByteSignature(priority: priority, patterns: patterns)
    }

    private static func pattern(_ value: Value) -> BytePattern? {
        guard case .object(let o) = value, let offset = int(o["offset"], default: 0), let range = int(o["range"], default: 0),
            offset >= 0, range >= 0
        else { return nil }
        let bytes: [UInt8]
        switch (o["hex"] ?? .null, o["ascii"] ?? .null) {
        case (.string(let hex), .null):
            guard let parsed = BytePattern.parseHex(hex) else { return nil }
            bytes = parsed
        case (.null, .string(let ascii)):
            bytes = Array(ascii.utf8)
        default:
            return nil
        }
        guard !bytes.isEmpty else { return nil }
        var mask: [UInt8]? = nil
        switch o["mask"] {
        case nil, .null?: break
        case .string(let text)?:
            guard let parsed = BytePattern.parseHex(text), parsed.count == bytes.count else { return nil }
            mask = parsed
        default: return nil
        }
        return BytePattern(offset: offset, bytes: bytes, mask: mask, range: range)
    }

    /// An optional list (absent or null: empty), each element mapped; nil if any element fails.
    private static func list<T>(_ value: Value?, _ element: (Value) -> T?) -> [T]? {
        switch value {
        case nil, .null?: return []
        case .array(let items)?:
            var out: [T] = []
            out.reserveCapacity(items.count)
            for item in items {
                guard let mapped = element(item) else { return nil }
                out.append(mapped)
            }
            return out
        default: return nil
        }
    }

    private static func string(_ value: Value) -> String? {
        if case .string(let text) = value { return text }
        return nil
    }

    private static func string(_ value: Value?, default fallback: String) -> String? {
        switch value {
        case nil, .null?: return fallback
        case .string(let text)?: return text
        default: return nil
        }
    }

    private static func int(_ value: Value?, default fallback: Int) -> Int? {
        switch value {
        case nil, .null?: return fallback
        case .number(let n, whole: true)?: return Int(exactly: n)
        default: return nil
        }
    }
}
