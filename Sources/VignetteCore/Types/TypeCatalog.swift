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
        /// A type, name pattern or magic rule from the system's shared-mime-info database.
        case system(file: String)

        /// Precedence for identifiers and tags: exported > built-in > imported > system.
        var rank: Int {
            switch self {
            case .system: 0
            case .imported: 1
            case .builtIn: 2
            case .exported: 3
            }
        }

        /// "built-in", "exported by FILE", "imported by FILE" or "from the system MIME database (FILE)".
        public var description: String {
            switch self {
            case .builtIn: "built-in"
            case .exported(let file): "exported by \(file)"
            case .imported(let file): "imported by \(file)"
            case .system(let file): "from the system MIME database (\(file))"
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

    /// A magic rule of the system database, with the type it identifies.
    struct IndexedMagic: Sendable {
        let identifier: String
        let rule: MagicRule
        let file: String
        /// Whether the type is text: such rules are tried only after our text rules and the name.
        var isText = false
    }

    /// One type a name (extension, exact name or glob) may stand for, and how strongly.
    struct NameClaim: Sendable {
        let identifier: String
        let rank: Int
        let weight: Int
        let order: Int
        let origin: Origin

        /// Better claims first: higher rank, then higher weight, then declared later.
        static func isBetter(_ a: NameClaim, _ b: NameClaim) -> Bool {
            (a.rank, a.weight, a.order) > (b.rank, b.weight, b.order)
        }
    }

    /// A glob that is neither an exact name nor `*.ext` (`README*`, `*.so.[0-9]*`).
    struct GlobClaim: Sendable {
        let pattern: String
        let caseSensitive: Bool
        let claim: NameClaim
    }

    /// The look-up tables of a catalog built from declarations; `init(extending:)` builds on
    /// them. Empty when the catalog reads its tables in place from the merged cache (`frozen`).
    let tables: Tables
    /// The tables read in place from the merged cache, when the catalog came from it.
    let frozen: FrozenTables?
    /// Identifiers in declaration order.
    public var identifiers: [String] { frozen?.order ?? tables.order }
    /// The furthest byte any signature looks at.
    public let signatureReach: Int
    let storedDeclarations: [(TypeDeclaration, Origin)]
    let storedSystemExtras: [SystemTypeExtras]

    /// What the catalog was built from, so that `adding` can rebuild it with more.
    var sourceDeclarations: [(TypeDeclaration, Origin)] {
        guard let frozen else { return storedDeclarations }
        // A cache whose sources do not decode (damage inside the file) degrades to the built-in types.
        return frozen.sources?.0 ?? TypeCatalog.builtIn.sourceDeclarations
    }
    var sourceSystemExtras: [SystemTypeExtras] {
        guard let frozen else { return storedSystemExtras }
        return frozen.sources?.1 ?? []
    }

    // MARK: Tables

    func entry(_ id: String) -> Entry? { frozen.map { $0.entry(id) } ?? tables.entries[id] }
    /// Tag tables: the winning identifier and its origin's rank.
    func extensionWinner(_ key: String) -> (String, Int)? { frozen.map { $0.winner(.ext, key) } ?? tables.ext[key] }
    func mimeWinner(_ key: String) -> (String, Int)? { frozen.map { $0.winner(.mime, key) } ?? tables.mime[key] }
    func interpreterWinner(_ key: String) -> (String, Int)? { frozen.map { $0.winner(.interp, key) } ?? tables.interp[key] }
    func extensionClaims(_ key: String) -> [NameClaim]? { frozen.map { $0.claims(.extClaims, key) } ?? tables.extClaims[key] }
    var hasCaseSensitiveExtensionClaims: Bool { frozen.map { $0.count(.exactExtClaims) > 0 } ?? !tables.exactExtClaims.isEmpty }
    func caseSensitiveExtensionClaims(_ key: String) -> [NameClaim]? {
        frozen.map { $0.claims(.exactExtClaims, key) } ?? tables.exactExtClaims[key]
    }
    func filenameClaims(_ key: String) -> [NameClaim]? { frozen.map { $0.claims(.nameClaims, key) } ?? tables.nameClaims[key] }
    var globClaims: [GlobClaim] { frozen?.globs ?? tables.globs }
    func chain(_ id: String) -> [String]? { frozen.map { $0.strings(.chains, id) } ?? tables.chains[id] }
    var signatures: [IndexedSignature] { frozen?.signatures ?? tables.sigs }
    var magic: [IndexedMagic] { frozen?.magic ?? tables.magic }
    /// Whether any system type has an XML root element (`rootXML(_:)`).
    var hasRootXML: Bool { frozen.map { $0.count(.roots) > 0 } ?? !tables.roots.isEmpty }
    /// `namespace localName` of an XML root element → identifier (system `root-XML`).
    func rootXML(_ key: String) -> String? { frozen.map { $0.string(.roots, key) } ?? tables.roots[key] }
    /// Every MIME type each type is known by: its declaration's, then the system database's.
    func mimeList(_ id: String) -> [String]? { frozen.map { $0.strings(.mimeLists, id) } ?? tables.mimeLists[id] }
    /// The longest multi-part extension, in parts (`tar.gz` is 2).
    var maxExtensionParts: Int { frozen?.parts ?? tables.parts }

    /// Builds a catalog from declarations and their origins, validating the graph.
    ///
    /// `system` carries what the shared-mime-info database says beyond declarations (globs
    /// with weights, magic, XML roots, icons); see `adding(system:)`.
    ///
    /// - Throws: `VignetteError.invalidDeclaration` for an unknown parent or a conformance cycle.
    public convenience init(declarations: [(TypeDeclaration, Origin)]) throws {
        try self.init(declarations: declarations, system: [])
    }

    convenience init(declarations: [(TypeDeclaration, Origin)], system: [SystemTypeExtras]) throws {
        var tables = Tables()
        try tables.add(declarations: declarations)
        tables.add(extras: system)
        self.init(tables: tables, declarations: declarations, system: system)
    }

    /// A catalog of `base` with more declarations and system extras, built on `base`'s tables
    /// instead of from scratch; falls back to a full build when a declaration re-declares one
    /// of `base`'s identifiers (its precedence rules need the whole list again).
    convenience init(extending base: TypeCatalog, declarations: [(TypeDeclaration, Origin)], system: [SystemTypeExtras]) throws {
        // A frozen base has no tables to build on.
        if base.frozen != nil || declarations.contains(where: { base.entry($0.0.identifier) != nil }) {
            try self.init(declarations: base.sourceDeclarations + declarations, system: base.sourceSystemExtras + system)
            return
        }
        var tables = base.tables
        try tables.add(declarations: declarations)
        tables.add(extras: system)
        self.init(tables: tables, declarations: base.sourceDeclarations + declarations, system: base.sourceSystemExtras + system)
    }

    private init(tables: Tables, declarations: [(TypeDeclaration, Origin)], system: [SystemTypeExtras]) {
        self.tables = tables
        self.frozen = nil
        self.signatureReach = max(tables.sigs.map(\.signature.reach).max() ?? 0, tables.magic.map(\.rule.reach).max() ?? 0)
        self.storedDeclarations = declarations
        self.storedSystemExtras = system
    }

    /// A catalog that reads its tables in place (from the merged cache).
    init(frozen: FrozenTables) {
        self.tables = Tables()
        self.frozen = frozen
        self.signatureReach = frozen.signatureReach
        self.storedDeclarations = []
        self.storedSystemExtras = []
    }

    /// Breadth-first ancestors of `id`, itself first; throws on unknown parents and cycles.
    static func chain(of id: String, entries: [String: Entry], known: [String: [String]]) throws -> [String] {
        guard let entry = entries[id] else {
            throw VignetteError(.invalidDeclaration, "type \(id) is not declared")
        }
        let parents = entry.type.declaration.conformsTo
        // The common case, one parent whose chain is known: no search needed.
        if parents.count == 1, let parentChain = known[parents[0]], !parentChain.contains(id) {
            return [id] + parentChain
        }
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
        // Most MIME types are already plain lower-case ASCII: answer those without Foundation.
        if text.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: ";") && !($0 >= 0x41 && $0 <= 0x5A) }) {
            return text
        }
        var bytes: [UInt8] = []
        for c in text.utf8 {
            if c == UInt8(ascii: ";") { break }
            bytes.append(c >= 0x41 && c <= 0x5A ? c + 0x20 : c)
        }
        let isSpace: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x09 }
        guard let first = bytes.firstIndex(where: { !isSpace($0) }), let last = bytes.lastIndex(where: { !isSpace($0) }) else { return "" }
        return String(decoding: bytes[first...last], as: UTF8.self)
    }

    // MARK: Look-ups

    /// The type with this identifier (declared, or a well-formed dynamic identifier), if any.
    public func type(withIdentifier identifier: String) -> UniformType? {
        if let entry = entry(identifier) { return entry.type }
        return DynamicType.decode(identifier)
    }

    /// Where the declaration of a type came from; nil for dynamic or unknown types.
    public func origin(of type: UniformType) -> Origin? { entry(type.identifier)?.origin }

    /// The declared type for a filename extension (case-insensitive, no dot), if any.
    public func declaredType(forFilenameExtension ext: String) -> UniformType? {
        extensionWinner(ext.lowercased()).flatMap { entry($0.0)?.type }
    }

    /// The type for a filename extension: the declared one, else a stable dynamic type.
    public func type(forFilenameExtension ext: String) -> UniformType {
        declaredType(forFilenameExtension: ext) ?? DynamicType.forExtension(ext.lowercased())
    }

    /// The declared type for a MIME type or one of its aliases (parameters ignored), if any.
    public func declaredType(forMIMEType mime: String) -> UniformType? {
        mimeWinner(TypeCatalog.normalizeMIME(mime)).flatMap { entry($0.0)?.type }
    }

    /// The type for a MIME type: the declared one, else a stable dynamic type.
    public func type(forMIMEType mime: String) -> UniformType {
        declaredType(forMIMEType: mime) ?? DynamicType.forMIME(TypeCatalog.normalizeMIME(mime))
    }

    /// The declared type an interpreter name (from a `#!` line) stands for.
    ///
    /// Versions are stripped step by step: `python3.11` → `python3` → `python`; then a variant
    /// suffix after the first `-` (`lua-any`, `python3-dbg`) goes too.
    public func declaredType(forInterpreter name: String) -> UniformType? {
        var candidate = name
        while !candidate.isEmpty {
            if let id = interpreterWinner(candidate)?.0, let t = entry(id)?.type { return t }
            guard let last = candidate.last, last.isNumber || last == "." || last == "-" else { break }
            candidate.removeLast()
        }
        if let dash = name.firstIndex(of: "-"), dash > name.startIndex, name[..<dash] != Substring(name) {
            return declaredType(forInterpreter: String(name[..<dash]))
        }
        return nil
    }

    /// The declared type a file's name implies: an exact file name first, then its longest
    /// known extension (`a.tar.gz` tries `tar.gz`, then `gz`), then other glob patterns.
    public func declaredType(forFilename filename: String) -> UniformType? {
        nameMatches(forFilename: filename).first?.type
    }

    /// A type a file name may stand for, and where the name pattern was declared.
    public struct NameMatch: Sendable {
        /// The type.
        public let type: UniformType
        /// Where the pattern that matched was declared.
        public let origin: Origin
    }

    /// Every declared type a file's name may stand for, best first: exact names, then
    /// extensions longest first (a case-sensitive system glob before the others), then other
    /// glob patterns; within each, our declarations before the system's, then by weight.
    public func nameMatches(forFilename filename: String) -> [NameMatch] {
        var result: [NameMatch] = []
        var seen: Set<String> = []
        func add(_ claims: [NameClaim]?) {
            for c in claims ?? [] where seen.insert(c.identifier).inserted {
                if let t = entry(c.identifier)?.type { result.append(NameMatch(type: t, origin: c.origin)) }
            }
        }
        add(filenameClaims(filename))
        for ext in TypeCatalog.extensionCandidates(of: filename, maxParts: maxExtensionParts, lowercased: false) {
            if hasCaseSensitiveExtensionClaims { add(caseSensitiveExtensionClaims(ext)) }
            add(extensionClaims(ext.lowercased()))
        }
        let globs = globClaims
        if !globs.isEmpty {
            let lower = filename.lowercased()
            for g in globs where fnmatch(g.pattern, g.caseSensitive ? filename : lower, 0) == 0 {
                add([g.claim])
            }
        }
        return result
    }

    /// The type a file's name implies: declared, else dynamic for its last extension, else nil (no extension).
    public func type(forFilename filename: String) -> UniformType? {
        if let t = declaredType(forFilename: filename) { return t }
        return TypeCatalog.extensionCandidates(of: filename, maxParts: 1).first.map { DynamicType.forExtension($0) }
    }

    /// Extension candidates of a file name, longest first, lower-cased (`A.Tar.GZ` → `tar.gz`, `gz`).
    static func extensionCandidates(of filename: String, maxParts: Int, lowercased: Bool = true) -> [String] {
        let lower = lowercased ? filename.lowercased() : filename
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
        if let ancestors = chain(type.identifier) {
            return ancestors.compactMap { entry($0)?.type }
        }
        let parent = DynamicType.parent(of: type)
        return [type] + (chain(parent) ?? [parent]).compactMap { entry($0)?.type }
    }

    /// Whether `type` is `parent` or descends from it (reflexive and transitive).
    public func conforms(_ type: UniformType, to parent: String) -> Bool {
        if type.identifier == parent { return true }
        if let ancestors = chain(type.identifier) { return ancestors.contains(parent) }
        return supertypes(of: type).contains { $0.identifier == parent }
    }

    /// How far `parent` is up the chain of `type` (0 = itself), or nil if it does not conform.
    public func distance(from type: UniformType, to parent: String) -> Int? {
        supertypes(of: type).firstIndex { $0.identifier == parent }
    }

    /// Every MIME type `type` is known by: its declaration's (preferred first), then those the
    /// system MIME database maps to it (its types and aliases).
    public func mimeTypes(of type: UniformType) -> [String] {
        mimeList(type.identifier) ?? type.declaration.mimeTypes
    }

    /// The highest priority of the system magic rules that identify `type` (nil: it has none).
    public func magicPriority(of type: UniformType) -> Int? {
        frozen.map { $0.int(.magicPriority, type.identifier) } ?? tables.magicPriority[type.identifier]
    }

    /// The generic icon name the system MIME database gives `type` (`x-office-document`), if any.
    public func genericIcon(of type: UniformType) -> String? {
        frozen.map { $0.string(.icons, type.identifier) } ?? tables.icons[type.identifier]
    }

    /// The preferred MIME type of `type`, inherited from the nearest ancestor that has one.
    public func preferredMIMEType(of type: UniformType) -> String {
        for t in supertypes(of: type) {
            if let m = t.preferredMIMEType { return m }
        }
        return "application/octet-stream"
    }

    /// All declared types, in declaration order.
    public var allTypes: [UniformType] { identifiers.compactMap { entry($0)?.type } }
}
