import Testing
import VignetteCore

@testable import VignetteGenerators

@Suite("Built-in generator capabilities")
struct BuiltInCapabilityTests {
    @Test func theStaticAnswersAgreeWithTheConformances() throws {
        var generators = BuiltInGenerators.makeRegistry().generators
        let spec = ExternalGeneratorSpec(
            identifier: "ext", kind: .thumbnail, types: ["public.data"], exec: try ExecTemplate(["tool", "%i", "%o"]),
            tryExec: nil, priority: .generic, origin: "/x.thumbnailer")
        generators += [
            ExternalThumbnailGenerator(spec: spec, catalog: .builtIn, imageLimits: .standard),
            ExternalPreviewGenerator(spec: spec, catalog: .builtIn, imageLimits: .standard),
        ]
        for g in generators {
            #expect((g.asThumbnailGenerator != nil) == (g is any ThumbnailGenerating), "\(g.identifier)")
            #expect((g.asPreviewGenerator != nil) == (g is any PreviewGenerating), "\(g.identifier)")
        }
    }
}
