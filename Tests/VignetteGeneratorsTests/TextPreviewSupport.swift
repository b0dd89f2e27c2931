import Foundation
import Testing
import VignetteCore
import VignetteGenerators

/// The registry of built-in generators the text-family tests preview through.
let textRegistry = BuiltInGenerators.makeRegistry()

/// The preview of `bytes` named `filename`, through the registry, and the generator that answered.
func preview(_ bytes: [UInt8], named filename: String, request: PreviewRequest = PreviewRequest()) throws -> (TextPreview, String) {
    let input = GeneratorInput(bytes: bytes, filename: filename, resolver: TypeResolver(catalog: textRegistry.catalog))
    let (result, generator, _) = try textRegistry.preview(for: input, request: request)
    return (result, generator)
}

/// The preview of `text` (UTF-8) named `filename`.
func preview(_ text: String, named filename: String, request: PreviewRequest = PreviewRequest()) throws -> (TextPreview, String) {
    try preview(Array(text.utf8), named: filename, request: request)
}

/// The bytes of a file under this target's `Fixtures/`, or for `text/…` the shared `Tests/Fixtures/text/`
/// (the text decoder's tests read the same files).
func fixture(_ path: String) throws -> [UInt8] {
    if path.hasPrefix("text/") {
        let tests = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        return Array(try Data(contentsOf: tests.appendingPathComponent("Fixtures/" + path)))
    }
    let url = try #require(Bundle.module.url(forResource: "Fixtures/" + path, withExtension: nil))
    return Array(try Data(contentsOf: url))
}

/// The repository's `Samples/` folder.
let samplesDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Samples")
