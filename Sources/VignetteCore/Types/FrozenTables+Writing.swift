extension FrozenTables {
    /// Appends built `tables` in the form `init?(bytes:at:)` reads, with the declarations and
    /// system extras they came from; `start` is where `w`'s bytes will begin in the file.
    static func write(
        _ tables: TypeCatalog.Tables, signatureReach: Int, declarations: [(TypeDeclaration, TypeCatalog.Origin)],
        system: [SystemTypeExtras], into w: inout CacheWriter
    ) {
        w.int(tables.parts)
        w.int(signatureReach)
        // Keys and values first (their offsets go in the index), then each table's sorted index.
        var values = CacheWriter()
        let valuesStart = w.out.count + 8
        var indexes: [[(key: Int, length: Int, value: Int)]] = []
        func table<V>(_ dictionary: [String: V], _ write: (inout CacheWriter, V) -> Void) {
            let sorted = dictionary.map { (Array($0.key.utf8), $0.value) }.sorted { $0.0.lexicographicallyPrecedes($1.0) }
            var index: [(key: Int, length: Int, value: Int)] = []
            index.reserveCapacity(sorted.count)
            for (key, value) in sorted {
                let keyAt = valuesStart + values.out.count
                values.bytes(key)
                let valueAt = valuesStart + values.out.count
                write(&values, value)
                index.append((keyAt, key.count, valueAt))
            }
            indexes.append(index)
        }
        for t in Table.allCases {
            switch t {
            case .entries: table(tables.entries) { $0.declaration($1.type.declaration, origin: $1.origin) }
            case .ext: table(tables.ext) { $0.winner($1) }
            case .mime: table(tables.mime) { $0.winner($1) }
            case .interp: table(tables.interp) { $0.winner($1) }
            case .extClaims: table(tables.extClaims) { $0.nameClaims($1) }
            case .exactExtClaims: table(tables.exactExtClaims) { $0.nameClaims($1) }
            case .nameClaims: table(tables.nameClaims) { $0.nameClaims($1) }
            case .chains: table(tables.chains) { $0.strings($1) }
            case .mimeLists: table(tables.mimeLists) { $0.strings($1) }
            case .icons: table(tables.icons) { $0.string($1) }
            case .roots: table(tables.roots) { $0.string($1) }
            case .magicPriority: table(tables.magicPriority) { $0.int($1) }
            }
        }
        w.int(values.out.count)
        w.bytes(values.out)
        for index in indexes {
            w.u32(index.count)
            for e in index {
                w.u32(e.key)
                w.u32(e.length)
                w.u32(e.value)
            }
        }
        for s in Section.allCases {
            var section = CacheWriter()
            switch s {
            case .signatures:
                section.int(tables.sigs.count)
                for s in tables.sigs {
                    section.string(s.identifier)
                    section.int(s.order)
                    section.int(s.signature.priority)
                    section.int(s.signature.patterns.count)
                    for p in s.signature.patterns { section.pattern(p) }
                }
            case .magic:
                section.int(tables.magic.count)
                for m in tables.magic {
                    section.string(m.identifier)
                    section.int(m.rule.priority)
                    section.string(m.file)
                    section.int(m.isText ? 1 : 0)
                    section.matches(m.rule.matches)
                }
            case .globs:
                section.int(tables.globs.count)
                for g in tables.globs {
                    section.string(g.pattern)
                    section.int(g.caseSensitive ? 1 : 0)
                    section.nameClaim(g.claim)
                }
            case .order:
                section.strings(tables.order)
            case .sources:
                section.sources(declarations, system)
            }
            w.int(section.out.count)
            w.bytes(section.out)
        }
    }
}

extension CacheWriter {
    /// A 4-byte little-endian integer (the frozen tables' index).
    mutating func u32(_ v: Int) { withUnsafeBytes(of: UInt32(truncatingIfNeeded: v).littleEndian) { out.append(contentsOf: $0) } }

    mutating func winner(_ w: (String, Int)) {
        string(w.0)
        int(w.1)
    }

    mutating func origin(_ origin: TypeCatalog.Origin) {
        switch origin {
        case .builtIn: int(0)
        case .exported(let file): int(1); string(file)
        case .imported(let file): int(2); string(file)
        case .system(let file): int(3); string(file)
        }
    }

    mutating func nameClaim(_ c: TypeCatalog.NameClaim) {
        string(c.identifier)
        int(c.rank)
        int(c.weight)
        int(c.order)
        origin(c.origin)
    }

    mutating func nameClaims(_ list: [TypeCatalog.NameClaim]) {
        int(list.count)
        for c in list { nameClaim(c) }
    }

    mutating func declaration(_ d: TypeDeclaration, origin o: TypeCatalog.Origin) {
        string(d.identifier)
        strings(d.conformsTo)
        string(d.description)
        strings(d.extensions)
        strings(d.mimeTypes)
        strings(d.filenames)
        strings(d.interpreters)
        int(d.signatures.count)
        for s in d.signatures {
            int(s.priority)
            int(s.patterns.count)
            for p in s.patterns { pattern(p) }
        }
        int(d.reference == nil ? 0 : 1)
        string(d.reference ?? "")
        origin(o)
    }

    /// Declarations with their origins, then system extras.
    mutating func sources(_ declarations: [(TypeDeclaration, TypeCatalog.Origin)], _ system: [SystemTypeExtras]) {
        int(declarations.count)
        for (d, origin) in declarations { declaration(d, origin: origin) }
        int(system.count)
        for e in system {
            string(e.identifier)
            int(e.mimeTypes.count)
            for m in e.mimeTypes {
                string(m.mime)
                string(m.file)
            }
            int(e.globs.count)
            for g in e.globs {
                string(g.pattern)
                int(g.weight)
                int(g.caseSensitive ? 1 : 0)
                string(g.file)
            }
            int(e.magic.count)
            for m in e.magic {
                int(m.rule.priority)
                string(m.file)
                matches(m.rule.matches)
            }
            strings(e.rootXML)
            int(e.icon == nil ? 0 : 1)
            string(e.icon ?? "")
        }
    }
}

extension CacheReader {
    mutating func origin() throws -> TypeCatalog.Origin {
        switch try int() {
        case 0: return .builtIn
        case 1: return .exported(file: try string())
        case 2: return .imported(file: try string())
        case 3: return .system(file: try string())
        default: throw Truncated()
        }
    }

    mutating func nameClaim() throws -> TypeCatalog.NameClaim {
        TypeCatalog.NameClaim(identifier: try string(), rank: try int(), weight: try int(), order: try int(), origin: try origin())
    }

    mutating func nameClaims() throws -> [TypeCatalog.NameClaim] {
        var list: [TypeCatalog.NameClaim] = []
        for _ in 0..<(try count()) { list.append(try nameClaim()) }
        return list
    }

    mutating func declaration() throws -> (TypeDeclaration, TypeCatalog.Origin) {
        var d = TypeDeclaration(
            identifier: try string(), conformsTo: try strings(), description: try string(), extensions: try strings(),
            mimeTypes: try strings(), filenames: try strings(), interpreters: try strings())
        for _ in 0..<(try count()) {
            let priority = try int()
            var patterns: [BytePattern] = []
            for _ in 0..<(try count()) { patterns.append(try pattern()) }
            guard !patterns.isEmpty else { throw Truncated() }
            d.signatures.append(ByteSignature(priority: priority, patterns: patterns))
        }
        let hasReference = try flag()
        let reference = try string()
        d.reference = hasReference ? reference : nil
        return (d, try origin())
    }

    /// Declarations with their origins, then system extras (as `CacheWriter.sources` writes them).
    mutating func sources() throws -> ([(TypeDeclaration, TypeCatalog.Origin)], [SystemTypeExtras]) {
        var declarations: [(TypeDeclaration, TypeCatalog.Origin)] = []
        for _ in 0..<(try count()) { declarations.append(try declaration()) }
        var extras: [SystemTypeExtras] = []
        for _ in 0..<(try count()) {
            var e = SystemTypeExtras(identifier: try string())
            for _ in 0..<(try count()) { e.mimeTypes.append((try string(), try string())) }
            for _ in 0..<(try count()) {
                e.globs.append((try string(), try int(), try flag(), try string()))
            }
            for _ in 0..<(try count()) {
                let priority = try int()
                let file = try string()
                e.magic.append((MagicRule(priority: priority, matches: try matches(depth: 0)), file))
            }
            e.rootXML = try strings()
            let hasIcon = try flag()
            let icon = try string()
            e.icon = hasIcon ? icon : nil
            extras.append(e)
        }
        return (declarations, extras)
    }
}
