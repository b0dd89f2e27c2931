import Foundation
import VignetteCore
import VignetteGenerators
import VignetteImaging

// ThumbnailSize TYPES.json FILE: declares the types, registers SwatchGenerator in-process,
// thumbnails FILE through Vignette's pipeline and prints what came out.
let arguments = CommandLine.arguments
guard arguments.count == 3 else {
    print("usage: ThumbnailSize TYPES.json FILE")
    exit(2)
}
do {
    let catalog = try TypeCatalog.builtIn.adding(declarationFiles: [arguments[1]])
    let registry = BuiltInGenerators.makeRegistry(catalog: catalog)
    registry.register(SwatchGenerator())
    let pipeline = ThumbnailPipeline(registry: registry)
    let input = try pipeline.input(path: arguments[2])
    let (rendered, png) = try pipeline.make(input, request: ThumbnailRequest(maxPixelSize: 256), output: ThumbnailOutput(format: .png))
    let bitmap = rendered.thumbnail.bitmap
    print("thumbnail: \(bitmap.width) × \(bitmap.height) from generator \(rendered.generator) for \(input.type.identifier), \(png.count) bytes of PNG")
} catch {
    print("ThumbnailSize: \(error)")
    exit(1)
}
