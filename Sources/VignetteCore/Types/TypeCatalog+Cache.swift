import Foundation

/// The built-in catalog merged with the system MIME database, kept compiled between commands.
///
/// Building it costs every command about 6 ms: `UniformTypes.json` read, the system database
/// read (from its own cache, `SystemMIMEDatabase.load`), the two joined. What the join gives —
/// every declaration with its origin, what the system says beyond declarations, the problems
/// found in the packages — is kept in `$XDG_CACHE_HOME/vignette/types.cache`, keyed by the
/// executable, `UniformTypes.json` and every package file (path, size, inode, modification
/// time), together with the tables built from it (`FrozenTables`), which the next command reads
/// in place instead of building them again. A stale cache is rebuilt and replaced atomically
/// (a temporary file renamed over it, so concurrent writers each replace it whole); a cache
/// whose checksum is wrong or whose tables are not whole is ignored and rebuilt, never trusted
/// in part.
extension TypeCatalog {
    /// The merged catalog's cache file for these XDG directories.
    static func mergedCachePath(_ xdg: XDGDirectories) -> String { SystemMIMEDatabase.cacheDirectory(xdg) + "/types.cache" }

    static let mergedCacheMagic = Array("VGNTYPES2".utf8)

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
        if let store = CacheBytes(mapping: path), let cached = decodeMerged(store, key: key) {
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

    /// This catalog's tables (read in place by the next command), with the declarations and
    /// system extras they came from and `problems`, in the compiled form under `key`.
    package func encodedMerged(problems: [VignetteError], key: String) -> [UInt8] {
        guard frozen == nil else {
            // Only tests ask this of a catalog read from the cache: the same tables, built again.
            let built = (try? TypeCatalog(declarations: sourceDeclarations, system: sourceSystemExtras)) ?? TypeCatalog.builtIn
            return built.encodedMerged(problems: problems, key: key)
        }
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
        FrozenTables.write(
            tables, signatureReach: signatureReach, declarations: sourceDeclarations, system: sourceSystemExtras, into: &w)
        return w.out
    }

    /// The catalog and problems in `bytes` if they are a whole compiled form under `key`, else nil.
    package static func decodeMerged(_ bytes: [UInt8], key: String) -> (TypeCatalog, [VignetteError])? {
        decodeMerged(CacheBytes(copying: bytes), key: key)
    }

    /// The catalog and problems in `store` if they are a whole compiled form under `key` (its
    /// tables' offsets within it and keys in order), else nil.
    static func decodeMerged(_ store: CacheBytes, key: String) -> (TypeCatalog, [VignetteError])? {
        var r = CacheReader(store: store)
        do {
            guard try r.bytes(mergedCacheMagic.count) == mergedCacheMagic, try r.string() == key else { return nil }
            var problems: [VignetteError] = []
            for _ in 0..<(try r.count()) {
                let code = try r.string()
                let hasPath = try r.flag()
                let path = try r.string()
                problems.append(VignetteError(.init(rawValue: code), path: hasPath ? path : nil, try r.string()))
            }
            guard let frozen = FrozenTables(store: store, at: r.index) else { return nil }
            return (TypeCatalog(frozen: frozen), problems)
        } catch {
            return nil
        }
    }
}
