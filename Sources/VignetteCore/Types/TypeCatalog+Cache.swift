import Foundation

/// The built-in catalog merged with the system MIME database, kept compiled between commands.
///
/// Building it costs every command about 6 ms: `UniformTypes.json` read, the system database
/// read (from its own cache, `SystemMIMEDatabase.load`), the two joined. What the join gives —
/// every declaration with its origin, what the system says beyond declarations, the problems
/// found in the packages — is kept in `$XDG_CACHE_HOME/vignette/types.cache`, keyed by the
/// executable, `UniformTypes.json` and every package file (path, size, inode, modification
/// time), and the catalog is made from it with `init(declarations:system:)`, which builds the
/// same tables as `builtIn.adding(system:)`. A stale cache is rebuilt and replaced atomically
/// (a temporary file renamed over it, so concurrent writers each replace it whole); a cache
/// that cannot be read back exactly, or whose declarations make no catalog, is ignored and
/// rebuilt, never trusted in part.
extension TypeCatalog {
    /// The merged catalog's cache file for these XDG directories.
    static func mergedCachePath(_ xdg: XDGDirectories) -> String { SystemMIMEDatabase.cacheDirectory(xdg) + "/types.cache" }

    static let mergedCacheMagic = Array("VGNTYPES1".utf8)

    /// What identifies the merged catalog's sources: this executable (the join's rules are
    /// code), the built-in declarations, and the package files.
    static func mergedCacheKey(builtIn: String?, packages: [String]) -> String {
        var key = "types-cache 1\n"
        for path in ["/proc/self/exe", builtIn ?? "UniformTypes.json"] {
            var st = stat()
            if stat(path, &st) == 0 {
                key += "\(path)\t\(st.st_size)\t\(st.st_ino)\t\(st.st_mtim.tv_sec).\(st.st_mtim.tv_nsec)\n"
            } else {
                key += "\(path)\tmissing\n"
            }
        }
        return key + SystemMIMEDatabase.cacheKey(files: packages)
    }

    /// The built-in catalog with the system MIME database of the XDG directories in
    /// `environment` added, and the problems found in its packages: from the cache when it is
    /// current, else joined anew (then the cache is rewritten, unless `writingCache` is false).
    public static func builtInWithSystem(environment: [String: String]? = nil, writingCache: Bool = true) -> (TypeCatalog, [VignetteError])
    {
        let xdg = XDGDirectories(environment: environment)
        let key = mergedCacheKey(
            builtIn: BuiltInResources.path(named: "UniformTypes.json"), packages: SystemMIMEDatabase.packageFiles(xdg))
        let path = mergedCachePath(xdg)
        if let bytes = CacheReader.contents(ofFile: path), let cached = decodeMerged(bytes, key: key) {
            return cached
        }
        let database = SystemMIMEDatabase.load(environment: environment, writingCache: writingCache)
        let (catalog, problems) = builtIn.adding(system: database)
        guard writingCache else { return (catalog, problems) }
        // The cache is only an optimisation: a folder that cannot be made or written is no error.
        let dir = SystemMIMEDatabase.cacheDirectory(xdg)
        if (try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)) != nil {
            try? AtomicFile.write(catalog.encodedMerged(problems: problems, key: key), to: path, permissions: 0o644)
        }
        return (catalog, problems)
    }

    // MARK: Encoding

    /// This catalog's declarations and system extras, with `problems`, in the compiled form under `key`.
    func encodedMerged(problems: [VignetteError], key: String) -> [UInt8] {
        var w = CacheWriter()
        w.bytes(Self.mergedCacheMagic)
        w.string(key)
        w.int(problems.count)
        for p in problems {
            w.string(p.code.rawValue)
            w.int(p.path == nil ? 0 : 1)
            w.string(p.path ?? "")
            w.string(p.reason)
        }
        w.int(sourceDeclarations.count)
        for (d, origin) in sourceDeclarations {
            w.string(d.identifier)
            w.strings(d.conformsTo)
            w.string(d.description)
            w.strings(d.extensions)
            w.strings(d.mimeTypes)
            w.strings(d.filenames)
            w.strings(d.interpreters)
            w.int(d.signatures.count)
            for s in d.signatures {
                w.int(s.priority)
                w.int(s.patterns.count)
                for p in s.patterns { w.pattern(p) }
            }
            w.int(d.reference == nil ? 0 : 1)
            w.string(d.reference ?? "")
            switch origin {
            case .builtIn: w.int(0)
            case .exported(let file): w.int(1); w.string(file)
            case .imported(let file): w.int(2); w.string(file)
            case .system(let file): w.int(3); w.string(file)
            }
        }
        w.int(sourceSystemExtras.count)
        for e in sourceSystemExtras {
            w.string(e.identifier)
            w.int(e.mimeTypes.count)
            for m in e.mimeTypes {
                w.string(m.mime)
                w.string(m.file)
            }
            w.int(e.globs.count)
            for g in e.globs {
                w.string(g.pattern)
                w.int(g.weight)
                w.int(g.caseSensitive ? 1 : 0)
                w.string(g.file)
            }
            w.int(e.magic.count)
            for m in e.magic {
                w.int(m.rule.priority)
                w.string(m.file)
                w.matches(m.rule.matches)
            }
            w.strings(e.rootXML)
            w.int(e.icon == nil ? 0 : 1)
            w.string(e.icon ?? "")
        }
        return w.out
    }

    /// The catalog and problems in `bytes` if they are a complete compiled form under `key`
    /// whose declarations make a catalog, else nil.
    static func decodeMerged(_ bytes: [UInt8], key: String) -> (TypeCatalog, [VignetteError])? {
        var r = CacheReader(bytes: bytes)
        do {
            guard try r.bytes(mergedCacheMagic.count) == mergedCacheMagic, try r.string() == key else { return nil }
            var problems: [VignetteError] = []
            for _ in 0..<(try r.count()) {
                let code = try r.string()
                let hasPath = try r.flag()
                let path = try r.string()
                problems.append(VignetteError(.init(rawValue: code), path: hasPath ? path : nil, try r.string()))
            }
            var declarations: [(TypeDeclaration, Origin)] = []
            for _ in 0..<(try r.count()) {
                var d = TypeDeclaration(
                    identifier: try r.string(), conformsTo: try r.strings(), description: try r.string(), extensions: try r.strings(),
                    mimeTypes: try r.strings(), filenames: try r.strings(), interpreters: try r.strings())
                for _ in 0..<(try r.count()) {
                    let priority = try r.int()
                    var patterns: [BytePattern] = []
                    for _ in 0..<(try r.count()) { patterns.append(try r.pattern()) }
                    guard !patterns.isEmpty else { return nil }
                    d.signatures.append(ByteSignature(priority: priority, patterns: patterns))
                }
                let hasReference = try r.flag()
                let reference = try r.string()
                d.reference = hasReference ? reference : nil
                let origin: Origin
                switch try r.int() {
                case 0: origin = .builtIn
                case 1: origin = .exported(file: try r.string())
                case 2: origin = .imported(file: try r.string())
                case 3: origin = .system(file: try r.string())
                default: return nil
                }
                declarations.append((d, origin))
            }
            var extras: [SystemTypeExtras] = []
            for _ in 0..<(try r.count()) {
                var e = SystemTypeExtras(identifier: try r.string())
                for _ in 0..<(try r.count()) { e.mimeTypes.append((try r.string(), try r.string())) }
                for _ in 0..<(try r.count()) {
                    e.globs.append((try r.string(), try r.int(), try r.flag(), try r.string()))
                }
                for _ in 0..<(try r.count()) {
                    let priority = try r.int()
                    let file = try r.string()
                    e.magic.append((MagicRule(priority: priority, matches: try r.matches(depth: 0)), file))
                }
                e.rootXML = try r.strings()
                let hasIcon = try r.flag()
                let icon = try r.string()
                e.icon = hasIcon ? icon : nil
                extras.append(e)
            }
            guard r.atEnd else { return nil }
            return (try TypeCatalog(declarations: declarations, system: extras), problems)
        } catch {
            return nil
        }
    }
}
