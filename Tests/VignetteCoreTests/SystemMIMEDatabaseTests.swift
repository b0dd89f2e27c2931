import Foundation
import Testing

@testable import VignetteCore

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// Writes `xml` as a package in a fresh temporary `mime/packages` folder and returns its path.
private func package(_ xml: String, name: String = "test.xml") throws -> String {
    let dir = NSTemporaryDirectory() + "vignette-smi-\(UUID().uuidString)/mime/packages"
    try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    let path = dir + "/" + name
    try xml.write(toFile: path, atomically: true, encoding: .utf8)
    return path
}

private let head =
    #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n"
    + #"<mime-info xmlns="http://www.freedesktop.org/standards/shared-mime-info">"# + "\n"

/// A package in the freedesktop schema exercising every element Vignette reads.
private let acme =
    head + #"""
          <mime-type type="application/x-acme-sketch">
            <comment>ACME sketch</comment>
            <comment xml:lang="de">ACME-Skizze &amp; mehr</comment>
            <generic-icon name="image-x-generic"/>
            <alias type="application/x-acme-drawing"/>
            <sub-class-of type="application/x-acme-document"/>
            <glob pattern="*.acme"/>
            <glob pattern="*.ACS" case-sensitive="true" weight="60"/>
            <glob pattern="sketch-[0-9]*.dat" weight="40"/>
            <magic priority="70">
              <match type="string" value="ACME\x00SK" offset="0">
                <match type="big16" value="0x0102" offset="8"/>
                <match type="little32" value="7" mask="0xff" offset="10:12"/>
              </match>
            </magic>
            <treemagic><treematch path="acme" type="directory"/></treemagic>
          </mime-type>
          <mime-type type="application/x-acme-document">
            <comment>ACME document</comment>
            <glob pattern="*.acmedoc"/>
          </mime-type>
          <mime-type type="text/x-acme-notes">
            <comment>ACME notes</comment>
            <glob pattern="*.acmenotes"/>
            <magic><match type="string" value="#ACME-NOTES" offset="0"/></magic>
          </mime-type>
          <mime-type type="application/x-acme-config">
            <comment>ACME configuration</comment>
            <sub-class-of type="application/xml"/>
            <root-XML namespaceURI="http://acme.example/config" localName="config"/>
          </mime-type>
        </mime-info>
        """#

@Suite("System MIME database (shared-mime-info packages)")
struct SystemMIMEDatabaseTests {
    @Test func readsEveryElementOfTheSchema() throws {
        let path = try package(acme)
        let p = MIMEPackageReader.read(path: path)
        #expect(p.problems.isEmpty)
        #expect(
            p.types.map(\.mime) == [
                "application/x-acme-sketch", "application/x-acme-document", "text/x-acme-notes", "application/x-acme-config",
            ])
        let sketch = p.types[0]
        #expect(sketch.line == 3)
        #expect(sketch.comment == "ACME sketch")
        #expect(sketch.genericIcon == "image-x-generic")
        #expect(sketch.aliases == ["application/x-acme-drawing"])
        #expect(sketch.parents.map(\.value) == ["application/x-acme-document"])
        #expect(sketch.globs.map(\.pattern) == ["*.acme", "*.ACS", "sketch-[0-9]*.dat"])
        #expect(sketch.globs.map(\.weight) == [50, 60, 40])
        #expect(sketch.globs.map(\.caseSensitive) == [false, true, false])
        #expect(sketch.magic.count == 1)
        let rule = sketch.magic[0].value
        #expect(rule.priority == 70)
        #expect(rule.matches.count == 1)
        #expect(rule.matches[0].pattern == BytePattern(offset: 0, bytes: Array("ACME".utf8) + [0] + Array("SK".utf8)))
        #expect(rule.matches[0].children[0].pattern == BytePattern(offset: 8, bytes: [1, 2]))
        #expect(rule.matches[0].children[1].pattern == BytePattern(offset: 10, bytes: [7, 0, 0, 0], mask: [0xFF, 0, 0, 0], range: 2))
        #expect(p.types[3].rootXML == [MIMEPackage.RootXML(namespaceURI: "http://acme.example/config", localName: "config")])
    }

    @Test func readsDebiansPackageWithoutProblems() throws {
        let path = "/usr/share/mime/packages/freedesktop.org.xml"
        guard FileManager.default.fileExists(atPath: path) else {
            Issue.record("shared-mime-info is not installed (make test installs it)")
            return
        }
        let p = MIMEPackageReader.read(path: path)
        #expect(p.problems == [])
        // Counted independently with Foundation's XML parser: every mime-type element.
        let document = try XMLDocument(contentsOf: URL(fileURLWithPath: path))
        let expected = try document.nodes(forXPath: "/*[local-name()='mime-info']/*[local-name()='mime-type']/@type").compactMap(
            \.stringValue)
        #expect(p.types.map(\.mime) == expected)
        let png = try #require(p.types.first { $0.mime == "image/png" })
        #expect(png.comment == "PNG image")
        #expect(png.globs.map(\.pattern) == ["*.png"])
    }

    @Test func magicMatchesNestAsAlternativesOfSequences() throws {
        let rule = MIMEPackageReader.read(path: try package(acme)).types[0].magic[0].value
        let base: [UInt8] = Array("ACME".utf8) + [0] + Array("SK".utf8) + [0]
        #expect(rule.matches(FileSample(bytes: base + [1, 2, 0, 0, 0, 0, 0, 0], filename: nil)))  // first child
        #expect(rule.matches(FileSample(bytes: base + [9, 9, 0, 0, 7, 0, 0, 0], filename: nil)))  // second child, at 12
        #expect(!rule.matches(FileSample(bytes: base + [9, 9, 0, 0, 0, 0, 0, 0], filename: nil)))  // neither child
        #expect(!rule.matches(FileSample(bytes: Array("ACME".utf8), filename: nil)))
    }

    @Test func stringEscapesAndNumbersFollowTheSpec() throws {
        #expect(try MIMEPackageReader.unescape(#"\x1f\213\0a\\ \n"#) == [0x1F, 0x8B, 0, UInt8(ascii: "a"), UInt8(ascii: "\\"), 0x20, 0x0A])
        #expect(try MIMEPackageReader.number("0x0102", width: 2, bigEndian: true) == [1, 2])
        #expect(try MIMEPackageReader.number("0x0102", width: 2, bigEndian: false) == [2, 1])
        #expect(try MIMEPackageReader.number("017", width: 1, bigEndian: false) == [15])
        #expect(throws: MIMEPackageReader.MatchProblem.self) { try MIMEPackageReader.number("256", width: 1, bigEndian: false) }
    }

    // MARK: Hostile packages

    @Test func aHugeOffsetRangeIsReportedWithItsLineAndSkipped() throws {
        let xml =
            head + #"""
                <mime-type type="application/x-far">
                  <glob pattern="*.far"/>
                  <magic><match type="string" value="FAR" offset="0:2147483648"/></magic>
                </mime-type>
                <mime-type type="application/x-near"><magic><match type="string" value="NEAR" offset="0"/></magic></mime-type>
                </mime-info>
                """#
        let path = try package(xml)
        let p = MIMEPackageReader.read(path: path)
        #expect(
            p.problems.map(\.description) == [
                "\(path):5: magic match skipped: offset 0:2147483648 looks past the first 1048576 bytes of a file"
            ])
        #expect(p.types.map(\.mime) == ["application/x-far", "application/x-near"])
        #expect(p.types[0].magic.isEmpty)
        #expect(p.types[0].globs.map(\.pattern) == ["*.far"])
        #expect(p.types[1].magic.count == 1)
    }

    @Test func aChildSkippedLeavesNoBroaderParent() throws {
        let xml =
            head + #"""
                <mime-type type="application/x-two"><magic>
                  <match type="string" value="AB" offset="0"><match type="string" value="C" offset="99999999"/></match>
                </magic></mime-type>
                </mime-info>
                """#
        let p = MIMEPackageReader.read(path: try package(xml))
        #expect(p.problems.count == 1)
        // "AB" alone would match more than the author meant: the whole match goes.
        #expect(p.types[0].magic.isEmpty)
    }

    @Test func aHundredMegabytePackageIsNotRead() throws {
        let path = try package("")
        let handle = try #require(FileHandle(forWritingAtPath: path))
        try handle.truncate(atOffset: 100 << 20)
        try handle.close()
        let p = MIMEPackageReader.read(path: path)
        #expect(p.types.isEmpty)
        #expect(p.problems.map(\.description) == ["\(path): is 100.0 MB; MIME packages larger than 16 MB are not read"])
    }

    @Test func aGlobOfTenThousandStarsIsSkipped() throws {
        let stars = String(repeating: "*", count: 10_000)
        let xml =
            head + #"""
                <mime-type type="application/x-stars">
                  <glob pattern="\#(stars)"/>
                  <glob pattern="*"/>
                  <glob pattern="*.stars"/>
                </mime-type>
                </mime-info>
                """#
        let path = try package(xml)
        let p = MIMEPackageReader.read(path: path)
        #expect(
            p.problems.map(\.description) == [
                "\(path):4: glob pattern is 10000 characters long; at most 255 are read; skipped",
                "\(path):5: glob pattern \"*\" matches every name; skipped",
            ])
        #expect(p.types[0].globs.map(\.pattern) == ["*.stars"])
    }

    @Test func aSubclassCycleIsReportedAndBroken() throws {
        let xml =
            head + #"""
                <mime-type type="application/x-a"><sub-class-of type="application/x-b"/><glob pattern="*.xa"/></mime-type>
                <mime-type type="application/x-b"><sub-class-of type="application/x-c"/></mime-type>
                <mime-type type="application/x-c"><sub-class-of type="application/x-a"/></mime-type>
                <mime-type type="application/x-d"><sub-class-of type="application/x-nowhere"/></mime-type>
                </mime-info>
                """#
        let path = try package(xml)
        let (catalog, problems) = TypeCatalog.builtIn.adding(system: SystemMIMEDatabase(files: [path]))
        #expect(
            problems.map(\.description) == [
                "\(path):6: application/x-d is a subclass of application/x-nowhere, which no package defines; that parent was skipped",
                "\(path):5: application/x-c is a subclass of application/x-a, which makes a cycle; that parent was skipped",
            ])
        // The rest of the package is still used, and the graph is a tree again.
        let a = try #require(catalog.declaredType(forFilename: "one.xa"))
        #expect(a.identifier == "org.freedesktop.mime.application.x-a")
        #expect(catalog.conforms(a, to: "org.freedesktop.mime.application.x-c"))
        let c = try #require(catalog.declaredType(forMIMEType: "application/x-c"))
        #expect(!catalog.conforms(c, to: "org.freedesktop.mime.application.x-a"))
        #expect(catalog.conforms(c, to: UniformType.ID.data))
    }

    @Test func entitiesAreNeverExpanded() throws {
        let xml = #"""
            <?xml version="1.0"?>
            <!DOCTYPE mime-info [ <!ENTITY a "aaaaaaaaaa"> <!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;"> ]>
            <mime-info xmlns="http://www.freedesktop.org/standards/shared-mime-info">
              <mime-type type="application/x-bomb"><comment>&b;</comment></mime-type>
            </mime-info>
            """#
        let path = try package(xml)
        let p = MIMEPackageReader.read(path: path)
        #expect(p.types.isEmpty)
        #expect(
            p.problems.map(\.description) == [
                "\(path):4: not well-formed XML: unknown entity &b; (entities are not expanded); the file was skipped"
            ])
    }

    @Test func malformedXMLSkipsTheFileButNotTheOthers() throws {
        let bad = try package(head + "<mime-type type=\"application/x-bad\">", name: "bad.xml")
        let good = (bad as NSString).deletingLastPathComponent + "/good.xml"
        try (head + #"<mime-type type="application/x-good"><glob pattern="*.good"/></mime-type></mime-info>"#).write(
            toFile: good, atomically: true, encoding: .utf8)
        let database = SystemMIMEDatabase(files: [bad, good])
        #expect(
            database.problems.map(\.description) == [
                "\(bad):3: not well-formed XML: the file ends before 2 element(s) are closed; the file was skipped"
            ])
        #expect(database.types.map(\.mime) == ["application/x-good"])
    }

    // MARK: In the catalog

    func acmeCatalog() throws -> TypeCatalog {
        let (catalog, problems) = TypeCatalog.builtIn.adding(system: SystemMIMEDatabase(files: [try package(acme)]))
        #expect(problems.isEmpty)
        return catalog
    }

    @Test func importedTypesGetStableIdentifiersAndTheirParents() throws {
        let catalog = try acmeCatalog()
        let sketch = try #require(catalog.declaredType(forMIMEType: "application/x-acme-sketch"))
        #expect(sketch.identifier == "org.freedesktop.mime.application.x-acme-sketch")
        #expect(catalog.declaredType(forMIMEType: "application/x-acme-drawing") == sketch)
        #expect(catalog.origin(of: sketch) == .system(file: try #require(catalog.sourceSystemExtras.first?.globs.first?.file)))
        #expect(
            catalog.supertypes(of: sketch).map(\.identifier) == [
                "org.freedesktop.mime.application.x-acme-sketch", "org.freedesktop.mime.application.x-acme-document", "public.data",
                "public.item",
            ])
        #expect(catalog.genericIcon(of: sketch) == "image-x-generic")
        let notes = try #require(catalog.declaredType(forMIMEType: "text/x-acme-notes"))
        #expect(catalog.conforms(notes, to: UniformType.ID.plainText))
        #expect(
            TypeCatalog.systemIdentifier(forMIMEType: "image/svg+xml-compressed") == "org.freedesktop.mime.image.svg-plus-xml-compressed")
        #expect(TypeCatalog.systemIdentifier(forMIMEType: "application/x_y") == "org.freedesktop.mime.application.x-x5F-y")
    }

    @Test func namesContentAndXMLRootsResolveToImportedTypes() throws {
        let resolver = TypeResolver(catalog: try acmeCatalog())
        let magic: [UInt8] = Array("ACME".utf8) + [0] + Array("SK".utf8) + [0, 1, 2]
        // By content, whatever the name.
        let byContent = resolver.resolve(bytes: magic + [0xFF, 0x00], filename: "download.bin")
        #expect(byContent.type.identifier == "org.freedesktop.mime.application.x-acme-sketch")
        #expect(byContent.evidence == .signature(priority: 70))
        #expect(byContent.source?.hasSuffix("/mime/packages/test.xml") == true)
        // By name: the case-sensitive glob, and a pattern glob.
        #expect(
            resolver.resolve(bytes: [0x00, 0x9F, 0x00, 0x01, 0x02], filename: "A.acmedoc").type.identifier
                == "org.freedesktop.mime.application.x-acme-document")
        #expect(
            resolver.resolve(bytes: Array("plain words\n".utf8), filename: "todo.acmenotes").type.identifier
                == "org.freedesktop.mime.text.x-acme-notes")
        #expect(
            resolver.resolve(bytes: Array("#ACME-NOTES 1\nmilk\n".utf8), filename: "list.txt").type.identifier
                == "org.freedesktop.mime.text.x-acme-notes")
        let catalog = resolver.catalog
        #expect(catalog.nameMatches(forFilename: "x.ACS").map(\.type.identifier) == ["org.freedesktop.mime.application.x-acme-sketch"])
        #expect(catalog.nameMatches(forFilename: "x.acs").isEmpty)
        #expect(
            catalog.nameMatches(forFilename: "sketch-42.dat").first?.type.identifier == "org.freedesktop.mime.application.x-acme-sketch")
        // A name whose type has magic the bytes lack is refuted.
        #expect(resolver.resolve(bytes: [0x00, 0x9F, 0x00, 0x01, 0x02], filename: "x.ACS").type.identifier == UniformType.ID.data)
        let config = resolver.resolve(
            bytes: Array(#"<?xml version="1.0"?><config xmlns="http://acme.example/config"/>"#.utf8), filename: "c.xml")
        #expect(config.type.identifier == "org.freedesktop.mime.application.x-acme-config")
        #expect(config.evidence == .textContent("<config> root element in http://acme.example/config"))
    }

    @Test func aNameNeverGivesTextABinaryTypeNorBinaryATextType() throws {
        let xml =
            head + #"""
                <mime-type type="application/x-binfmt"><glob pattern="*.both"/></mime-type>
                <mime-type type="text/x-textfmt"><glob pattern="*.both"/></mime-type>
                <mime-type type="application/x-onlybin"><glob pattern="*.onlybin"/></mime-type>
                </mime-info>
                """#
        let (catalog, _) = TypeCatalog.builtIn.adding(system: SystemMIMEDatabase(files: [try package(xml)]))
        let resolver = TypeResolver(catalog: catalog)
        let text = Array("just some words\n".utf8)
        let binary: [UInt8] = [0x00, 0xFF, 0x10, 0x80, 0x00, 0x01]
        // One name, two candidate types: each kind of content takes the candidate of its kind.
        #expect(resolver.resolve(bytes: text, filename: "a.both").type.identifier == "org.freedesktop.mime.text.x-textfmt")
        #expect(resolver.resolve(bytes: binary, filename: "a.both").type.identifier == "org.freedesktop.mime.application.x-binfmt")
        // A name of the wrong kind only: the content's own generic type.
        #expect(resolver.resolve(bytes: text, filename: "a.onlybin").type.identifier == UniformType.ID.plainText)
        #expect(resolver.resolve(bytes: binary, filename: "notes.txt").type.identifier == UniformType.ID.data)
    }

    @Test func weakMagicIsIgnoredAndTextMagicOutranksANameOnlyWhenSpecific() throws {
        let xml =
            head + #"""
                <mime-type type="image/x-weak"><glob pattern="*.weak"/><magic priority="30"><match type="big16" value="0x4d4d" offset="0"/></magic></mime-type>
                <mime-type type="text/x-model"><sub-class-of type="text/plain"/><magic><match type="string" value="class" offset="0"/></magic></mime-type>
                <mime-type type="text/x-bus"><sub-class-of type="text/plain"/><magic><match type="string" value="[D-BUS Service]" offset="0"/></magic></mime-type>
                </mime-info>
                """#
        let (catalog, _) = TypeCatalog.builtIn.adding(system: SystemMIMEDatabase(files: [try package(xml)]))
        let resolver = TypeResolver(catalog: catalog)
        func id(_ bytes: [UInt8], _ name: String?) -> String { resolver.resolve(bytes: bytes, filename: name).type.identifier }
        // Two bytes at priority 30 identify nothing, but still refute a name that lacks them.
        #expect(id([0x4D, 0x4D, 0x00, 0x01, 0xFF, 0x00, 0x9C, 0x00], nil) == UniformType.ID.data)
        #expect(id([0x00, 0x01, 0xFF, 0x00, 0x9C, 0x00], "a.weak") == UniformType.ID.data)
        // A word at offset 0 does not outrank a specific name; a 15-byte header line does.
        #expect(id(Array("class Foo {};\n".utf8), "a.cpp") == "public.c-plus-plus-source")
        #expect(id(Array("class Foo\n  x = 1\nend\n".utf8), "model") == "org.freedesktop.mime.text.x-model")
        #expect(id(Array("[D-BUS Service]\nName=org.example.A\n".utf8), "a.service") == "org.freedesktop.mime.text.x-bus")
    }

    @Test func ourDeclarationsWinWhereBothSpeak() throws {
        let xml =
            head + #"""
                <mime-type type="image/png"><sub-class-of type="text/plain"/><glob pattern="*.pngx"/><glob pattern="*.jpg" weight="100"/></mime-type>
                </mime-info>
                """#
        let (catalog, _) = TypeCatalog.builtIn.adding(system: SystemMIMEDatabase(files: [try package(xml)]))
        let png = try #require(catalog.type(withIdentifier: "public.png"))
        #expect(catalog.origin(of: png) == .builtIn)
        #expect(!catalog.conforms(png, to: UniformType.ID.text))
        // A new name for our type is taken; a name we already give another type is not.
        #expect(catalog.declaredType(forFilename: "a.pngx") == png)
        #expect(catalog.declaredType(forFilename: "a.jpg")?.identifier == "public.jpeg")
    }

    @Test func theCompiledCacheIsUsedOnlyWhileEveryPackageIsUnchanged() throws {
        let path = try package(acme)
        let dataHome =
            ((((path as NSString).deletingLastPathComponent as NSString).deletingLastPathComponent as NSString).deletingLastPathComponent)
        let env = [
            "HOME": "/nonexistent", "XDG_DATA_HOME": dataHome, "XDG_DATA_DIRS": "/nonexistent", "XDG_CACHE_HOME": dataHome + "/cache",
        ]
        let cache = dataHome + "/cache/vignette/mime-packages.cache"
        let first = SystemMIMEDatabase.load(environment: env)
        #expect(FileManager.default.fileExists(atPath: cache))
        let key = SystemMIMEDatabase.cacheKey(files: [path])
        // The cache holds exactly what the XML gave.
        let stored = try #require(FileManager.default.contents(atPath: cache))
        #expect([UInt8](stored) == first.encoded(key: key))
        let fromCache = try #require(SystemMIMEDatabase.decode([UInt8](stored), key: key))
        #expect(fromCache.encoded(key: key) == first.encoded(key: key))
        #expect(SystemMIMEDatabase.load(environment: env).types.map(\.mime) == first.types.map(\.mime))

        // A changed package is read again.
        try acme.replacingOccurrences(of: "*.acmedoc", with: "*.acmedoc2").write(toFile: path, atomically: true, encoding: .utf8)
        let changed = SystemMIMEDatabase.load(environment: env)
        #expect(changed.types.first { $0.mime == "application/x-acme-document" }?.globs.map(\.glob.pattern) == ["*.acmedoc2"])

        // A damaged cache is ignored, whatever is wrong with it.
        let good = [UInt8](try #require(FileManager.default.contents(atPath: cache)))
        let newKey = SystemMIMEDatabase.cacheKey(files: [path])
        #expect(SystemMIMEDatabase.decode(good, key: newKey) != nil)
        for cut in stride(from: 0, to: good.count, by: max(1, good.count / 97)) {
            #expect(SystemMIMEDatabase.decode(Array(good.prefix(cut)), key: newKey) == nil)
        }
        var flipped = good
        flipped[good.count - 9] ^= 0xFF
        #expect(SystemMIMEDatabase.decode(flipped + [0], key: newKey) == nil)
        try Data(good.prefix(good.count / 2)).write(to: URL(fileURLWithPath: cache))
        #expect(SystemMIMEDatabase.load(environment: env).types.count == 4)
    }

    @Test func moreImportantDirectoriesComeLaterAndDeleteAll() throws {
        let low = try package(head + #"<mime-type type="application/x-m"><glob pattern="*.old"/></mime-type></mime-info>"#)
        let high = try package(
            head + #"<mime-type type="application/x-m"><glob-deleteall/><glob pattern="*.new"/></mime-type></mime-info>"#)
        let database = SystemMIMEDatabase(files: [low, high])
        #expect(database.types.count == 1)
        #expect(database.types[0].globs.map(\.glob.pattern) == ["*.new"])
        // $XDG_DATA_HOME is the most important, then $XDG_DATA_DIRS in order: read last to first.
        let home =
            ((((low as NSString).deletingLastPathComponent as NSString).deletingLastPathComponent as NSString).deletingLastPathComponent)
        let system =
            ((((high as NSString).deletingLastPathComponent as NSString).deletingLastPathComponent as NSString).deletingLastPathComponent)
        try "<mime-info/>".write(toFile: system + "/mime/packages/Override.xml", atomically: true, encoding: .utf8)
        try "<mime-info/>".write(toFile: system + "/mime/packages/zz.xml", atomically: true, encoding: .utf8)
        let xdg = XDGDirectories(environment: ["HOME": "/nonexistent", "XDG_DATA_HOME": home, "XDG_DATA_DIRS": system + ":/nonexistent"])
        #expect(
            SystemMIMEDatabase.packageFiles(xdg) == [
                system + "/mime/packages/test.xml", system + "/mime/packages/zz.xml", system + "/mime/packages/Override.xml",
                home + "/mime/packages/test.xml",
            ])
    }
}
