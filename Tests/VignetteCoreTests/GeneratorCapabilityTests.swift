import Testing

@testable import VignetteCore

/// A generator that only writes previews.
private struct PreviewOnlyGenerator: PreviewGenerating {
    let identifier = "preview-only"
    let supportedTypes = ["public.data"]
    let priority = GeneratorPriority.standard
    let limits = GeneratorLimits.none

    func makePreview(for input: GeneratorInput, request: PreviewRequest) throws -> TextPreview {
        TextPreview(title: identifier, text: identifier, html: identifier)
    }
}

/// A generator class that does nothing itself; its subclass draws thumbnails.
private class PlainGenerator: Generator, @unchecked Sendable {
    let identifier = "plain"
    let supportedTypes = ["public.data"]
    let priority = GeneratorPriority.standard
    let limits = GeneratorLimits.none
}

/// A subclass that adds `ThumbnailGenerating`: its `Generator` conformance is the superclass's.
private final class DrawingSubclass: PlainGenerator, ThumbnailGenerating, @unchecked Sendable {
    func makeThumbnail(for input: GeneratorInput, request: ThumbnailRequest) throws -> GeneratedThumbnail {
        GeneratedThumbnail(bitmap: Bitmap(width: 1, height: 1))
    }
}

@Suite("Generator capabilities")
struct GeneratorCapabilityTests {
    @Test func conformingIsEnoughToOfferACapability() {
        let both: any Generator = StubGenerator(identifier: "both", supportedTypes: ["public.data"])
        #expect(both.asThumbnailGenerator != nil)
        #expect(both.asPreviewGenerator != nil)
        let previews: any Generator = PreviewOnlyGenerator()
        #expect(previews.asThumbnailGenerator == nil)
        #expect(previews.asPreviewGenerator != nil)
    }

    @Test func aSubclassThatDrawsThumbnailsIsSeenAsOne() throws {
        let plain: any Generator = PlainGenerator()
        #expect(plain.asThumbnailGenerator == nil)
        #expect(plain.asPreviewGenerator == nil)
        let drawing: any Generator = DrawingSubclass()
        #expect(drawing.asThumbnailGenerator != nil)
        #expect(drawing.asPreviewGenerator == nil)
        let registry = GeneratorRegistry()
        registry.register(drawing)
        registry.register(PreviewOnlyGenerator())
        #expect(registry.candidates(for: input().type, size: nil, capability: .thumbnail).map(\.generator.identifier) == ["plain"])
        #expect(try registry.thumbnail(for: input(), request: ThumbnailRequest()).generator == "plain")
        #expect(registry.candidates(for: input().type, size: nil, capability: .preview).map(\.generator.identifier) == ["preview-only"])
    }
}
