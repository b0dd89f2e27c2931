import Foundation
import Testing
import VignetteCore
import VignetteImaging

@testable import VignetteGenerators

/// Krita and OpenRaster documents, built here as their writers lay them out: the preview when it
/// covers the request, else the merged image; the layers never read.
@Suite("Layered images: Krita and OpenRaster")
struct LayeredImageTests {
    /// A `width` × `height` picture of one colour.
    static func png(_ width: Int, _ height: Int, _ rgb: (UInt8, UInt8, UInt8)) throws -> [UInt8] {
        var bitmap = Bitmap(width: width, height: height)
        for i in 0..<(width * height) { bitmap.pixels.replaceSubrange((i * 4)..<(i * 4 + 4), with: [rgb.0, rgb.1, rgb.2, 255]) }
        return try ImageEncoder.png(bitmap)
    }

    /// An OpenRaster (or, with `krita`, a Krita) document: the mimetype first and stored, a stack or
    /// main document, a red layer, a green 256 × 128 preview and a blue 1024 × 512 merged image
    /// (either left out when nil).
    static func document(krita: Bool, preview: Bool = true, merged: Bool = true) throws -> [UInt8] {
        var entries = [
            OfficeZipBuilder.stored("mimetype", krita ? "application/x-krita" : "image/openraster"),
            OfficeZipBuilder.stored(krita ? "maindoc.xml" : "stack.xml", "<image w=\"1024\" h=\"512\"/>"),
            OfficeZipBuilder.Entry(name: krita ? "layers/layer1.png" : "data/layer1.png", data: try png(1024, 512, (255, 0, 0))),
        ]
        if preview {
            let name = krita ? "preview.png" : "Thumbnails/thumbnail.png"
            entries.append(OfficeZipBuilder.Entry(name: name, data: try png(256, 128, (0, 255, 0))))
        }
        if merged { entries.append(OfficeZipBuilder.Entry(name: "mergedimage.png", data: try png(1024, 512, (0, 0, 255)))) }
        return OfficeZipBuilder.zip(entries)
    }

    func thumbnail(_ bytes: [UInt8], name: String, size: Int) throws -> (Bitmap, String) {
        let input = GeneratorInput(bytes: bytes, filename: name, resolver: TypeResolver(catalog: GeneratorFixtures.registry.catalog))
        let (thumb, generator, _) = try GeneratorFixtures.registry.thumbnail(for: input, request: ThumbnailRequest(maxPixelSize: size))
        return (thumb.bitmap, generator)
    }

    @Test(arguments: [(false, "art.ora"), (true, "art.kra")])
    func thePreviewServesSmallThumbnailsAndTheMergedImageLargeOnes(krita: Bool, name: String) throws {
        let bytes = try Self.document(krita: krita)
        let type = TypeResolver(catalog: GeneratorFixtures.registry.catalog).resolve(bytes: bytes, filename: nil).type
        #expect(type.identifier == (krita ? "org.krita.kra" : "org.openraster.ora"))
        let (small, generator) = try thumbnail(bytes, name: name, size: 128)
        #expect(generator == "layered-image")
        #expect(small.width == 128 && small.height == 64)
        #expect(Array(small.pixels[0..<4]) == [0, 255, 0, 255])
        let (large, _) = try thumbnail(bytes, name: name, size: 512)
        #expect(large.width == 512 && large.height == 256)
        #expect(Array(large.pixels[0..<4]) == [0, 0, 255, 255])
    }

    @Test func withoutAMergedImageThePreviewServesAndWithNeitherItDeclines() throws {
        let previewOnly = try Self.document(krita: false, merged: false)
        let (bitmap, _) = try thumbnail(previewOnly, name: "p.ora", size: 512)
        #expect(bitmap.width == 256 && Array(bitmap.pixels[0..<4]) == [0, 255, 0, 255])
        let layersOnly = try Self.document(krita: true, preview: false, merged: false)
        let input = GeneratorInput(bytes: layersOnly, filename: "l.kra", resolver: TypeResolver())
        #expect(throws: VignetteError(.declined, "no mergedimage.png or preview in the layered image (its layers are not drawn)")) {
            try LayeredImageGenerator(catalog: .builtIn).makeThumbnail(for: input, request: ThumbnailRequest(maxPixelSize: 128))
        }
    }
}
