import Foundation

/// A compiled form of the merged system MIME database, so that commands skip the XML.
///
/// Reading Debian's 2.4 MB `freedesktop.org.xml` costs about 9 ms of every command; the
/// compiled form (types, globs, magic and problems, no translations) about a tenth of that.
/// It lives in `$XDG_CACHE_HOME/vignette/mime-packages.cache` and is keyed by every package
/// file's path, size, inode and modification time and by Vignette's version: any change to a
/// package, a new one or a removed one, and the XML is read again. A cache that cannot be read
/// back exactly (damaged, truncated, another format) is ignored, never trusted in part.
extension SystemMIMEDatabase {
    /// The cache file for these XDG directories.
    static func cachePath(_ xdg: XDGDirectories) -> String { cacheDirectory(xdg) + "/mime-packages.cache" }

    /// Vignette's own folder in the XDG cache (batch does not walk into it).
    public static func cacheDirectory(_ xdg: XDGDirectories) -> String { xdg.cacheHome + "/vignette" }

    /// What identifies the package files' current contents.
    static func cacheKey(files: [String]) -> String {
        var key = "vignette \(VignetteVersion.string) mime-cache 1\n"
        for path in files {
            var st = stat()
            guard stat(path, &st) == 0 else {
                key += "\(path)\tmissing\n"
                continue
            }
            key += "\(path)\t\(st.st_size)\t\(st.st_ino)\t\(st.st_mtim.tv_sec).\(st.st_mtim.tv_nsec)\n"
        }
        return key
    }

    /// The database of the XDG directories in `environment`, from the compiled cache when it is
    /// current, else from the XML (then the cache is rewritten, if its folder can be made and
    /// `writingCache` allows: a dry run writes nothing).
    public static func load(environment: [String: String]? = nil, useCache: Bool = true, writingCache: Bool = true) -> SystemMIMEDatabase {
        let xdg = XDGDirectories(environment: environment)
        let files = packageFiles(xdg)
        guard useCache, !files.isEmpty else { return SystemMIMEDatabase(files: files) }
        let key = cacheKey(files: files)
        let path = cachePath(xdg)
        if let store = CacheBytes(mapping: path), let cached = decode(store, key: key) {
            return cached
        }
        let database = SystemMIMEDatabase(files: files)
        guard writingCache else { return database }
        // The cache is only an optimisation: a folder that cannot be made or written is no error.
        let dir = (path as NSString).deletingLastPathComponent
        if (try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)) != nil {
            try? AtomicFile.write(database.encoded(key: key), to: path, permissions: 0o644)
        }
        return database
    }

    private init(files: [String], types: [MergedType], problems: [VignetteError]) {
        self.files = files
        self.types = types
        self.problems = problems
    }

    // MARK: Encoding

    static let cacheMagic = Array("VGNMIME1".utf8)

    /// The database in the compiled form, under `key`.
    func encoded(key: String) -> [UInt8] {
        var w = CacheWriter()
        w.bytes(Self.cacheMagic)
        w.string(key)
        w.strings(files)
        w.int(problems.count)
        for p in problems {
            w.string(p.code.rawValue)
            w.string(p.path ?? "")
            w.string(p.reason)
        }
        w.int(types.count)
        for t in types {
            w.string(t.mime)
            w.string(t.file)
            w.int(t.line)
            w.string(t.comment ?? "")
            w.strings(t.aliases)
            w.int(t.parents.count)
            for p in t.parents {
                w.string(p.mime)
                w.string(p.file)
                w.int(p.line)
            }
            w.int(t.globs.count)
            for g in t.globs {
                w.string(g.glob.pattern)
                w.int(g.glob.weight)
                w.int(g.glob.caseSensitive ? 1 : 0)
                w.int(g.glob.line)
                w.string(g.file)
            }
            w.int(t.magic.count)
            for m in t.magic {
                w.int(m.rule.priority)
                w.string(m.file)
                w.int(m.line)
                w.matches(m.rule.matches)
            }
            w.int(t.rootXML.count)
            for r in t.rootXML {
                w.string(r.namespaceURI)
                w.string(r.localName)
            }
            w.string(t.genericIcon ?? "")
        }
        return w.out
    }

    /// The database in `bytes` if they are a complete compiled form under `key`, else nil.
    static func decode(_ bytes: [UInt8], key: String) -> SystemMIMEDatabase? {
        decode(CacheBytes(copying: bytes), key: key)
    }

    /// The database in `store` if it is a complete compiled form under `key`, else nil.
    static func decode(_ store: CacheBytes, key: String) -> SystemMIMEDatabase? {
        var r = CacheReader(store: store)
        do {
            guard try r.bytes(cacheMagic.count) == cacheMagic, try r.string() == key else { return nil }
            let files = try r.strings()
            var problems: [VignetteError] = []
            for _ in 0..<(try r.count()) {
                let code = try r.string()
                let path = try r.string()
                problems.append(VignetteError(.init(rawValue: code), path: path.isEmpty ? nil : path, try r.string()))
            }
            var types: [MergedType] = []
            for _ in 0..<(try r.count()) {
                var t = MergedType(mime: try r.string(), file: try r.string(), line: try r.int())
                let comment = try r.string()
                t.comment = comment.isEmpty ? nil : comment
                t.aliases = try r.strings()
                for _ in 0..<(try r.count()) { t.parents.append((try r.string(), try r.string(), try r.int())) }
                for _ in 0..<(try r.count()) {
                    let pattern = try r.string()
                    let weight = try r.int()
                    let caseSensitive = try r.int() == 1
                    let glob = MIMEPackage.Glob(pattern: pattern, weight: weight, caseSensitive: caseSensitive, line: try r.int())
                    t.globs.append((glob, try r.string()))
                }
                for _ in 0..<(try r.count()) {
                    let priority = try r.int()
                    let file = try r.string()
                    let line = try r.int()
                    t.magic.append((MagicRule(priority: priority, matches: try r.matches(depth: 0)), file, line))
                }
                for _ in 0..<(try r.count()) { t.rootXML.append(.init(namespaceURI: try r.string(), localName: try r.string())) }
                let icon = try r.string()
                t.genericIcon = icon.isEmpty ? nil : icon
                types.append(t)
            }
            guard r.atEnd else { return nil }
            return SystemMIMEDatabase(files: files, types: types, problems: problems)
        } catch {
            return nil
        }
    }
}
