import Foundation
import Testing
import VignetteCore
import VignetteGenerators

@Suite("Text-family generators through the registry")
struct TextRegistryTests {
    @Test(arguments: [
        ("notes.txt", "text", "Plain text, UTF-8, 4 lines"),
        ("guide.md", "markdown", "Markdown document, \"Vignette guide\""),
        ("data.csv", "csv", "CSV table, 3 columns × 3 rows"),
        ("config.json", "json", "JSON object, 3 keys"),
        ("script.py", "source-code", "Python script, 13 lines"),
        ("build.sh", "source-code", "Shell script, 3 lines"),
        ("page.html", "markup", "HTML document, \"Vignette sample page\""),
    ])
    func eachSampleIsAnsweredByItsGenerator(_ name: String, _ generator: String, _ title: String) throws {
        let path = samplesDirectory.appendingPathComponent(name).path
        let input = try GeneratorInput(path: path, resolver: TypeResolver(catalog: textRegistry.catalog))
        let (result, answered, _) = try textRegistry.preview(for: input, request: PreviewRequest())
        #expect(answered == generator)
        #expect(result.title == title)
        #expect(!result.truncated)
    }
}
