import Foundation
import Testing
import VignetteCore
import VignetteGenerators

/// A generator registered in-process by a library user, as README shows.
struct SepiaJPEGGenerator: ThumbnailGenerating, PreviewGenerating {
    let identifier = "com.example.sepia"
    let supportedTypes = ["public.jpeg"]
    let priority = GeneratorPriority.standard
    let limits = GeneratorLimits.none

    func makeThumbnail(for input: GeneratorInput, request: ThumbnailRequest) throws -> GeneratedThumbnail {
        GeneratedThumbnail(bitmap: Bitmap(width: 3, height: 2, pixels: [UInt8](repeating: 0x70, count: 24)))
    }

    func makePreview(for input: GeneratorInput, request: PreviewRequest) throws -> TextPreview {
        TextPreview(title: "Sepia", text: "a sepia JPEG of \(input.size) bytes", html: "<p>sepia</p>")
    }
}

@Suite("In-process custom generators")
struct CustomGeneratorTests {
    static let photo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Samples/photo.jpg").path

    @Test func aCustomGeneratorOverridesTheBuiltInForItsType() throws {
        let registry = BuiltInGenerators.makeRegistry()
        registry.register(SepiaJPEGGenerator())
        let input = try GeneratorInput(path: Self.photo, resolver: TypeResolver(catalog: registry.catalog))
        let ranked = registry.candidates(for: input.type, size: input.size, capability: .thumbnail).map(\.generator.identifier)
        #expect(ranked == ["com.example.sepia", "image", "fallback"])
        let (thumb, generator, _) = try registry.thumbnail(for: input, request: ThumbnailRequest())
        #expect(generator == "com.example.sepia")
        #expect(thumb.bitmap.width == 3)
        let (preview, previewer, _) = try registry.preview(for: input, request: PreviewRequest())
        #expect(previewer == "com.example.sepia")
        #expect(preview.text == "a sepia JPEG of 45802 bytes")
    }

    @Test func theBuiltInsAnswerWithoutIt() throws {
        let registry = BuiltInGenerators.makeRegistry()
        let input = try GeneratorInput(path: Self.photo, resolver: TypeResolver(catalog: registry.catalog))
        let (thumb, generator, _) = try registry.thumbnail(for: input, request: ThumbnailRequest(maxPixelSize: 64))
        #expect(generator == "image")
        #expect((thumb.bitmap.width, thumb.bitmap.height) == (64, 40))
    }
}
