import Foundation
import Testing
import VignetteCore

@testable import VignetteGenerators

@Suite("Viewer fallback")
struct FallbackGeneratorTests {
    @Test func anUnknownBinaryGetsFactsHexAndStrings() throws {
        let bytes: [UInt8] = [0x00, 0x01, 0x02, 0xFF] + Array("hello world".utf8) + [0x00, 0x9F]
        let registry = BuiltInGenerators.makeRegistry()
        let input = GeneratorInput(bytes: bytes, filename: "blob.qqq", resolver: TypeResolver(catalog: registry.catalog))
        let (preview, generator, _) = try registry.preview(for: input, request: PreviewRequest())
        #expect(generator == "fallback")
        #expect(preview.text.contains("Name:        blob.qqq"))
        #expect(preview.text.contains("00000000  00 01 02 ff 68 65 6c 6c  6f 20 77 6f 72 6c 64 00  |....hello world.|"))
        #expect(preview.text.contains("  hello world"))
        #expect(preview.html.contains("<dt>Name</dt><dd>blob.qqq</dd>"))
    }

    @Test func anEmptyFileGetsItsFactsWithoutAnEmptyStringsSection() throws {
        let registry = BuiltInGenerators.makeRegistry()
        let input = GeneratorInput(bytes: [], filename: "empty", resolver: TypeResolver(catalog: registry.catalog))
        let (preview, generator, _) = try registry.preview(for: input, request: PreviewRequest())
        #expect(generator == "fallback")
        #expect(preview.text.contains("Identified:  the file is empty"))
        #expect(!preview.text.contains("Printable strings"))
        #expect(!preview.html.contains("Printable strings"))
    }

    @Test func theIconIsTallAsRequestedAndMarkedAsAnIcon() throws {
        let registry = BuiltInGenerators.makeRegistry()
        let input = GeneratorInput(bytes: [1, 2, 3], filename: "x.qqq", resolver: TypeResolver(catalog: registry.catalog))
        let (thumb, generator, _) = try registry.thumbnail(for: input, request: ThumbnailRequest(maxPixelSize: 128))
        #expect(generator == "fallback")
        #expect(thumb.isIcon)
        #expect(thumb.bitmap.height == 128)
    }
}
