import Foundation
import Testing
import VignetteCore

@testable import VignetteImaging

/// Photoshop documents: the merged image in each colour mode and compression, written at test
/// time by ImageMagick from a fixture PNG and compared with that PNG converted the same way (not
/// with ImageMagick's reading of the PSD, which gets the transparency of its own files wrong);
/// damaged files made by hand.
@Suite("Photoshop documents")
struct PSDTests {
    private let base = Fixtures.root + "/color/base.png"

    /// A folder for one test's files, removed afterwards.
    private func withWork(_ body: (String) throws -> Void) throws {
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("psd-tests-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: work) }
        try body(work)
    }

    /// ImageMagick's convert of `arguments` into `output`.
    private func convert(_ arguments: [String], _ output: String) throws {
        #expect(try FormatCorpusTests.run(["convert"] + arguments + [output]) == 0, "\(arguments) \(output)")
    }

    private func read(_ path: String) throws -> [UInt8] { Array(try Data(contentsOf: URL(fileURLWithPath: path))) }

    private func decodePSD(_ bytes: [UInt8]) throws -> Bitmap {
        try bytes.withUnsafeBytes { try ImageDecoder.decode(.psd, $0, request: fullSize) }.bitmap
    }

    private func decodePNG(_ path: String) throws -> Bitmap {
        try read(path).withUnsafeBytes { try ImageDecoder.png($0, request: fullSize) }.bitmap
    }

    @Test(arguments: [(["-compress", "RLE"], "rle.psd"), (["-compress", "None"], "raw.psd"), ([], "large.psb")])
    func rgbIsTheSourcePixelForPixel(options: [String], name: String) throws {
        try withWork { work in
            try convert([base] + options, (name.hasSuffix(".psb") ? "PSB:" : "") + work + "/" + name)
            let bytes = try read(work + "/" + name)
            #expect(try decodePSD(bytes).pixels == (try decodePNG(base)).pixels)
            // Read from the file through its descriptor (rows gathered with pread), the same.
            let fd = open(work + "/" + name, O_RDONLY)
            defer { close(fd) }
            let streamed = try ImageDecoder.decode(.psd, descriptor: fd, size: bytes.count, request: fullSize).bitmap
            #expect(streamed.pixels == (try decodePNG(base)).pixels)
        }
    }

    @Test func theMergedTransparencyIsItsAlpha() throws {
        try withWork { work in
            try convert([base, "-alpha", "set", "-channel", "A", "-fx", "i/w", "+channel"], work + "/alpha.png")
            try convert([work + "/alpha.png"], work + "/alpha.psd")
            let ours = try decodePSD(try read(work + "/alpha.psd")), source = try decodePNG(work + "/alpha.png")
            let alpha = { (b: Bitmap) in stride(from: 3, to: b.pixels.count, by: 4).map { b.pixels[$0] } }
            #expect(alpha(ours) == alpha(source))
            #expect(psnr(ours, source) > 45)
        }
    }

    @Test(arguments: [
        ["-colorspace", "Gray", "-depth", "16"], ["-colorspace", "CMYK"], ["-colors", "16", "-type", "Palette"],
        ["-colorspace", "Gray", "-threshold", "50%", "-type", "Bilevel"],
    ])
    func greyCMYKPaletteAndBitmapModesAreTheSourceConvertedTheSameWay(options: [String]) throws {
        try withWork { work in
            try convert([base] + options, work + "/mode.psd")
            // The same conversion written as an 8-bit PNG (CMYK: the source itself).
            try convert([base] + (options.contains("CMYK") ? [] : options) + ["-depth", "8"], work + "/mode.png")
            let ours = try decodePSD(try read(work + "/mode.psd"))
            #expect(psnr(ours, try decodePNG(work + "/mode.png")) > 38, "\(options)")
        }
    }

    /// A PSD header (26 bytes) with empty colour-mode, resource and layer sections after it.
    private func header(channels: UInt16 = 3, height: UInt32 = 2, width: UInt32 = 2, depth: UInt16 = 8, mode: UInt16 = 3)
        -> [UInt8]
    {
        func be16(_ v: UInt16) -> [UInt8] { [UInt8(v >> 8), UInt8(v & 0xFF)] }
        func be32(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
        return Array("8BPS".utf8) + be16(1) + [0, 0, 0, 0, 0, 0] + be16(channels) + be32(height) + be32(width) + be16(depth)
            + be16(mode) + be32(0) + be32(0) + be32(0)
    }

    /// A 2 × 2 RGB PSD whose merged rows are white, with image resources: Version Info saying
    /// whether they are real, and Photoshop's JPEG thumbnail when `thumbnail` is given.
    private func document(realMerged: Bool, thumbnail: [UInt8]?) -> [UInt8] {
        func be16(_ v: Int) -> [UInt8] { [UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
        func be32(_ v: Int) -> [UInt8] { [UInt8(v >> 24 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
        func resource(_ id: Int, _ data: [UInt8]) -> [UInt8] {
            Array("8BIM".utf8) + be16(id) + [0, 0] + be32(data.count) + data + (data.count % 2 == 1 ? [0] : [])
        }
        var resources = resource(1057, be32(1) + [realMerged ? 1 : 0] + [0, 0, 0, 0, 0, 0, 0, 0])
        if let thumbnail {
            resources += resource(
                1036, be32(1) + be32(16) + be32(12) + be32(48) + be32(576) + be32(thumbnail.count) + be16(24) + be16(1) + thumbnail)
        }
        let head = Array(header().dropLast(8))  // the colour-mode section stays; resources and layers follow
        return head + be32(resources.count) + resources + be32(0) + [0, 0] + Array(repeating: 255, count: 12)
    }

    @Test func aDocumentSavedWithoutItsMergedImageShowsPhotoshopsOwnThumbnail() throws {
        let red = try ImageEncoder.jpeg(solid(16, 12, [255, 0, 0, 255]), quality: 95)
        // "Maximize compatibility" off: the white merged rows are not the picture, the thumbnail is.
        let standIn = try decodePSD(document(realMerged: false, thumbnail: red))
        #expect(standIn.width == 16 && standIn.height == 12)
        #expect(standIn.pixels[0] > 240 && standIn.pixels[1] < 20 && standIn.pixels[2] < 20)
        // Through the descriptor too.
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("psd-\(UUID().uuidString).psd").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let bytes = document(realMerged: false, thumbnail: red)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let fd = open(path, O_RDONLY)
        defer { close(fd) }
        #expect(try ImageDecoder.decode(.psd, descriptor: fd, size: bytes.count, request: fullSize).bitmap.pixels == standIn.pixels)
        // A real merged image is drawn even when there is a thumbnail.
        #expect(try decodePSD(document(realMerged: true, thumbnail: red)).pixels == Array(repeating: 255, count: 16))
        #expect(
            throws: VignetteError(
                .unsupported,
                "unsupported PSD: the document was saved without its merged image (\"Maximize compatibility\" off) and has no thumbnail of its own"
            )
        ) { try decodePSD(document(realMerged: false, thumbnail: nil)) }
    }

    @Test func damagedAndUnsupportedFilesAreCleanErrors() throws {
        let cases: [([UInt8], VignetteError)] = [
            (header(channels: 0), VignetteError(.corrupt, "corrupt PSD: the PSD header gives 0 channels (1 to 56 are allowed)")),
            (header(width: 40_000), VignetteError(.corrupt, "corrupt PSD: the PSD header gives a size of 40000 x 2 (1 to 30000 a side)")),
            (header(mode: 7), VignetteError(.unsupported, "unsupported PSD: the PSD colour mode 7 (multichannel) is not supported")),
            (header() + [0, 2], VignetteError(.unsupported, "unsupported PSD: the PSD's merged image is ZIP-compressed (not supported)")),
            // Raw rows: 3 channels of 2 rows of 2 bytes are needed; 7 bytes end in the first row of the second channel,
            // which the first output row needs.
            (
                header() + [0, 0] + Array(repeating: 9, count: 7),
                VignetteError(.corrupt, "truncated PSD: the PSD's merged image is truncated (row 1 of 2)")
            ),
            // PackBits: a row claiming more bytes than a row can take.
            (
                header(channels: 1, height: 1, width: 2, mode: 1) + [0, 1, 0, 9] + Array(repeating: 0, count: 9),
                VignetteError(.corrupt, "corrupt PSD: the PSD's merged image has a damaged row (1 of 1)")
            ),
            // 90,000 row lengths announced by a file of a few bytes: refused before the table is allocated.
            (
                header(channels: 3, height: 30000, width: 2) + [0, 1, 0, 2],
                VignetteError(.corrupt, "truncated PSD: the PSD ends inside its table of row lengths")
            ),
            (
                Array(header().prefix(28)),
                VignetteError(.corrupt, "truncated PSD: the PSD colour-mode section runs past the end of the file")
            ),
        ]
        for (bytes, expected) in cases {
            #expect(throws: expected) { try decodePSD(bytes) }
        }
    }
}
