import Foundation
import Testing
import VignetteCore

@testable import VignetteGenerators

@Suite("Manifest reader (the fast path)")
struct ManifestReaderTests {
    static let path = "/opt/generators/sample.json"

    /// Manifests the reader takes: each must come out exactly as Foundation's path makes it.
    static let plainlyValid: [String] = [
        #"{ "generator": { "identifier": "esc\u0061pe", "kind": "text", "exec": ["cat", "%i"], "types": ["public.text"] } }"#,
        #"{ "generator": { "kind": "thumbnail", "types": ["public.png"], "exec": ["tool", "%i", "%o"] } }"#,
        #"{ "format": 1, "generator": { "kind": "thumbnail", "types": ["public.png"], "exec": ["tool", "%i", "%o"] } }"#,
        """
        {
          "format": 1,
          "description": "Example colour palettes",
          "types": [{ "identifier": "com.example.palette", "conformsTo": ["public.data"], "extensions": ["palette"],
                      "mimeTypes": ["application/x-example-palette"] }],
          "generator": {
            "identifier": "com.example.palette", "kind": "thumbnail", "exec": ["./render.py", "thumbnail", "%i", "%o", "%s"],
            "tryExec": "python3", "timeoutSeconds": 2.5, "maxFileBytes": 1048576, "maxMemoryBytes": 33554432,
            "maxCPUSeconds": 3, "maxWriteBytes": 1000, "maxProcesses": 4, "environment": ["LANG", "DISPLAY"],
            "sandbox": false, "priority": "preferred", "description": "palettes"
          }
        }
        """,
        #"{ "generator": { "kind": "text", "exec": ["cat", "%u"], "mimeTypes": ["text/x-foo"], "priority": -5, "sandbox": true } }"#,
        #"{ "generator": { "kind": "html", "exec": ["/bin/cat", "%i", "-%%"], "types": ["public.text"], "priority": 150, "timeoutSeconds": 600 } }"#,
        #"{ "generator": { "identifier": "café", "kind": "text", "exec": ["../bin/tool", "%i", "./x", "é"], "tryExec": "./sub/../tool", "types": [] , "mimeTypes": ["a/b"]} }"#,
        " \n{ \"generator\" : { \"kind\" : \"text\" , \"exec\" : [ \"cat\" , \"%i\" ] , \"types\" : [ \"public.text\" ], \"timeoutSeconds\": 0.1 } }\n",
    ]

    /// Manifests the reader leaves to Foundation (which accepts some of them, refuses others).
    static let leftToFoundation: [String] = [
        #"{ "generator": { "kind": "text", "exec": ["cat", "%i"], "types": ["public.text"], "timeoutSeconds": true } }"#,
        #"{ "generator": { "kind": "text", "exec": ["cat", "%i"], "types": ["public.text"], "sandbox": 1 } }"#,
        #"{ "generator": { "kind": "text", "kind": "html", "exec": ["cat", "%i"], "types": ["public.text"] } }"#,
        #"{ "generator": { "kind": "text", "exec": ["cat", "%i"], "types": ["public.text"], "timeoutSeconds": 1e1 } }"#,
        #"{ "generator": { "kind": "text", "exec": ["cat", "%i"], "types": ["public.text"], "tryExec": null } }"#,
        #"{ "generator": { "kind": "text", "exec": ["cat", "%i"], "types": ["public.text"], "priority": 1.5 } }"#,
        #"{ "generator": { "kind": "text", "exec": ["cat", "%o"], "types": ["public.text"] } }"#,
        #"{ "generator": { "kind": "text", "exec": ["cat", "%i"], "types": ["public.text"] }, "colour": 1 }"#,
        #"{ "generator": { "kind": "text", "exec": ["cat", "%i"], "types": ["public.text"] } } x"#,
        #"{ "generator": { "kind": "text", "exec": ["cat", "%i"], "types": ["public.text"], "maxProcesses": 012 } }"#,
        #"{ "generator": { "kind": "text", "exec": ["cat", "%i"], "types": ["public.text"], "maxFileBytes": 1234567890123456 } }"#,
        #"[1, 2]"#,
        #"{ "format": 2, "generator": { "kind": "text", "exec": ["cat", "%i"], "types": ["public.text"] } }"#,
    ]

    @Test func plainlyValidManifestsComeOutAsFoundationMakesThem() throws {
        for text in Self.plainlyValid {
            let data = Data(text.utf8)
            let fast = try #require(ManifestReader.read(data, path: Self.path), "reader refused: \(text)")
            let slow = try GeneratorManifest.parseWithFoundation(data, path: Self.path)
            #expect(fast.generator == slow.generator, "\(text)")
            #expect(fast.path == slow.path)
            #expect(
                (fast.declarations.types + fast.declarations.exportedTypes + fast.declarations.importedTypes).map(\.identifier)
                    == (slow.declarations.types + slow.declarations.exportedTypes + slow.declarations.importedTypes).map(\.identifier))
        }
    }

    @Test func anythingUnusualIsLeftToFoundation() {
        for text in Self.leftToFoundation {
            #expect(ManifestReader.read(Data(text.utf8), path: Self.path) == nil, "\(text)")
        }
    }

    @Test func theShippedManifestTakesTheFastPath() throws {
        let shipped = try #require(BuiltInResources.directory(named: "Generators"))
        let data = try Data(contentsOf: URL(fileURLWithPath: shipped + "/svg.json"))
        let fast = try #require(ManifestReader.read(data, path: shipped + "/svg.json"))
        #expect(fast.generator == (try GeneratorManifest.parseWithFoundation(data, path: shipped + "/svg.json")).generator)
    }
}
