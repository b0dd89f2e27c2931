import Foundation

/// Every known content type, with look-ups by identifier, filename extension, MIME type,
/// file name and interpreter, and the conformance graph.
///
/// A catalog is immutable and safe to share between threads. Built-in declarations come
/// from `UniformTypes.json`; `adding(_:)` returns a new catalog with custom declarations.
public final class TypeCatalog: Sendable {
    /// Where a declaration came from; decides which wins when two declare the same thing.
    public enum Origin: Sendable, Equatable, CustomStringConvertible {
        /// Shipped with Vignette.
        case builtIn
        /// A custom declaration of a type its author owns: wins over built-in and imported ones.
        case exported(file: String)
        /// A custom declaration of someone else's type: used only where nothing else declares it.
        case imported(file: String)

        /// Precedence for identifiers and tags: exported > built-in > imported.
        var rank: Int {
            switch self {
            case .imported: 0
            case .builtIn: 1
            case .exported: 2
            }
        }

        /// "built-in", "exported by FILE" or "imported by FILE".
        public var description: String {
            switch self {
            case .builtIn: "built-in"
            case .exported(let file): "exported by \(file)"
            case .imported(let file): "imported by \(file)"
            }
        }
    }

    struct Entry: Sendable {
        let type: UniformType
        let origin: Origin
    }

    struct IndexedSignature: Sendable {
        let identifier: String
        let signature: ByteSignature
        let order: Int
    }

    let entries: [String: Entry]
    /// Identifiers in declaration order.
    public let identifiers: [String]
    let byExtension: [String: String]
    let byMIME: [String: String]
    let byFilename: [String: String]
    let byInterpreter: [String: String]
    let chains: [String: [String]]
    let signatures: [IndexedSignature]
    /// The furthest byte any signature looks at.
    public let signatureReach: Int
    /// The longest multi-part extension, in parts (`tar.gz` is 2).
    let maxExtensionParts: Int

    /// Builds a catalog from declarations and their origins, validating the graph.
    ///
    /// - Throws: `VignetteError.invalidDeclaration` for an unknown parent or a conformance cycle.
    public init(declarations: [(TypeDeclaration, Origin)]) throws {
        var entries: [String: Entry] = [:]
        var order: [String] = []
        for (declaration, origin) in declarations {
            let id = declaration.identifier
            if let existing = entries[id] {
                if origin.rank < existing.origin.rank { continue }
            } else {
                order.append(id)
            }
            entries[id] = Entry(type: UniformType(declaration), origin: origin)
        }

        // Tags: higher rank wins; within a rank the later declaration wins.
        var ext: [String: (String, Int)] = [:]
        var mime: [String: (String, Int)] = [:]
        var names: [String: (String, Int)] = [:]
        var interp: [String: (String, Int)] = [:]
        var parts = 1
        func claim(_ table: inout [String: (String, Int)], _ key: String, _ id: String, _ rank: Int) {
            if let current = table[key], current.1 > rank { return }
            table[key] = (id, rank)
        }
        for id in order {
            guard let entry = entries[id] else { continue }
            let d = entry.type.declaration
            let rank = entry.origin.rank
            for e in d.extensions {
                let key = e.lowercased()
                claim(&ext, key, id, rank)
                parts = max(parts, key.split(separator: ".").count)
            }
            for m in d.mimeTypes { claim(&mime, TypeCatalog.normalizeMIME(m), id, rank) }
            for f in d.filenames { claim(&names, f, id, rank) }
            for i in d.interpreters { claim(&interp, i, id, rank) }
        }

        var chains: [String: [String]] = [:]
        for id in order {
            chains[id] = try TypeCatalog.chain(of: id, entries: entries)
        }

        var sigs: [IndexedSignature] = []
        for (index, id) in order.enumerated() {
            for s in entries[id]!.type.declaration.signatures {
                sigs.append(IndexedSignature(identifier: id, signature: s, order: index))
            }
        }

        self.entries = entries
        self.identifiers = order
        self.byExtension = ext.mapValues(\.0)
        self.byMIME = mime.mapValues(\.0)
        self.byFilename = names.mapValues(\.0)
        self.byInterpreter = interp.mapValues(\.0)
        self.chains = chains
        self.signatures = sigs
        self.signatureReach = sigs.map(\.signature.reach).max() ?? 0
        self.maxExtensionParts = parts
    }

    /// Breadth-first ancestors of `id`, itself first; throws on unknown parents and cycles.
    private static func chain(of id: String, entries: [String: Entry]) throws -> [String] {
        var result: [String] = []
        var seen: Set<String> = []
        var queue: [String] = [id]
        var index = 0
        while index < queue.count {
            let current = queue[index]
            index += 1
            if !seen.insert(current).inserted { continue }
            result.append(current)
            guard let entry = entries[current] else {
                throw VignetteError(.invalidDeclaration, "type \(queue[0]) conforms to \(current), which is not declared")
            }
            for parent in entry.type.declaration.conformsTo {
                if parent == id {
                    throw VignetteError(.invalidDeclaration, "type \(id) conforms to itself through \(current) (a cycle)")
                }
                queue.append(parent)
            }
        }
        return result
    }

    static func normalizeMIME(_ text: String) -> String {
        let base = text.split(separator: ";", maxSplits: 1).first.map(String.init) ?? text
        return base.trimmingCharacters(in: .whitespaces).lowercased()
    }

    // MARK: Look-ups

    /// The type with this identifier (declared, or a well-formed dynamic identifier), if any.
    public func type(withIdentifier identifier: String) -> UniformType? {
        if let entry = entries[identifier] { return entry.type }
        return DynamicType.decode(identifier)
    }

    /// Where the declaration of a type came from; nil for dynamic or unknown types.
    public func origin(of type: UniformType) -> Origin? { entries[type.identifier]?.origin }

    /// The declared type for a filename extension (case-insensitive, no dot), if any.
    public func declaredType(forFilenameExtension ext: String) -> UniformType? {
        byExtension[ext.lowercased()].flatMap { entries[$0]?.type }
    }

    /// The type for a filename extension: the declared one, else a stable dynamic type.
    public func type(forFilenameExtension ext: String) -> UniformType {
        declaredType(forFilenameExtension: ext) ?? DynamicType.forExtension(ext.lowercased())
    }

    /// The declared type for a MIME type or one of its aliases (parameters ignored), if any.
    public func declaredType(forMIMEType mime: String) -> UniformType? {
        byMIME[TypeCatalog.normalizeMIME(mime)].flatMap { entries[$0]?.type }
    }

    /// The type for a MIME type: the declared one, else a stable dynamic type.
    public func type(forMIMEType mime: String) -> UniformType {
        declaredType(forMIMEType: mime) ?? DynamicType.forMIME(TypeCatalog.normalizeMIME(mime))
    }

    /// The declared type an interpreter name (from a `#!` line) stands for.
    ///
    /// Versions are stripped step by step: `python3.11` → `python3` → `python`.
    public func declaredType(forInterpreter name: String) -> UniformType? {
        var candidate = name
        while !candidate.isEmpty {
            if let id = byInterpreter[candidate], let t = entries[id]?.type { return t }
            guard let last = candidate.last, last.isNumber || last == "." || last == "-" else { break }
            candidate.removeLast()
        }
        return nil
    }

    /// The declared type a file's name implies: an exact file name first, then its longest
    /// known extension (`a.tar.gz` tries `tar.gz`, then `gz`).
    public func declaredType(forFilename filename: String) -> UniformType? {
        if let id = byFilename[filename], let t = entries[id]?.type { return t }
        for ext in TypeCatalog.extensionCandidates(of: filename, maxParts: maxExtensionParts) {
            if let t = declaredType(forFilenameExtension: ext) { return t }
        }
        return nil
    }

    /// The type a file's name implies: declared, else dynamic for its last extension, else nil (no extension).
    public func type(forFilename filename: String) -> UniformType? {
        if let t = declaredType(forFilename: filename) { return t }
        return TypeCatalog.extensionCandidates(of: filename, maxParts: 1).first.map { DynamicType.forExtension($0) }
    }

    /// Extension candidates of a file name, longest first, lower-cased (`A.Tar.GZ` → `tar.gz`, `gz`).
    static func extensionCandidates(of filename: String, maxParts: Int) -> [String] {
        let lower = filename.lowercased()
        let pieces = lower.split(separator: ".", omittingEmptySubsequences: false)
        guard pieces.count > 1 else { return [] }
        // A leading dot (".bashrc") is part of the name, not an extension separator.
        let first = pieces.first!.isEmpty ? 2 : 1
        guard pieces.count > first else { return [] }
        var result: [String] = []
        let available = pieces.count - first
        for n in stride(from: min(maxParts, available), through: 1, by: -1) {
            let ext = pieces.suffix(n).joined(separator: ".")
            if !ext.isEmpty, !pieces.suffix(n).contains(where: \.isEmpty) { result.append(ext) }
        }
        return result
    }

    // MARK: Conformance

    /// The type itself and all its ancestors, nearest first (breadth-first).
    public func supertypes(of type: UniformType) -> [UniformType] {
        if let chain = chains[type.identifier] {
            return chain.compactMap { entries[$0]?.type }
        }
        let parent = DynamicType.parent(of: type)
        return [type] + (chains[parent] ?? [parent]).compactMap { entries[$0]?.type }
    }

    /// Whether `type` is `parent` or descends from it (reflexive and transitive).
    public func conforms(_ type: UniformType, to parent: String) -> Bool {
        if type.identifier == parent { return true }
        if let chain = chains[type.identifier] { return chain.contains(parent) }
        return supertypes(of: type).contains { $0.identifier == parent }
    }

    /// How far `parent` is up the chain of `type` (0 = itself), or nil if it does not conform.
    public func distance(from type: UniformType, to parent: String) -> Int? {
        supertypes(of: type).firstIndex { $0.identifier == parent }
    }

    /// The preferred MIME type of `type`, inherited from the nearest ancestor that has one.
    public func preferredMIMEType(of type: UniformType) -> String {
        for t in supertypes(of: type) {
            if let m = t.preferredMIMEType { return m }
        }
        return "application/octet-stream"
    }

    /// All declared types, in declaration order.
    public var allTypes: [UniformType] { identifiers.compactMap { entries[$0]?.type } }
}
