import Foundation
import Testing
import VignetteCore

@testable import VignetteGenerators

@Suite("External generator manifests")
struct ExternalManifestTests {
    @Test func brokenManifestsAreReportedWithFileAndKeyWhileTheOthersLoad() throws {
        let dir = try ExternalScratch()
        try dir.thumbnailGenerator("good", type: "public.png", script: "exit 1")
        let badJSON = try dir.write("a-bad-json.json", "{\n  \"format\": 1,\n  \"generator\": {\n    \"kind\": \"thumbnail\",,\n  }\n}\n")
        let noExec = try dir.write("b-no-exec.json", #"{ "generator": { "kind": "thumbnail", "types": ["public.png"] } }"#)
        let placeholder = try dir.write(
            "c-placeholder.json",
            #"{ "generator": { "kind": "thumbnail", "types": ["public.png"], "exec": ["tool", "%i", "%o", "-q%q"] } }"#)
        let priority = try dir.write(
            "d-priority.json",
            #"{ "generator": { "kind": "text", "types": ["public.png"], "exec": ["cat", "%i"], "priority": "highest" } }"#)
        let result = ExternalFixtures.load([dir.path])
        #expect(
            result.warnings.map(\.description) == [
                "\(badJSON): not valid JSON: line 4, column 25: invalid value around character 58",
                "\(noExec): key generator.exec: missing (an argv list such as [\"tool\", \"%i\", \"%o\"])",
                "\(placeholder): key generator.exec[3]: unknown placeholder %q (known: %i %u %o %s %m %%)",
                "\(priority): key generator.priority: must be generic, standard, preferred or a whole number from -999 to 999, not \"highest\"",
            ])
        #expect(result.registry.generators.map(\.identifier).contains("good"))
    }

    @Test func aManifestMustNameItsInputAndKnowItsKeys() throws {
        let cases: [(String, String)] = [
            (
                #"{ "generator": { "kind": "thumbnail", "types": ["public.png"], "exec": ["tool", "%o"] } }"#,
                "key generator.exec: never names the input file; use %i (path) or %u (URI)"
            ),
            (
                #"{ "generator": { "kind": "picture", "types": ["public.png"], "exec": ["tool", "%i"] } }"#,
                "key generator.kind: must be thumbnail, text or html, not \"picture\""
            ),
            (
                #"{ "generator": { "kind": "text", "types": ["public.png"], "exec": ["tool", "%i"], "tryexec": "tool" } }"#,
                "key generator.tryexec: unknown key (known: description, environment, exec, identifier, kind, maxCPUSeconds, maxFileBytes, maxMemoryBytes, maxProcesses, maxWriteBytes, mimeTypes, priority, sandbox, timeoutSeconds, tryExec, types)"
            ),
            (
                #"{ "generator": { "kind": "text", "types": ["public.png"], "exec": ["tool", "%i"], "timeoutSeconds": 0 } }"#,
                "key generator.timeoutSeconds: must be more than 0 and at most 600 seconds"
            ),
            (
                #"{ "generator": { "kind": "text", "types": ["public.png"], "exec": ["tool", "%i"], "maxMemoryBytes": 1000 } }"#,
                "key generator.maxMemoryBytes: must be a whole number of bytes, at least 16777216 (16 MiB)"
            ),
            (
                #"{ "generator": { "kind": "text", "exec": ["tool", "%i"] } }"#,
                "key generator.types: names no content type, and the manifest declares none"
            ),
            (
                #"{ "generator": { "kind": "text", "types": ["public.png"], "exec": ["tool", "50%"] } }"#,
                "key generator.exec[1]: ends with a lone %; write %% for a literal percent sign"
            ),
            (
                #"{ "types": [ { "conformsTo": ["public.data"] } ], "generator": { "kind": "text", "exec": ["t", "%i"] } }"#,
                "missing key \"identifier\" at types[0]"
            ),
            (#"["not", "an", "object"]"#, "the manifest must be a JSON object"),
        ]
        for (json, reason) in cases {
            #expect(throws: VignetteError(.invalidDeclaration, path: "/g/x.json", reason)) {
                try GeneratorManifest.parse(Data(json.utf8), path: "/g/x.json")
            }
        }
    }

    @Test func relativeProgramsAreFoundBesideTheManifestAndDefaultsApply() throws {
        let json = #"{ "generator": { "kind": "html", "types": ["public.png"], "exec": ["./bin/render", "--in=%i", "../x", "%%"] } }"#
        let manifest = try GeneratorManifest.parse(Data(json.utf8), path: "/opt/gens/png-html.json")
        #expect(manifest.generator.identifier == "png-html")
        #expect(manifest.generator.exec.arguments == ["/opt/gens/bin/render", "--in=%i", "/opt/x", "%%"])
        #expect(manifest.generator.priority == .standard)
        #expect(manifest.generator.timeoutSeconds == 30)
        #expect(manifest.generator.exec.expand(["i": "/a b.png"]) == ["/opt/gens/bin/render", "--in=/a b.png", "/opt/x", "%"])
    }

    @Test func aTypeWithAReservedPrefixDropsOnlyItsManifest() throws {
        let dir = try ExternalScratch()
        let bad = try dir.write(
            "bad.json",
            #"{ "types": [ { "identifier": "public.mine", "conformsTo": ["public.data"] } ], "generator": { "kind": "text", "exec": ["cat", "%i"] } }"#
        )
        try dir.write(
            "good.json",
            #"{ "types": [ { "identifier": "com.example.good", "conformsTo": ["public.data"], "extensions": ["good"] } ], "generator": { "kind": "text", "exec": ["cat", "%i"] } }"#
        )
        let result = ExternalFixtures.load([dir.path])
        #expect(
            result.warnings.map(\.description) == [
                "\(bad): type public.mine uses the reserved prefix \"public.\"; use your own reverse-DNS name such as com.example.mine"
            ])
        #expect(result.catalog.type(withIdentifier: "com.example.good") != nil)
        #expect(result.registry.generators.map(\.identifier).contains("good"))
        #expect(!result.registry.generators.map(\.identifier).contains("bad"))
    }

    @Test func aGeneratorWhoseProgramIsAbsentIsSkippedWithItsReason() throws {
        let dir = try ExternalScratch()
        let path = try dir.write(
            "ghost.json", #"{ "generator": { "kind": "text", "types": ["public.png"], "exec": ["no-such-tool-vgn", "%i"] } }"#)
        let result = ExternalFixtures.load([dir.path])
        #expect(result.warnings.isEmpty)
        #expect(
            result.skipped == [
                GeneratorLoader.Skipped(
                    identifier: "ghost", origin: path, reason: "no-such-tool-vgn is not installed (not found in PATH)", kind: .text,
                    types: ["public.png"])
            ])
    }

    @Test("a directory as the command is not a program: skipped with its reason, not tried and failed with 'Permission denied'")
    func aDirectoryAsTheCommandIsSkipped() throws {
        let dir = try ExternalScratch()
        let path = try dir.write("dir.json", #"{ "generator": { "kind": "text", "types": ["public.png"], "exec": ["/tmp", "%i"] } }"#)
        let result = ExternalFixtures.load([dir.path])
        #expect(
            result.skipped == [
                GeneratorLoader.Skipped(
                    identifier: "dir", origin: path, reason: "/tmp is not an executable file", kind: .text, types: ["public.png"])
            ])
    }

    @Test func aMissingGeneratorsFolderNamedByTheUserIsAWarning() {
        let result = ExternalFixtures.load(["/nonexistent/vgn-generators"])
        #expect(result.warnings.map(\.description) == ["/nonexistent/vgn-generators: no such folder"])
    }
}
