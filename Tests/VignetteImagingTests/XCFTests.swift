import CVignetteCodecs
import Foundation
import Testing
import VignetteCore

@testable import VignetteImaging

/// GIMP's XCF composited by our own decoder: documents GIMP made (`Fixtures/xcf/make-xcf.sh`:
/// offsets past the canvas, a hidden layer, opacity, a legacy Multiply band, a mask, a group)
/// against GIMP's own merge of their visible layers, at every precision and colour mode; the
/// reduced canvas of a small thumbnail; and files written here for what damage and aliasing do.
@Suite("GIMP XCF")
struct XCFTests {
    @Test(arguments: [
        "layers-u8", "layers-u16", "layers-float-linear", "layers-grey", "layers-indexed", "modes-u8", "modes-more-u8",
        "clip-to-layer-u8", "intersection-u8",
    ])
    func aGIMPDocumentMatchesGIMPsOwnMergeOfItsLayers(name: String) throws {
        let ours = try StreamedFormatTests.fixture("xcf/\(name).xcf", size: 1 << 14)
        let gimp = try referencePNG("xcf/\(name).gimp.png")
        let sizes = ["modes-more-u8": (170, 80), "modes-u8": (150, 40), "clip-to-layer-u8": (60, 40), "intersection-u8": (60, 40)]
        let (width, height) = sizes[name] ?? (150, 100)
        #expect(ours.bitmap.width == width && ours.bitmap.height == height)
        #expect(ours.warnings.isEmpty, "\(ours.warnings)")
        // Identical on the machine that made them; 50 dB leaves a libm's last bit its due.
        #expect(psnr(ours.bitmap, gimp) >= 50, "\(name): \(psnr(ours.bitmap, gimp)) dB")
    }

    @Test func aSmallThumbnailIsCompositedOnAReducedCanvas() throws {
        let bytes = try Fixtures.bytes("xcf/layers-u8.xcf")
        // 150 pixels for a 16-pixel target: 4 times smaller, 38 × 25 (the last cells partial).
        #expect(decoderRowSize(bytes) { vgn_xcf_open($0, $1, 16, &$2, &$3) }! == (38, 25))
        let ours = try StreamedFormatTests.thumbnail(bytes, name: "layers-u8.xcf", size: 48)
        let gimp = try referencePNG("xcf/layers-u8.gimp.png", side: 48)
        #expect(ours.bitmap.width == 48 && ours.bitmap.height == 32)
        #expect(ours.sourceWidth == 150 && ours.sourceHeight == 100)
        #expect(psnr(ours.bitmap, gimp) >= 30, "\(psnr(ours.bitmap, gimp)) dB")
    }

    /// An XCF (version 1) of a `width` × `height` canvas whose `layers` each point at one RGBA
    /// hierarchy of that size, its every tile `tile` as stored with `compression` (0 flat, 1 RLE,
    /// 2 zlib).
    static func file(width: UInt32, height: UInt32, layers: Int, tile: [UInt8], compression: UInt8 = 1) -> [UInt8] {
        func u32(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
        var head = Array("gimp xcf v001\0".utf8) + u32(width) + u32(height) + u32(0)
        head += u32(17) + u32(1) + [compression] + u32(0) + u32(0)  // PROP_COMPRESSION, PROP_END
        let layerAt = UInt32(head.count + 4 * layers + 8)
        for _ in 0..<layers { head += u32(layerAt) }
        head += u32(0) + u32(0)  // no more layers, no channels
        let name = u32(2) + Array("L\0".utf8)
        let layer = u32(width) + u32(height) + u32(1) + name + u32(0) + u32(0)  // RGBA, no properties
        let hierarchyAt = layerAt + UInt32(layer.count + 8)
        var rest = layer + u32(hierarchyAt) + u32(0)
        let levelAt = hierarchyAt + 20
        rest += u32(width) + u32(height) + u32(4) + u32(levelAt) + u32(0)
        let tiles = Int((width + 63) / 64 * ((height + 63) / 64))
        let tilesAt = levelAt + 8 + UInt32(4 * tiles + 4)
        rest += u32(width) + u32(height)
        for i in 0..<tiles { rest += u32(tilesAt + UInt32(i * tile.count)) }
        rest += u32(0)
        for _ in 0..<tiles { rest += tile }
        return head + rest
    }

    @Test func aDamagedTileIsLeftOutWithAWarningAndTheRestDrawn() throws {
        // 2 × 2 pixels: each plane one run of four (opcode 3), red opaque.
        let good = Self.file(width: 2, height: 2, layers: 1, tile: [3, 255, 3, 0, 3, 0, 3, 255])
        let red = try StreamedFormatTests.thumbnail(good, name: "red.xcf", size: 2)
        #expect(red.bitmap.pixels == Array([[UInt8]](repeating: [255, 0, 0, 255], count: 4).joined()))
        #expect(red.warnings.isEmpty)
        // The alpha plane's run is five long, one more than the tile holds.
        let damaged = Self.file(width: 2, height: 2, layers: 1, tile: [3, 255, 3, 0, 3, 0, 4, 255])
        let empty = try StreamedFormatTests.thumbnail(damaged, name: "damaged.xcf", size: 2)
        #expect(empty.bitmap.pixels == [UInt8](repeating: 0, count: 16))
        #expect(empty.warnings == ["a tile of layer 1 is left out: its run-length data is damaged"])
    }

    /// `bytes` as a zlib stream of one stored (uncompressed) deflate block.
    static func zlibStored(_ bytes: [UInt8]) -> [UInt8] {
        var a: UInt32 = 1
        var b: UInt32 = 0
        for byte in bytes {
            a = (a + UInt32(byte)) % 65521
            b = (b + a) % 65521
        }
        let n = UInt16(bytes.count)
        let adler: UInt32 = b << 16 | a
        let head: [UInt8] = [0x78, 0x01, 0x01, UInt8(n & 0xFF), UInt8(n >> 8), UInt8(~n & 0xFF), UInt8(~n >> 8)]
        let tail: [UInt8] = [UInt8(adler >> 24), UInt8(adler >> 16 & 0xFF), UInt8(adler >> 8 & 0xFF), UInt8(adler & 0xFF)]
        return head + bytes + tail
    }

    @Test func flatAndZlibTilesGiveTheSamePictureAsRunLengthOnes() throws {
        // 2 × 2: red, green / blue, half-transparent white; interleaved RGBA as flat and zlib store it.
        let pixels: [UInt8] = [255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 255, 255, 255, 128]
        var planes: [UInt8] = []
        for c in 0..<4 {
            planes.append(252)  // a literal run of 4 (256 - 4)
            for i in 0..<4 { planes.append(pixels[i * 4 + c]) }
        }
        let rle = try StreamedFormatTests.thumbnail(Self.file(width: 2, height: 2, layers: 1, tile: planes), name: "r.xcf", size: 2)
        let flat = try StreamedFormatTests.thumbnail(
            Self.file(width: 2, height: 2, layers: 1, tile: pixels, compression: 0), name: "f.xcf", size: 2)
        let zlib = try StreamedFormatTests.thumbnail(
            Self.file(width: 2, height: 2, layers: 1, tile: Self.zlibStored(pixels), compression: 2), name: "z.xcf", size: 2)
        #expect(rle.bitmap.pixels == pixels)
        #expect(flat.bitmap.pixels == pixels && zlib.bitmap.pixels == pixels)
        // A zlib tile one byte short of its pixels.
        let short = try StreamedFormatTests.thumbnail(
            Self.file(width: 2, height: 2, layers: 1, tile: Self.zlibStored(Array(pixels.prefix(15))), compression: 2),
            name: "s.xcf", size: 2)
        #expect(short.warnings == ["a tile of layer 1 is left out: its zlib data is damaged"])
    }

    @Test func layersAliasingOnePictureCannotAskForUnboundedWork() throws {
        // 40 layers pointing at one 8000 × 8000 layer: 2.56 gigapixels of compositing in 300 KB.
        let tile: [UInt8] = [127, 16, 0, 255, 127, 16, 0, 0, 127, 16, 0, 0, 127, 16, 0, 255]
        let bomb = Self.file(width: 8000, height: 8000, layers: 40, tile: tile)
        let error = try #require(throws: VignetteError.self) { try StreamedFormatTests.thumbnail(bomb, name: "bomb.xcf") }
        #expect(error.reason == "XCF over a decoder limit: the visible layers hold more than 2^31 pixels together")
        // 12 of them, 768 megapixels: under that bound, but more than 2,048 pixels a byte of 312 KB.
        let shared = try #require(throws: VignetteError.self) {
            try StreamedFormatTests.thumbnail(Self.file(width: 8000, height: 8000, layers: 12, tile: tile), name: "shared.xcf")
        }
        #expect(
            shared.reason
                == "XCF over a decoder limit: the visible layers hold more pixels than a file this size can store: they share their pixels"
        )
        // One of them is drawn.
        let one = try StreamedFormatTests.thumbnail(Self.file(width: 8000, height: 8000, layers: 1, tile: tile), name: "one.xcf", size: 32)
        #expect(one.bitmap.width == 32 && Array(one.bitmap.pixels.prefix(4)) == [255, 0, 0, 255])
    }

    @Test func cutShortAndForeignFilesSaySo() throws {
        let whole = try Fixtures.bytes("xcf/layers-u8.xcf")
        let cut = try #require(throws: VignetteError.self) {
            try StreamedFormatTests.thumbnail(Array(whole.prefix(200)), name: "cut.xcf")
        }
        #expect(cut.reason == "truncated XCF: the image's properties are damaged or cut short")
        // Cut in half: GIMP writes the bottom layer (9, the background) last, so its tiles are missing.
        let half = try StreamedFormatTests.thumbnail(Array(whole.prefix(whole.count / 2)), name: "half.xcf", size: 150)
        #expect(half.warnings.first == "a tile of layer 9 is left out: the file ends before its data does")
        #expect(half.bitmap.width == 150)
        var cinepaint = whole
        cinepaint.replaceSubrange(9..<13, with: Array("v100".utf8))
        let other = try #require(throws: VignetteError.self) { try StreamedFormatTests.thumbnail(cinepaint, name: "c.xcf") }
        #expect(other.reason == "unsupported XCF: CinePaint's XCF (version 100 and up) is another format")
    }
}
