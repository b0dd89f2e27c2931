extension TypeCatalog {
    /// The look-up tables of a catalog while they are built, kept so that a catalog can be
    /// extended (the system database over the built-in types) without hashing again what is
    /// already there.
    struct Tables: Sendable {
        var entries: [String: Entry] = [:]
        var order: [String] = []
        // Tags: the winning identifier and its rank; higher rank wins, within a rank the later.
        var ext: [String: (String, Int)] = [:]
        var mime: [String: (String, Int)] = [:]
        var interp: [String: (String, Int)] = [:]
        var extClaims: [String: [NameClaim]] = [:]
        var exactExtClaims: [String: [NameClaim]] = [:]
        var nameClaims: [String: [NameClaim]] = [:]
        var globs: [GlobClaim] = []
        var parts = 1
        var claimOrder = 0
        var mimeLists: [String: [String]] = [:]
        var magic: [IndexedMagic] = []
        /// The highest priority of each type's magic rules.
        var magicPriority: [String: Int] = [:]
        var roots: [String: String] = [:]
        var icons: [String: String] = [:]
        var chains: [String: [String]] = [:]
        var sigs: [IndexedSignature] = []

        static func claim(_ table: inout [String: (String, Int)], _ key: String, _ id: String, _ rank: Int) {
            if let current = table[key], current.1 > rank { return }
            table[key] = (id, rank)
        }

        mutating func claimMIME(_ m: String, _ id: String, _ rank: Int) {
            let key = TypeCatalog.normalizeMIME(m)
            let current = mime[key]
            if current?.0 == id { return }
            // As claim(_:_:_:), with the one look-up already made.
            if (current?.1 ?? rank) <= rank { mime[key] = (id, rank) }
            mimeLists[id, default: []].append(m)
        }

        /// A name claim, numbered in the order claims are made (later wins ties).
        mutating func nameClaim(_ id: String, _ weight: Int, _ origin: Origin) -> NameClaim {
            claimOrder += 1
            return NameClaim(identifier: id, rank: origin.rank, weight: weight, order: claimOrder, origin: origin)
        }

        /// Adds a name claim where it belongs in its list (best first; lists hold a few claims).
        static func insert(_ c: NameClaim, into table: inout [String: [NameClaim]], _ key: String) {
            let id = c.identifier
            // In place: copying the list out and storing it back costs a second hash and a copy per claim.
            func place(_ list: inout [NameClaim]) {
                if list.contains(where: { $0.identifier == id }) { return }
                list.insert(c, at: list.firstIndex { NameClaim.isBetter(c, $0) } ?? list.count)
            }
            place(&table[key, default: []])
        }

        /// Adds declarations: entries (a later one of higher rank replaces), their tags,
        /// conformance chains and signatures.
        mutating func add(declarations: [(TypeDeclaration, Origin)]) throws {
            // Sized once: growing the tables step by step rehashes every key several times.
            let more = declarations.count
            entries.reserveCapacity(entries.count + more)
            order.reserveCapacity(order.count + more)
            mime.reserveCapacity(mime.count + more)
            mimeLists.reserveCapacity(mimeLists.count + more)
            ext.reserveCapacity(ext.count + more)
            extClaims.reserveCapacity(extClaims.count + more)
            var added: [String] = []
            added.reserveCapacity(more)
            for (declaration, origin) in declarations {
                let id = declaration.identifier
                if let existing = entries[id] {
                    if origin.rank < existing.origin.rank { continue }
                } else {
                    order.append(id)
                    added.append(id)
                }
                entries[id] = Entry(type: UniformType(declaration), origin: origin)
            }
            for id in added {
                guard let entry = entries[id] else { continue }
                let d = entry.type.declaration
                let rank = entry.origin.rank
                // A system type's names come from its extras, with their weights and files.
                if case .system = entry.origin {
                    for m in d.mimeTypes { claimMIME(m, id, rank) }
                    continue
                }
                for e in d.extensions {
                    let key = e.lowercased()
                    Self.claim(&ext, key, id, rank)
                    let c = nameClaim(id, 50, entry.origin)
                    Self.insert(c, into: &extClaims, key)
                    parts = max(parts, key.split(separator: ".").count)
                }
                for m in d.mimeTypes { claimMIME(m, id, rank) }
                for f in d.filenames {
                    let c = nameClaim(id, 50, entry.origin)
                    Self.insert(c, into: &nameClaims, f)
                }
                for i in d.interpreters { Self.claim(&interp, i, id, rank) }
            }
            chains.reserveCapacity(order.count)
            for id in added {
                chains[id] = try TypeCatalog.chain(of: id, entries: entries, known: chains)
            }
            var index = order.count - added.count
            for id in added {
                for s in entries[id]!.type.declaration.signatures {
                    sigs.append(IndexedSignature(identifier: id, signature: s, order: index))
                }
                index += 1
            }
        }

        /// Adds what the system database says beyond declarations, for declared types only.
        mutating func add(extras: [SystemTypeExtras]) {
            let rank = Origin.system(file: "").rank
            for extra in extras where entries[extra.identifier] != nil {
                let id = extra.identifier
                for (m, _) in extra.mimeTypes { claimMIME(m, id, rank) }
                for g in extra.globs {
                    let origin = Origin.system(file: g.file)
                    switch SystemTypeExtras.kind(of: g.pattern) {
                    case .literal:
                        let c = nameClaim(id, g.weight, origin)
                        Self.insert(c, into: &nameClaims, g.pattern)
                    case .extension(let e):
                        let c = nameClaim(id, g.weight, origin)
                        if g.caseSensitive {
                            Self.insert(c, into: &exactExtClaims, e)
                        } else {
                            Self.claim(&ext, e.lowercased(), id, rank)
                            Self.insert(c, into: &extClaims, e.lowercased())
                        }
                        parts = max(parts, e.split(separator: ".").count)
                    case .complex:
                        let c = nameClaim(id, g.weight, origin)
                        let glob = GlobClaim(
                            pattern: g.caseSensitive ? g.pattern : g.pattern.lowercased(), caseSensitive: g.caseSensitive, claim: c)
                        globs.insert(glob, at: globs.firstIndex { NameClaim.isBetter(c, $0.claim) } ?? globs.count)
                    }
                }
                let isText = chains[id]?.contains(UniformType.ID.text) ?? false
                for (rule, file) in extra.magic {
                    magic.append(IndexedMagic(identifier: id, rule: rule, file: file, isText: isText))
                    magicPriority[id] = max(magicPriority[id] ?? rule.priority, rule.priority)
                }
                for key in extra.rootXML where roots[key] == nil { roots[key] = id }
                if let icon = extra.icon { icons[id] = icon }
            }
        }
    }
}
