import Foundation
import Testing

@testable import VignetteCore

/// A generator that records calls and answers as told.
struct StubGenerator: ThumbnailGenerating, PreviewGenerating {
    enum Behaviour: Sendable { case succeed, decline, fail, refuse }
    let identifier: String
    let supportedTypes: [String]
    var priority: GeneratorPriority = .standard
    var limits: GeneratorLimits = .none
    var behaviour: Behaviour = .succeed

    func makeThumbnail(for input: GeneratorInput, request: ThumbnailRequest) throws -> GeneratedThumbnail {
        switch behaviour {
        case .succeed: return GeneratedThumbnail(bitmap: Bitmap(width: 1, height: 1))
        case .decline: throw VignetteError(.declined, "not my kind of \(input.type.identifier)")
        case .fail: throw VignetteError(.corrupt, "stub \(identifier) broke")
        case .refuse: throw VignetteError(.refused, "image is 65535 × 65535 pixels (4295 MP), over the limit of 100 MP")
        }
    }

    func makePreview(for input: GeneratorInput, request: PreviewRequest) throws -> TextPreview {
        _ = try makeThumbnail(for: input, request: ThumbnailRequest())
        return TextPreview(title: identifier, text: identifier, html: identifier)
    }
}

let jpegBytes: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 0, 16] + Array("JFIF".utf8) + [0, 1, 1, 0, 0, 1, 0, 1, 0, 0]

func input(_ bytes: [UInt8] = jpegBytes, name: String = "photo.jpg") -> GeneratorInput {
    GeneratorInput(bytes: bytes, filename: name, resolver: TypeResolver())
}

@Suite("Generator registry")
struct GeneratorRegistryTests {
    @Test func theMostSpecificTypeWinsOverPriority() throws {
        let registry = GeneratorRegistry()
        registry.register(StubGenerator(identifier: "any-image", supportedTypes: ["public.image"], priority: .preferred))
        registry.register(StubGenerator(identifier: "jpeg", supportedTypes: ["public.jpeg"], priority: .generic))
        registry.register(StubGenerator(identifier: "anything", supportedTypes: ["public.data"], priority: .preferred))
        let ranked = registry.candidates(for: input().type, size: nil, capability: .thumbnail).map(\.generator.identifier)
        #expect(ranked == ["jpeg", "any-image", "anything"])
        #expect(try registry.thumbnail(for: input(), request: ThumbnailRequest()).generator == "jpeg")
    }

    @Test func theFallbackIsLastEvenWhenItsTypeIsNearerInTheChain() throws {
        // JavaScript conforms to public.executable, which is a public.item: the chain reaches
        // public.item four steps up, public.text six.
        let registry = GeneratorRegistry()
        registry.register(StubGenerator(identifier: "fallback", supportedTypes: ["public.item"], priority: .fallback))
        registry.register(StubGenerator(identifier: "text", supportedTypes: ["public.text"]))
        let script = input(Array("function f() { return 1 }\n".utf8), name: "app.js")
        #expect(script.type.identifier == "com.netscape.javascript-source")
        let ranked = registry.candidates(for: script.type, size: nil, capability: .thumbnail)
        #expect(ranked.map(\.generator.identifier) == ["text", "fallback"])
        #expect(ranked.map(\.distance) == [6, 4])
        #expect(try registry.thumbnail(for: script, request: ThumbnailRequest()).generator == "text")
    }

    @Test func priorityWinsOverRegistrationOrder() throws {
        let registry = GeneratorRegistry()
        registry.register(StubGenerator(identifier: "good", supportedTypes: ["public.jpeg"], priority: .preferred))
        registry.register(StubGenerator(identifier: "plain", supportedTypes: ["public.jpeg"], priority: .standard))
        #expect(try registry.thumbnail(for: input(), request: ThumbnailRequest()).generator == "good")
    }

    @Test func laterRegistrationWinsTies_soCustomOverridesBuiltIn() throws {
        let registry = GeneratorRegistry()
        registry.register(StubGenerator(identifier: "built-in", supportedTypes: ["public.jpeg"]))
        registry.register(StubGenerator(identifier: "custom", supportedTypes: ["public.jpeg"]))
        #expect(try registry.thumbnail(for: input(), request: ThumbnailRequest()).generator == "custom")
    }

    @Test func aFailingOrDecliningGeneratorFallsThrough() throws {
        let registry = GeneratorRegistry()
        registry.register(StubGenerator(identifier: "fallback", supportedTypes: ["public.item"], priority: .fallback))
        registry.register(StubGenerator(identifier: "image", supportedTypes: ["public.image"], behaviour: .decline))
        registry.register(StubGenerator(identifier: "jpeg", supportedTypes: ["public.jpeg"], behaviour: .fail))
        let (_, chosen, attempts) = try registry.thumbnail(for: input(), request: ThumbnailRequest())
        #expect(chosen == "fallback")
        #expect(
            attempts.map(\.description) == [
                "jpeg: failed: stub jpeg broke",
                "image: declined: not my kind of public.jpeg",
                "fallback: succeeded",
            ])
    }

    @Test func aFileOverAGeneratorsLimitSkipsItWithTheReason() throws {
        let registry = GeneratorRegistry()
        registry.register(StubGenerator(identifier: "fallback", supportedTypes: ["public.item"], priority: .fallback))
        registry.register(
            StubGenerator(identifier: "small-only", supportedTypes: ["public.jpeg"], limits: GeneratorLimits(maxFileBytes: 10)))
        let candidates = registry.candidates(for: input().type, size: jpegBytes.count, capability: .thumbnail)
        #expect(candidates.first?.skipReason == "file is 20 bytes, over this generator's limit of 10 bytes")
        let (_, chosen, attempts) = try registry.thumbnail(for: input(), request: ThumbnailRequest())
        #expect(chosen == "fallback")
        #expect(attempts.first?.description == "small-only: skipped: file is 20 bytes, over this generator's limit of 10 bytes")
    }

    @Test func whenNothingSucceedsTheBestRankedFailureNamesTheFile() {
        let registry = GeneratorRegistry()
        registry.register(StubGenerator(identifier: "jpeg", supportedTypes: ["public.jpeg"], behaviour: .fail))
        #expect(throws: VignetteError(.corrupt, path: "photo.jpg", "stub jpeg broke")) {
            try registry.thumbnail(for: input(), request: ThumbnailRequest())
        }
        let empty = GeneratorRegistry()
        #expect(throws: VignetteError(.unsupported, path: "photo.jpg", "no preview generator for JPEG image (public.jpeg, image/jpeg)")) {
            try empty.preview(for: input(), request: PreviewRequest())
        }
    }

    @Test func withoutTheFallbackTheRealGeneratorsProblemIsTheError() {
        let registry = GeneratorRegistry()
        registry.register(StubGenerator(identifier: "fallback", supportedTypes: ["public.item"], priority: .fallback))
        registry.register(
            StubGenerator(identifier: "small-only", supportedTypes: ["public.jpeg"], limits: GeneratorLimits(maxFileBytes: 10)))
        registry.register(StubGenerator(identifier: "image", supportedTypes: ["public.image"], behaviour: .fail))
        #expect(throws: VignetteError(.limitExceeded, path: "photo.jpg", "file is 20 bytes, over this generator's limit of 10 bytes")) {
            try registry.thumbnail(for: input(), request: ThumbnailRequest(), allowFallback: false)
        }
        #expect(throws: Never.self) { try registry.thumbnail(for: input(), request: ThumbnailRequest()) }
    }

    @Test func aRefusalIsFinalAndOnlyTheFallbackIsTriedAfterIt() throws {
        let registry = GeneratorRegistry()
        registry.register(StubGenerator(identifier: "fallback", supportedTypes: ["public.item"], priority: .fallback))
        registry.register(StubGenerator(identifier: "other-decoder", supportedTypes: ["public.image"]))
        registry.register(StubGenerator(identifier: "image", supportedTypes: ["public.jpeg"], behaviour: .refuse))
        let (_, generator, attempts) = try registry.thumbnail(for: input(), request: ThumbnailRequest())
        #expect(generator == "fallback")
        #expect(
            attempts.map(\.description) == [
                "image: failed: image is 65535 × 65535 pixels (4295 MP), over the limit of 100 MP",
                "other-decoder: skipped: not tried: image refused the file",
                "fallback: succeeded",
            ])
        #expect(attempts.first?.errorCode == .refused)
        #expect(throws: VignetteError(.refused, path: "photo.jpg", "image is 65535 × 65535 pixels (4295 MP), over the limit of 100 MP")) {
            try registry.thumbnail(for: input(), request: ThumbnailRequest(), allowFallback: false)
        }
    }

    @Test func registeringTheSameIdentifierReplacesTheGenerator() throws {
        let registry = GeneratorRegistry()
        registry.register(StubGenerator(identifier: "jpeg", supportedTypes: ["public.jpeg"], behaviour: .fail))
        registry.register(StubGenerator(identifier: "jpeg", supportedTypes: ["public.jpeg"]))
        #expect(registry.generators.count == 1)
        #expect(try registry.thumbnail(for: input(), request: ThumbnailRequest()).generator == "jpeg")
    }

    @Test func capabilitiesAreSeparate() {
        struct ThumbOnly: ThumbnailGenerating {
            let identifier = "thumb-only"
            let supportedTypes = ["public.data"]
            let priority = GeneratorPriority.standard
            let limits = GeneratorLimits.none
            func makeThumbnail(for input: GeneratorInput, request: ThumbnailRequest) throws -> GeneratedThumbnail {
                GeneratedThumbnail(bitmap: Bitmap(width: 1, height: 1))
            }
        }
        let registry = GeneratorRegistry()
        registry.register(ThumbOnly())
        #expect(registry.candidates(for: input().type, size: nil, capability: .thumbnail).count == 1)
        #expect(registry.candidates(for: input().type, size: nil, capability: .preview).isEmpty)
    }
}
