import Foundation

/// What the system MIME database says about one type beyond a declaration: name patterns
/// with weights, magic, XML roots and an icon, each with the package file it came from.
struct SystemTypeExtras: Sendable {
    /// The type these belong to (ours, or one made for a system type).
    let identifier: String
    var mimeTypes: [(mime: String, file: String)] = []
    var globs: [(pattern: String, weight: Int, caseSensitive: Bool, file: String)] = []
    var magic: [(rule: MagicRule, file: String)] = []
    /// `namespace localName` keys.
    var rootXML: [String] = []
    var icon: String?

    enum GlobKind: Equatable {
        case literal
        case `extension`(String)
        case complex
    }

    /// How a glob is looked up: an exact name, an extension (`*.tar.gz`), or matched as a pattern.
    static func kind(of pattern: String) -> GlobKind {
        let u = pattern.utf8
        func isWild(_ c: UInt8) -> Bool { c == UInt8(ascii: "*") || c == UInt8(ascii: "?") || c == UInt8(ascii: "[") }
        if !u.contains(where: isWild) { return .literal }
        if u.count > 2, u.starts(with: "*.".utf8), !u.dropFirst(2).contains(where: isWild) {
            return .extension(String(decoding: u.dropFirst(2), as: UTF8.self))
        }
        return .complex
    }
}

extension TypeCatalog {
    /// The prefix of identifiers made for system MIME types that no declaration covers.
    public static let systemIdentifierPrefix = "org.freedesktop.mime."

    /// The stable identifier made for a system MIME type: `org.freedesktop.mime.` + the type
    /// with `/` as `.`, lower case; `+` is spelt `-plus-` and other characters outside
    /// letters, digits, `-` and `.` as `-xHH-` (`image/svg+xml-compressed` →
    /// `org.freedesktop.mime.image.svg-plus-xml-compressed`).
    public static func systemIdentifier(forMIMEType mime: String) -> String {
        var out = Array(systemIdentifierPrefix.utf8)
        let hex = Array("0123456789ABCDEF".utf8)
        for byte in normalizeMIME(mime).utf8 {
            switch byte {
            case UInt8(ascii: "/"): out.append(UInt8(ascii: "."))
            case UInt8(ascii: "+"): out += "-plus-".utf8
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."):
                out.append(byte)
            default: out += [UInt8(ascii: "-"), UInt8(ascii: "x"), hex[Int(byte >> 4)], hex[Int(byte & 15)], UInt8(ascii: "-")]
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// A new catalog with the types of the system MIME database added, and the problems found.
    ///
    /// Each system MIME type maps to our type where we declare it (by MIME type or one of its
    /// aliases); otherwise it becomes a type of its own (`systemIdentifier(forMIMEType:)`)
    /// conforming to its `sub-class-of` parents (and, as the spec says, `text/*` to plain
    /// text, everything else to `public.data`). Our declarations win where both speak: our
    /// types keep their parents, and the system's names for them rank below ours. System
    /// magic is used for our types only where we declare no signature and the type is not
    /// text (our text rules decide those).
    public func adding(system database: SystemMIMEDatabase) -> (TypeCatalog, [VignetteError]) {
        var problems = database.problems
        // Which identifier each system MIME type (and alias) stands for.
        var identifierOf: [String: String] = [:]
        identifierOf.reserveCapacity(database.types.count * 2)
        var ours: Set<String> = []
        let keys = database.types.map { Self.normalizeMIME($0.mime) }
        for (t, key) in zip(database.types, keys) {
            let names = [t.mime] + t.aliases
            if let declared = names.lazy.compactMap({ self.declaredType(forMIMEType: $0) }).first {
                identifierOf[key] = declared.identifier
                ours.insert(declared.identifier)
            } else {
                identifierOf[key] = Self.systemIdentifier(forMIMEType: t.mime)
            }
        }
        for t in database.types {
            for a in t.aliases {
                let alias = Self.normalizeMIME(a)
                if identifierOf[alias] == nil { identifierOf[alias] = identifierOf[Self.normalizeMIME(t.mime)] }
            }
        }

        // Parents of the new types, as identifiers; unknown parents are dropped with a problem.
        var parentsOf: [String: [(id: String, file: String, line: Int)]] = [:]
        for (t, key) in zip(database.types, keys) {
            let id = identifierOf[key]!
            if ours.contains(id) { continue }
            var parents: [(String, String, Int)] = []
            for p in t.parents {
                guard let pid = identifierOf[Self.normalizeMIME(p.mime)] ?? self.declaredType(forMIMEType: p.mime)?.identifier else {
                    problems.append(
                        VignetteError(
                            .invalidDeclaration, path: "\(p.file):\(p.line)",
                            "\(t.mime) is a subclass of \(p.mime), which no package defines; that parent was skipped"))
                    continue
                }
                if pid != id, !parents.contains(where: { $0.0 == pid }) { parents.append((pid, p.file, p.line)) }
            }
            parentsOf[id] = parents
        }
        var mimeOf: [String: String] = [:]
        for (t, key) in zip(database.types, keys) { mimeOf[identifierOf[key]!] = t.mime }
        Self.breakCycles(&parentsOf, names: mimeOf, problems: &problems)

        var declarations: [(TypeDeclaration, Origin)] = []
        var extras: [SystemTypeExtras] = []
        var made: Set<String> = []
        for (t, key) in zip(database.types, keys) {
            let id = identifierOf[key]!
            let isOurs = ours.contains(id)
            var extra = SystemTypeExtras(identifier: id)
            extra.mimeTypes = ([t.mime] + t.aliases).map { ($0, t.file) }
            extra.globs = t.globs.map { ($0.glob.pattern, $0.glob.weight, $0.glob.caseSensitive, $0.file) }
            extra.rootXML = t.rootXML.map { $0.namespaceURI + " " + $0.localName }
            extra.icon = t.genericIcon
            if isOurs {
                let type = entry(id)!.type
                if type.declaration.signatures.isEmpty, !conforms(type, to: UniformType.ID.text) {
                    extra.magic = t.magic.map { ($0.rule, $0.file) }
                }
            } else {
                extra.magic = t.magic.map { ($0.rule, $0.file) }
                guard made.insert(id).inserted else { continue }
                var conformsTo = parentsOf[id]?.map(\.id) ?? []
                let lower = key
                if lower.hasPrefix("text/"), !conformsTo.contains(where: { isText($0, parentsOf) }) {
                    conformsTo.append(UniformType.ID.plainText)
                }
                if conformsTo.isEmpty { conformsTo = [lower.hasPrefix("inode/") ? UniformType.ID.item : UniformType.ID.data] }
                let simple = t.globs.compactMap { g -> String? in
                    if case .extension(let e) = SystemTypeExtras.kind(of: g.glob.pattern) { return e.lowercased() } else { return nil }
                }
                let literal = t.globs.compactMap { g -> String? in
                    SystemTypeExtras.kind(of: g.glob.pattern) == .literal ? g.glob.pattern : nil
                }
                let declaration = TypeDeclaration(
                    identifier: id, conformsTo: conformsTo, description: t.comment ?? t.mime, extensions: simple,
                    mimeTypes: [t.mime] + t.aliases, filenames: literal)
                declarations.append((declaration, .system(file: t.file)))
            }
            extras.append(extra)
        }
        do {
            return (try TypeCatalog(extending: self, declarations: declarations, system: extras), problems)
        } catch let error as VignetteError {
            // Cycles and unknown parents were removed above; anything left is a bug to report, not to crash on.
            return (self, problems + [error])
        } catch {
            return (self, problems)
        }

        func isText(_ id: String, _ parents: [String: [(id: String, file: String, line: Int)]]) -> Bool {
            var queue = [id]
            var seen: Set<String> = []
            while let next = queue.popLast() {
                guard seen.insert(next).inserted else { continue }
                if let type = entry(next)?.type, conforms(type, to: UniformType.ID.text) { return true }
                queue += parents[next]?.map(\.id) ?? []
            }
            return false
        }
    }

    /// Removes the `sub-class-of` edges that close a cycle among new types, reporting each.
    static func breakCycles(
        _ parents: inout [String: [(id: String, file: String, line: Int)]], names: [String: String], problems: inout [VignetteError]
    ) {
        // Depth-first search; an edge to a type on the current path closes a cycle.
        var state: [String: Int] = [:]  // 1 on the path, 2 done
        for root in parents.keys.sorted() where state[root] == nil {
            var stack: [(String, Int)] = [(root, 0)]
            state[root] = 1
            while let (node, next) = stack.last {
                let edges = parents[node] ?? []
                if next >= edges.count {
                    state[node] = 2
                    stack.removeLast()
                    continue
                }
                stack[stack.count - 1].1 += 1
                let edge = edges[next]
                switch state[edge.id] {
                case 1?:
                    problems.append(
                        VignetteError(
                            .invalidDeclaration, path: "\(edge.file):\(edge.line)",
                            "\(names[node] ?? node) is a subclass of \(names[edge.id] ?? edge.id), which makes a cycle; that parent was skipped"
                        ))
                    parents[node]!.remove(at: next)
                    stack[stack.count - 1].1 -= 1
                case 2?:
                    break
                default:
                    if parents[edge.id] != nil {
                        state[edge.id] = 1
                        stack.append((edge.id, 0))
                    } else {
                        state[edge.id] = 2
                    }
                }
            }
        }
    }
}
