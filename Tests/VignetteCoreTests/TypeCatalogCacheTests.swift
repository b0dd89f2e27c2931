import Foundation
import Testing

@testable import VignetteCore

/// A fresh XDG layout with one package at `data/mime/packages/test.xml`; returns the environment and the package's path.
private func layout(_ xml: String) throws -> (env: [String: String], package: String, cache: String) {
    let root = NSTemporaryDirectory() + "vignette-types-cache-\(UUID().uuidString)"
    let dir = root + "/data/mime/packages"
    try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    try xml.write(toFile: dir + "/test.xml", atomically: true, encoding: .utf8)
    let env = ["HOME": "/nonexistent", "XDG_DATA_HOME": root + "/data", "XDG_DATA_DIRS": "/nonexistent", "XDG_CACHE_HOME": root + "/cache"]
    return (env, dir + "/test.xml", root + "/cache/vignette/types.cache")
}

private let package =
    #"""
    <?xml version="1.0" encoding="UTF-8"?>
    <mime-info xmlns="http://www.freedesktop.org/standards/shared-mime-info">
      <mime-type type="application/x-acme-sketch">
        <comment>ACME sketch</comment>
        <generic-icon name="image-x-generic"/>
        <alias type="application/x-acme-drawing"/>
        <sub-class-of type="application/x-acme-document"/>
        <glob pattern="*.acme"/>
        <glob pattern="*.ACS" case-sensitive="true" weight="60"/>
        <glob pattern="sketch-[0-9]*.dat" weight="40"/>
        <magic priority="70"><match type="string" value="ACME\x00SK" offset="0"><match type="big16" value="0x0102" offset="8"/></match></magic>
      </mime-type>
      <mime-type type="application/x-acme-document"><comment>ACME document</comment><glob pattern="*.acmedoc"/></mime-type>
      <mime-type type="application/x-acme-orphan"><sub-class-of type="application/x-nowhere"/></mime-type>
      <mime-type type="image/png"><glob pattern="*.pngx"/></mime-type>
      <mime-type type="application/x-acme-config">
        <sub-class-of type="application/xml"/>
        <root-XML namespaceURI="http://acme.example/config" localName="config"/>
      </mime-type>
    </mime-info>
    """#

/// Everything a catalog answers, for every type it knows, as text to compare.
private func fingerprint(_ catalog: TypeCatalog) -> [String] {
    var lines = catalog.identifiers.map { id -> String in
        let type = catalog.type(withIdentifier: id)!
        return [
            id, catalog.origin(of: type)?.description ?? "-", catalog.supertypes(of: type).map(\.identifier).joined(separator: ","),
            catalog.mimeTypes(of: type).joined(separator: ","), catalog.genericIcon(of: type) ?? "-",
            catalog.magicPriority(of: type).map(String.init) ?? "-", catalog.preferredMIMEType(of: type),
        ].joined(separator: " | ")
    }
    for name in ["a.acme", "A.ACS", "a.acs", "sketch-1.dat", "a.acmedoc", "a.pngx", "a.png", "Makefile", "a.tar.gz", "notes.txt"] {
        lines.append(
            name + " → " + catalog.nameMatches(forFilename: name).map { "\($0.type.identifier) (\($0.origin))" }.joined(separator: ", "))
    }
    lines.append("reach \(catalog.signatureReach)")
    return lines
}

/// Asks a catalog everything (every type's ancestors, names and MIME types; names; a resolution).
private func exercise(_ catalog: TypeCatalog) {
    for id in catalog.identifiers {
        guard let type = catalog.type(withIdentifier: id) else { continue }
        _ = (catalog.supertypes(of: type), catalog.mimeTypes(of: type), catalog.genericIcon(of: type), catalog.magicPriority(of: type))
    }
    for name in ["a.acme", "A.ACS", "sketch-1.dat", "a.png", "Makefile", "a.tar.gz"] { _ = catalog.nameMatches(forFilename: name) }
    _ = TypeResolver(catalog: catalog).resolve(bytes: Array("ACME".utf8) + [0, 1, 2], filename: "a.bin")
}

/// The identity of the file at `path` (inode and modification time): whether it was replaced.
private func identity(_ path: String) -> String {
    var st = stat()
    guard stat(path, &st) == 0 else { return "missing" }
    return "\(st.st_ino) \(st.st_mtim.tv_sec).\(st.st_mtim.tv_nsec)"
}

@Suite("Merged type catalog cache ($XDG_CACHE_HOME/vignette/types.cache)")
struct TypeCatalogCacheTests {
    @Test func theCachedCatalogAnswersAsTheJoinedOne() throws {
        let (env, path, cache) = try layout(package)
        let (joined, joinedProblems) = TypeCatalog.builtIn.adding(system: SystemMIMEDatabase(files: [path]))
        #expect(
            joinedProblems.map(\.reason) == [
                "application/x-acme-orphan is a subclass of application/x-nowhere, which no package defines; that parent was skipped"
            ])

        let (first, firstProblems) = TypeCatalog.builtInWithSystem(environment: env)
        #expect(FileManager.default.fileExists(atPath: cache))
        let written = identity(cache)
        let (second, secondProblems) = TypeCatalog.builtInWithSystem(environment: env)
        // Read, not rewritten.
        #expect(identity(cache) == written)
        for (catalog, problems) in [(first, firstProblems), (second, secondProblems)] {
            #expect(fingerprint(catalog) == fingerprint(joined))
            #expect(problems == joinedProblems)
            #expect(catalog.encodedMerged(problems: problems, key: "k") == joined.encodedMerged(problems: joinedProblems, key: "k"))
        }
        let resolver = TypeResolver(catalog: second)
        let sketch: [UInt8] = Array("ACME".utf8) + [0] + Array("SK".utf8) + [0, 1, 2, 0xFF, 0x00]
        let byContent = resolver.resolve(bytes: sketch, filename: "download.bin")
        #expect(byContent.type.identifier == "org.freedesktop.mime.application.x-acme-sketch")
        #expect(byContent.source == path)
        let config = resolver.resolve(
            bytes: Array(#"<?xml version="1.0"?><config xmlns="http://acme.example/config"/>"#.utf8), filename: "c.xml")
        #expect(config.type.identifier == "org.freedesktop.mime.application.x-acme-config")
    }

    @Test func aChangedPackageRebuildsTheCache() throws {
        let (env, path, cache) = try layout(package)
        _ = TypeCatalog.builtInWithSystem(environment: env)
        let before = identity(cache)
        try package.replacingOccurrences(of: "*.acmedoc", with: "*.acmedoc2").write(toFile: path, atomically: true, encoding: .utf8)
        let (catalog, _) = TypeCatalog.builtInWithSystem(environment: env)
        #expect(catalog.declaredType(forFilename: "a.acmedoc2")?.identifier == "org.freedesktop.mime.application.x-acme-document")
        #expect(catalog.declaredType(forFilename: "a.acmedoc") == nil)
        #expect(identity(cache) != before)
        // The new cache is current for the new package.
        let key = TypeCatalog.mergedCacheKey(builtIn: BuiltInResources.path(named: "UniformTypes.json"), packages: [path])
        let stored = try #require(CacheReader.contents(ofFile: cache))
        #expect(TypeCatalog.decodeMerged(stored, key: key) != nil)
        #expect(TypeCatalog.decodeMerged(stored, key: key + "x") == nil)
    }

    @Test func aDamagedCacheIsIgnoredAndRebuilt() throws {
        let (env, path, cache) = try layout(package)
        let (good, problems) = TypeCatalog.builtInWithSystem(environment: env)
        let key = TypeCatalog.mergedCacheKey(builtIn: BuiltInResources.path(named: "UniformTypes.json"), packages: [path])
        let bytes = try #require(CacheReader.contents(ofFile: cache))
        #expect(TypeCatalog.decodeMerged(bytes, key: key) != nil)
        for cut in stride(from: 0, to: bytes.count, by: max(1, bytes.count / 97)) {
            #expect(TypeCatalog.decodeMerged(Array(bytes.prefix(cut)), key: key) == nil)
        }
        #expect(TypeCatalog.decodeMerged(bytes + [0], key: key) == nil)
        // Every length, count and flag turned into garbage in turn: refused or read, never a crash.
        // Read ones are asked everything: the damage is answered as absence, never a crash.
        for at in stride(from: 0, to: bytes.count - 8, by: max(1, bytes.count / 61)) {
            var damaged = bytes
            for k in 0..<8 { damaged[at + k] = 0xFF }
            if let (catalog, _) = TypeCatalog.decodeMerged(damaged, key: key) { exercise(catalog) }
        }
        try Data(bytes.prefix(bytes.count / 2)).write(to: URL(fileURLWithPath: cache))
        let (rebuilt, rebuiltProblems) = TypeCatalog.builtInWithSystem(environment: env)
        #expect(fingerprint(rebuilt) == fingerprint(good))
        #expect(rebuiltProblems == problems)
        #expect(TypeCatalog.decodeMerged(try #require(CacheReader.contents(ofFile: cache)), key: key) != nil)
    }

    @Test func aFIFOOrAFolderWhereTheCacheBelongsIsNoCache() throws {
        let (env, path, cache) = try layout(package)
        let expected = fingerprint(TypeCatalog.builtIn.adding(system: SystemMIMEDatabase(files: [path])).0)
        try FileManager.default.createDirectory(atPath: (cache as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        #expect(mkfifo(cache, 0o644) == 0)
        #expect(mkfifo((cache as NSString).deletingLastPathComponent + "/mime-packages.cache", 0o644) == 0)
        // Neither is opened for reading (that would wait for a writer forever): both are replaced by real caches.
        #expect(fingerprint(TypeCatalog.builtInWithSystem(environment: env).0) == expected)
        #expect(CacheReader.contents(ofFile: cache) != nil)
        #expect(CacheReader.contents(ofFile: (cache as NSString).deletingLastPathComponent + "/mime-packages.cache") != nil)
        try FileManager.default.removeItem(atPath: cache)
        try FileManager.default.createDirectory(atPath: cache, withIntermediateDirectories: true)
        #expect(CacheReader.contents(ofFile: cache) == nil)
        #expect(fingerprint(TypeCatalog.builtInWithSystem(environment: env).0) == expected)
    }

    @Test func wellFormedNonsenseInTheCacheIsAnsweredAsAbsence() throws {
        var tables = TypeCatalog.Tables()
        try tables.add(declarations: [
            (TypeDeclaration(identifier: "public.item", conformsTo: [], extensions: ["item"]), .builtIn)
        ])
        // Names and ancestors of a type the cache does not hold.
        tables.ext["ghost"] = ("com.example.ghost", 2)
        tables.extClaims["ghost"] = [
            TypeCatalog.NameClaim(identifier: "com.example.ghost", rank: 2, weight: 50, order: 9, origin: .builtIn)
        ]
        tables.chains["public.item"] = ["public.item", "com.example.ghost"]
        var w = CacheWriter()
        w.bytes(TypeCatalog.mergedCacheMagic)
        w.string("k")
        w.int(0)  // problems
        FrozenTables.write(tables, signatureReach: 0, declarations: [], system: [], into: &w)
        let (catalog, _) = try #require(TypeCatalog.decodeMerged(w.out, key: "k"))
        let item = try #require(catalog.type(withIdentifier: "public.item"))
        #expect(catalog.declaredType(forFilenameExtension: "item") == item)
        #expect(catalog.declaredType(forFilenameExtension: "ghost") == nil)
        #expect(catalog.nameMatches(forFilename: "a.ghost").isEmpty)
        #expect(catalog.supertypes(of: item) == [item])

        // The index of the first table (the types) pointing outside the tables: no type, no crash.
        var damaged = w.out
        var r = CacheReader(bytes: damaged, index: TypeCatalog.mergedCacheMagic.count)
        _ = try r.string()
        _ = try r.int()  // problems
        _ = try r.int()  // parts
        _ = try r.int()  // reach
        let index = r.index + 8 + (try r.count()) + 4
        for k in index..<(index + 12) { damaged[k] = 0xFF }
        let (broken, _) = try #require(TypeCatalog.decodeMerged(damaged, key: "k"))
        #expect(broken.type(withIdentifier: "public.item") == nil)
        #expect(broken.declaredType(forFilenameExtension: "item") == nil)
    }

    @Test func concurrentWritersLeaveOneWholeCache() async throws {
        let (env, path, cache) = try layout(package)
        let expected = fingerprint(TypeCatalog.builtIn.adding(system: SystemMIMEDatabase(files: [path])).0)
        let results = await withTaskGroup(of: [String].self) { group in
            for _ in 0..<8 { group.addTask { fingerprint(TypeCatalog.builtInWithSystem(environment: env).0) } }
            return await group.reduce(into: [[String]]()) { $0.append($1) }
        }
        #expect(results.count == 8)
        #expect(results.allSatisfy { $0 == expected })
        let key = TypeCatalog.mergedCacheKey(builtIn: BuiltInResources.path(named: "UniformTypes.json"), packages: [path])
        #expect(TypeCatalog.decodeMerged(try #require(CacheReader.contents(ofFile: cache)), key: key) != nil)
        let dir = (cache as NSString).deletingLastPathComponent
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).filter { $0.contains(".tmp-") } == [])
    }

    @Test func aDryRunWritesNoCache() throws {
        let (env, _, cache) = try layout(package)
        _ = TypeCatalog.builtInWithSystem(environment: env, writingCache: false)
        #expect(!FileManager.default.fileExists(atPath: cache))
    }
}
