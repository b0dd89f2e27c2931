import Foundation
import Testing

@testable import VignetteCore

@Suite("Declaration reader")
struct DeclarationReaderTests {
    /// What `JSONDecoder` makes of `data`, the reference the fast reader must match.
    func decoded(_ data: Data) throws -> TypeDeclarationFile {
        try JSONDecoder().decode(TypeDeclarationFile.self, from: data)
    }

    func read(_ data: Data) -> TypeDeclarationFile? {
        data.withUnsafeBytes { DeclarationReader.read($0) }
    }

    func read(_ text: String) -> TypeDeclarationFile? { read(Data(text.utf8)) }

    @Test func theBuiltInFileReadsExactlyAsJSONDecoderDecodesIt() throws {
        let (data, _) = try BuiltInResources.data(named: "UniformTypes.json")
        let fast = try #require(read(data))
        let reference = try decoded(data)
        #expect(fast.types.count == reference.types.count)
        #expect(fast.types == reference.types)
        #expect(fast.types.contains { $0.signatures.contains { $0.patterns.contains { $0.mask != nil } } })
        #expect(fast.types.contains { $0.signatures.contains { $0.patterns.contains { $0.range > 0 } } })
    }

    @Test func customFilesWithEscapesInlinePatternsAndNullsReadAsJSONDecoderDecodesThem() throws {
        let json = #"""
            { "format": 1,
              "exportedTypes": [ { "identifier": "com.example.caf\u00e9", "conformsTo": ["public.data"],
                  "description": "tab\there, quote \" slash \/ back \\ smile \ud83d\ude00 é",
                  "extensions": ["cafe"], "mimeTypes": null, "reference": null,
                  "signatures": [ { "ascii": "CAFE", "offset": 4 }, { "priority": 70, "patterns": [ { "hex": "ca fe", "mask": "ffff", "range": 8 } ] } ] } ],
              "importedTypes": [ { "identifier": "org.example.other", "conformsTo": ["public.text"], "unknownKey": [1, true, false, null, {}] } ] }
            """#
        let data = Data(json.utf8)
        let fast = try #require(read(data))
        let reference = try decoded(data)
        #expect(fast.exportedTypes == reference.exportedTypes)
        #expect(fast.importedTypes == reference.importedTypes)
        #expect(fast.exportedTypes.first?.description == "tab\there, quote \" slash / back \\ smile 😀 é")
        #expect(fast.exportedTypes.first?.identifier == "com.example.café")
    }

    @Test(arguments: [
        #"{ "format": 2, "types": [] }"#,
        #"{ "types": [ { "identifier": "a.b", "signatures": [ { "hex": "1.5" } ] } ] }"#,
        #"{ "types": [ { "identifier": "a.b", "signatures": [ { "offset": 1.5, "hex": "00" } ] } ] }"#,
        #"{ "types": [ { "identifier": "a.b", "signatures": [ { "hex": "00", "ascii": "x" } ] } ] }"#,
        #"{ "types": [ { "identifier": "a.b", "signatures": [ { "hex": "00", "mask": "ffff" } ] } ] }"#,
        #"{ "types": [ { "identifier": "a.b", "signatures": [ { "patterns": [] } ] } ] }"#,
        #"{ "types": [ { "identifier": "a.b", "signatures": [ { "offset": -1, "hex": "00" } ] } ] }"#,
        #"{ "types": [ { "conformsTo": ["public.data"] } ] }"#,
        #"{ "types": [ { "identifier": 5 } ] }"#,
        #"{ "types": [ { "identifier": "a.b", "identifier": "c.d" } ] }"#,
        #"{ "types": [ { "identifier": "a\ud800b" } ] }"#,
        #"{ "types": [] } trailing"#,
        #"{ "types": [ "#,
        #"["not", "an", "object"]"#,
        "",
    ])
    func whatItDoesNotPlainlyUnderstandIsLeftToJSONDecoder(_ json: String) {
        #expect(read(json) == nil)
    }

    @Test func errorsStillComeFromJSONDecoderWithTheirKeyPath() {
        let data = Data(#"{ "types": [ { "identifier": "a.b", "signatures": [ { "offset": 1.5, "hex": "00" } ] } ] }"#.utf8)
        #expect(throws: VignetteError.self) { try TypeDeclarationFile.decode(data, path: "/x.json") }
        #expect(throws: VignetteError(.invalidDeclaration, path: "/x.json", "unsupported format 2 (expected 1)")) {
            try TypeDeclarationFile.decode(Data(#"{ "format": 2 }"#.utf8), path: "/x.json")
        }
    }
}
