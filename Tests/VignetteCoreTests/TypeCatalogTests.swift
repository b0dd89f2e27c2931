import Foundation
import Testing

@testable import VignetteCore

/// A small catalog built from test declarations, independent of the shipped data.
func miniCatalog() throws -> TypeCatalog {
    let d: [TypeDeclaration] = [
        TypeDeclaration(identifier: "public.item"),
        TypeDeclaration(identifier: "public.data", conformsTo: ["public.item"], mimeTypes: ["application/octet-stream"]),
        TypeDeclaration(identifier: "public.content", conformsTo: ["public.item"]),
        TypeDeclaration(identifier: "public.text", conformsTo: ["public.data", "public.content"]),
        TypeDeclaration(identifier: "public.plain-text", conformsTo: ["public.text"], extensions: ["txt"], mimeTypes: ["text/plain"]),
        TypeDeclaration(identifier: "public.archive", conformsTo: ["public.data"]),
        TypeDeclaration(
            identifier: "org.gnu.gnu-zip-archive", conformsTo: ["public.archive"], extensions: ["gz"],
            mimeTypes: ["application/gzip", "application/x-gzip"]),
        TypeDeclaration(
            identifier: "public.tar-archive", conformsTo: ["public.archive"], extensions: ["tar"], mimeTypes: ["application/x-tar"]),
        TypeDeclaration(
            identifier: "org.gnu.gnu-tar-gz", conformsTo: ["org.gnu.gnu-zip-archive", "public.tar-archive"], extensions: ["tar.gz", "tgz"],
            mimeTypes: ["application/x-compressed-tar"]),
        TypeDeclaration(identifier: "public.image", conformsTo: ["public.data", "public.content"]),
        TypeDeclaration(
            identifier: "public.png", conformsTo: ["public.image"], description: "PNG image", extensions: ["png"], mimeTypes: ["image/png"]),
    ]
    return try TypeCatalog(declarations: d.map { ($0, .builtIn) })
}

@Suite("Type catalog")
struct TypeCatalogTests {
    @Test func conformanceIsReflexiveAndTransitive() throws {
        let c = try miniCatalog()
        let tgz = try #require(c.type(withIdentifier: "org.gnu.gnu-tar-gz"))
        #expect(c.conforms(tgz, to: "org.gnu.gnu-tar-gz"))
        #expect(c.conforms(tgz, to: "public.tar-archive"))
        #expect(c.conforms(tgz, to: "public.archive"))
        #expect(c.conforms(tgz, to: "public.item"))
        #expect(!c.conforms(tgz, to: "public.image"))
    }

    @Test func supertypesAreNearestFirstWithoutRepeats() throws {
        let c = try miniCatalog()
        let tgz = try #require(c.type(withIdentifier: "org.gnu.gnu-tar-gz"))
        #expect(
            c.supertypes(of: tgz).map(\.identifier) == [
                "org.gnu.gnu-tar-gz", "org.gnu.gnu-zip-archive", "public.tar-archive", "public.archive", "public.data", "public.item",
            ])
    }

    @Test func extensionLookupIsCaseInsensitiveAndPrefersLongestMultiPartExtension() throws {
        let c = try miniCatalog()
        #expect(c.declaredType(forFilenameExtension: "PNG")?.identifier == "public.png")
        #expect(c.declaredType(forFilename: "Backup.TAR.GZ")?.identifier == "org.gnu.gnu-tar-gz")
        #expect(c.declaredType(forFilename: "notes.gz")?.identifier == "org.gnu.gnu-zip-archive")
        #expect(c.declaredType(forFilename: "archive.tgz")?.identifier == "org.gnu.gnu-tar-gz")
        #expect(c.declaredType(forFilename: "README") == nil)
        #expect(c.declaredType(forFilename: ".png") == nil)
    }

    @Test func mimeLookupKnowsAliasesAndIgnoresParametersAndCase() throws {
        let c = try miniCatalog()
        #expect(c.declaredType(forMIMEType: "application/x-gzip")?.identifier == "org.gnu.gnu-zip-archive")
        #expect(c.declaredType(forMIMEType: "Text/Plain; charset=utf-8")?.identifier == "public.plain-text")
    }

    @Test func preferredMIMEIsInheritedFromTheNearestAncestor() throws {
        let c = try miniCatalog()
        let archive = try #require(c.type(withIdentifier: "public.archive"))
        #expect(c.preferredMIMEType(of: archive) == "application/octet-stream")
        #expect(c.preferredMIMEType(of: c.type(forMIMEType: "application/x-gzip")) == "application/gzip")
    }

    @Test func unknownTagsGiveStableDynamicTypesConformingToData() throws {
        let c = try miniCatalog()
        let a = c.type(forFilenameExtension: "Xyz9")
        let b = c.type(forFilenameExtension: "xyz9")
        #expect(a.identifier == "dyn.ext.xyz9")
        #expect(a == b)
        #expect(a.isDynamic)
        #expect(c.conforms(a, to: "public.data"))
        let m = c.type(forMIMEType: "application/x-made-up")
        #expect(m.identifier == "dyn.mime.application_2Fx-made-up")
        #expect(c.preferredMIMEType(of: m) == "application/x-made-up")
        #expect(c.type(withIdentifier: m.identifier) == m)
        #expect(c.conforms(c.type(forMIMEType: "text/x-made-up"), to: "public.plain-text"))
    }

    @Test func unknownParentIsReportedByName() {
        let d = [TypeDeclaration(identifier: "com.example.a", conformsTo: ["com.example.missing"])]
        #expect(throws: VignetteError(.invalidDeclaration, "type com.example.a conforms to com.example.missing, which is not declared")) {
            try TypeCatalog(declarations: d.map { ($0, .builtIn) })
        }
    }

    @Test func conformanceCycleIsRefused() {
        let d = [
            TypeDeclaration(identifier: "com.example.a", conformsTo: ["com.example.b"]),
            TypeDeclaration(identifier: "com.example.b", conformsTo: ["com.example.a"]),
        ]
        #expect(throws: VignetteError(.invalidDeclaration, "type com.example.a conforms to itself through com.example.b (a cycle)")) {
            try TypeCatalog(declarations: d.map { ($0, .builtIn) })
        }
    }
}

@Suite("Custom declarations")
struct CustomDeclarationTests {
    func write(_ json: String) throws -> String {
        let path = NSTemporaryDirectory() + "vignette-types-\(UUID().uuidString).json"
        try json.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func exportedDeclarationWinsOverBuiltInAndClaimsItsTags() throws {
        let path = try write(
            """
            {"format": 1, "exportedTypes": [
              {"identifier": "com.example.palette", "conformsTo": ["public.data"], "description": "Palette",
               "extensions": ["png", "pal"], "mimeTypes": ["application/x-example-palette"]}]}
            """)
        let c = try miniCatalog().adding(declarationFiles: [path])
        #expect(c.declaredType(forFilenameExtension: "pal")?.identifier == "com.example.palette")
        #expect(c.declaredType(forFilenameExtension: "png")?.identifier == "com.example.palette")
        #expect(c.origin(of: try #require(c.type(withIdentifier: "com.example.palette"))) == .exported(file: path))
    }

    @Test func importedDeclarationNeverOverridesAndOnlyFillsGaps() throws {
        let path = try write(
            """
            {"format": 1, "importedTypes": [
              {"identifier": "com.example.other", "conformsTo": ["public.data"], "extensions": ["png", "oth"]}]}
            """)
        let c = try miniCatalog().adding(declarationFiles: [path])
        #expect(c.declaredType(forFilenameExtension: "png")?.identifier == "public.png")
        #expect(c.declaredType(forFilenameExtension: "oth")?.identifier == "com.example.other")
    }

    @Test func exportedBeatsImportedForTheSameIdentifier() throws {
        let imported = try write(
            """
            {"importedTypes": [{"identifier": "com.example.x", "conformsTo": ["public.data"], "description": "imported"}]}
            """)
        let exported = try write(
            """
            {"exportedTypes": [{"identifier": "com.example.x", "conformsTo": ["public.data"], "description": "exported"}]}
            """)
        for order in [[imported, exported], [exported, imported]] {
            let c = try miniCatalog().adding(declarationFiles: order)
            #expect(c.type(withIdentifier: "com.example.x")?.declaration.description == "exported")
        }
    }

    @Test func reservedPrefixIsRefusedWithAClearMessage() throws {
        let path = try write(
            """
            {"exportedTypes": [{"identifier": "public.palette", "conformsTo": ["public.data"]}]}
            """)
        #expect(
            throws: VignetteError(
                .reservedIdentifier, path: path,
                "type public.palette uses the reserved prefix \"public.\"; use your own reverse-DNS name such as com.example.palette")
        ) {
            try miniCatalog().adding(declarationFiles: [path])
        }
        let dyn = try write(
            """
            {"exportedTypes": [{"identifier": "dyn.ext.pal", "conformsTo": ["public.data"]}]}
            """)
        #expect(throws: VignetteError.self) { try miniCatalog().adding(declarationFiles: [dyn]) }
    }

    @Test func malformedFilesNameTheFileAndTheKey() throws {
        let notJSON = try write("{ nope")
        #expect(throws: VignetteError.self) { try miniCatalog().adding(declarationFiles: [notJSON]) }
        do {
            _ = try miniCatalog().adding(declarationFiles: [notJSON])
        } catch let error as VignetteError {
            #expect(error.code == .invalidDeclaration)
            #expect(error.path == notJSON)
            #expect(error.reason.hasPrefix("not valid JSON"))
        }
        let missingKey = try write(
            """
            {"exportedTypes": [{"conformsTo": ["public.data"]}]}
            """)
        #expect(throws: VignetteError(.invalidDeclaration, path: missingKey, "missing key \"identifier\" at exportedTypes[0]")) {
            try miniCatalog().adding(declarationFiles: [missingKey])
        }
        let badHex = try write(
            """
            {"exportedTypes": [{"identifier": "com.example.h", "conformsTo": ["public.data"],
              "signatures": [{"patterns": [{"offset": 0, "hex": "ABC"}]}]}]}
            """)
        #expect(
            throws: VignetteError(
                .invalidDeclaration, path: badHex,
                "not an even number of hex digits: ABC at exportedTypes[0].signatures[0].patterns[0].hex")
        ) {
            try miniCatalog().adding(declarationFiles: [badHex])
        }
        let notHex = try write(
            """
            {"exportedTypes": [{"identifier": "com.example.h", "conformsTo": ["public.data"],
              "signatures": [{"patterns": [{"offset": 0, "hex": "7A zz"}]}]}]}
            """)
        #expect(
            throws: VignetteError(
                .invalidDeclaration, path: notHex, "\"z\" is not a hex digit: 7A zz at exportedTypes[0].signatures[0].patterns[0].hex")
        ) {
            try miniCatalog().adding(declarationFiles: [notHex])
        }
        let orphan = try write(
            """
            {"exportedTypes": [{"identifier": "com.example.o"}]}
            """)
        #expect(
            throws: VignetteError(
                .invalidDeclaration, path: orphan,
                "type com.example.o conforms to nothing; add \"conformsTo\": [\"public.data\"] or a more specific parent")
        ) {
            try miniCatalog().adding(declarationFiles: [orphan])
        }
    }

    @Test func customSignatureIdentifiesAMisnamedFile() throws {
        let path = try write(
            """
            {"exportedTypes": [{"identifier": "com.example.palette", "conformsTo": ["public.data"],
              "extensions": ["pal"], "mimeTypes": ["application/x-example-palette"],
              "signatures": [{"priority": 70, "patterns": [{"offset": 0, "ascii": "PALETTE1"}]}]}]}
            """)
        let resolver = TypeResolver(catalog: try TypeCatalog.builtIn.adding(declarationFiles: [path]))
        let misnamed = resolver.resolve(bytes: Array("PALETTE1\n#ff0000\n".utf8) + [0, 1, 2], filename: "colours.txt")
        #expect(misnamed.type.identifier == "com.example.palette")
        let named = resolver.resolve(bytes: Array("PALETTE1\n#00ff00\n".utf8), filename: "x.pal")
        #expect(named.type.identifier == "com.example.palette")
        // The type has a signature, so a name alone does not make random bytes a palette.
        let impostor = resolver.resolve(bytes: [0, 1, 2, 3, 0xFF], filename: "x.pal")
        #expect(impostor.type.identifier == "public.data")
    }
}
