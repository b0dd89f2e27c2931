import CVignetteCodecs
import Foundation
import Testing
import VignetteCore

@testable import VignetteImaging

/// The streamed decoders (GIF, TIFF, BMP, ICO, TGA, PNM, HEIF/AVIF, JPEG XL, JPEG 2000, camera RAW) through
/// `ImageThumbnailer`: header-first limits, first frames only, reduced copies, orientation.
@Suite("Streamed formats")
struct StreamedFormatTests {
    static let resolver = TypeResolver()

    static func thumbnail(_ bytes: [UInt8], name: String, size: Int = 128, limits: ImageLimits = .standard) throws -> DecodedImage {
        let type = resolver.resolve(bytes: bytes, filename: name).type
        return try ImageThumbnailer(resolver: resolver, limits: limits).thumbnail(
            bytes: bytes, type: type, request: ThumbnailRequest(maxPixelSize: size))
    }

    static func fixture(_ path: String, size: Int = 128) throws -> DecodedImage {
        try thumbnail(try Fixtures.bytes(path), name: (path as NSString).lastPathComponent, size: size)
    }

    @Test func aTenThousandFrameGIFIsReadForItsFirstFrameOnly() throws {
        // Frames 2…10,000 announce an LZW code size giflib refuses: decoding any of them would fail.
        var bytes = try Fixtures.bytes("formats/gif/video-001.gif")
        #expect(bytes.last == 0x3B)
        bytes.removeLast()
        let frame: [UInt8] = [0x2C, 0, 0, 0, 0, 8, 0, 8, 0, 0, 12, 3, 1, 2, 3, 0]
        for _ in 1..<10_000 { bytes += frame }
        bytes.append(0x3B)
        let first = try Self.thumbnail(bytes, name: "long.gif")
        let alone = try Self.fixture("formats/gif/video-001.gif")
        #expect(first.bitmap.pixels == alone.bitmap.pixels)
    }

    @Test func anInterlacedGIFGivesTheSamePictureAsItsNonInterlacedTwin() throws {
        let plain = try Self.fixture("formats/gif/video-001.gif", size: 1024)
        let interlaced = try Self.fixture("formats/gif/video-001.interlaced.gif", size: 1024)
        #expect(plain.bitmap.width == interlaced.bitmap.width && plain.bitmap.pixels == interlaced.bitmap.pixels)
    }

    /// Headers of 65535 × 65535 pixels and next to nothing else, by file name.
    static func bomb(_ name: String) -> [UInt8] {
        let side: [UInt8] = [0xFF, 0xFF, 0, 0]
        switch name {
        case "huge.gif":
            // The logical screen, then a 1 × 1 first frame (the canvas is the screen).
            let frame: [UInt8] = [0x2C, 0, 0, 0, 0, 1, 0, 1, 0, 0, 2, 2, 0x44, 0x01, 0]
            return Array("GIF89a".utf8) + [0xFF, 0xFF, 0xFF, 0xFF, 0, 0, 0] + frame + [0x3B]
        case "huge.bmp":
            let file: [UInt8] = Array("BM".utf8) + [58, 0, 0, 0, 0, 0, 0, 0, 54, 0, 0, 0]
            let info: [UInt8] = [40, 0, 0, 0] + side + side + [1, 0, 24, 0]
            return file + info + [UInt8](repeating: 0, count: 28)
        case "huge.ppm":
            return Array("P6\n65535 65535\n255\n".utf8) + [0, 0, 0]
        default:
            // A complete baseline directory (8-bit grey, one strip) over 64 bytes of data.
            func entry(_ tag: UInt16, _ type: UInt16, _ value: [UInt8]) -> [UInt8] {
                [UInt8(tag & 0xFF), UInt8(tag >> 8), UInt8(type), 0, 1, 0, 0, 0] + value + [UInt8](repeating: 0, count: 4 - value.count)
            }
            let entries =
                entry(256, 4, side) + entry(257, 4, side) + entry(258, 3, [8, 0]) + entry(259, 3, [1, 0]) + entry(262, 3, [1, 0])
                + entry(273, 4, [110, 0, 0, 0]) + entry(278, 4, side) + entry(279, 4, [64, 0, 0, 0])
            return Array("II*\0".utf8) + [8, 0, 0, 0, 8, 0] + entries + [0, 0, 0, 0] + [UInt8](repeating: 0, count: 64)
        }
    }

    @Test(arguments: ["huge.gif", "huge.bmp", "huge.ppm", "huge.tif"])
    func aPixelBombHeaderIsRefusedBeforeDecoding(name: String) throws {
        #expect(throws: VignetteError(.refused, "image is 65535 × 65535 pixels (4295 MP), over the limit of 100 MP")) {
            try Self.thumbnail(Self.bomb(name), name: name)
        }
    }

    @Test func aPyramidTIFFIsReadFromItsSmallestCopyThatCoversTheTarget() throws {
        // A 4-level pyramid (libvips): the budget fits the 256-pixel level, not the full page.
        let bytes = try Fixtures.bytes("pyramid.tif")
        let budget = ImageLimits(memoryBudget: MemoryBudget(bytes: 2_000_000))
        let small = try Self.thumbnail(bytes, name: "pyramid.tif", size: 128, limits: budget)
        #expect(small.sourceWidth == 2048 && small.bitmap.width == 128)
        let full = try Self.thumbnail(bytes, name: "pyramid.tif", size: 2048)
        #expect(full.bitmap.width == 2048)
    }

    @Test(arguments: [("formats/tiff/g4_orientation_6.tif", 128, 19), ("formats/other-images/rot1mir0.avif", 128, 85)])
    func orientationComesOutAsTheReferenceDecoderShowsIt(path: String, width: Int, height: Int) throws {
        // g4_orientation_6.tif is stored 88 × 590 with Orientation 6; rot1mir0.avif stored
        // 427 × 640 with irot 1 (heif-convert shows it 640 × 427).
        let image = try Self.fixture(path)
        #expect(image.bitmap.width == width && image.bitmap.height == height)
    }

    /// `image` shrunk to `width × height` by the downscaler, as a thumbnail of the full decode is.
    static func shrunk(_ image: Bitmap, _ width: Int, _ height: Int) -> Bitmap {
        let scaler = Downscaler(inWidth: image.width, inHeight: image.height, channels: 4, outWidth: width, outHeight: height)
        image.pixels.withUnsafeBufferPointer { scaler.push($0.baseAddress!, stride: image.width * 4, count: image.height) }
        return scaler.finish()
    }

    @Test(arguments: [
        // rot1mir0: 427 × 640 stored, irot 1; its AV1 picture is shrunk 6 times for 32 px, 3 times
        // for 96 px (partial last boxes: 142.3 rows), without in-loop filters both; hopper twice.
        // transparency.avif has an AV1 alpha plane: decoded by the same plugin, never shrunk.
        ("formats/other-images/rot1mir0.avif", 32), ("formats/other-images/rot1mir0.avif", 96),
        ("formats/other-images/transparency.avif", 16), ("formats/other-images/hopper.avif", 32),
    ])
    func anAVIFThumbnailFromTheShrunkPictureMatchesTheFullDecode(path: String, size: Int) throws {
        let small = try Self.fixture(path, size: size)
        let full = try Self.fixture(path, size: 1 << 14)
        #expect(small.sourceWidth == full.bitmap.width && small.sourceHeight == full.bitmap.height)
        let reference = Self.shrunk(full.bitmap, small.bitmap.width, small.bitmap.height)
        #expect(psnr(small.bitmap, reference) >= 35, "\(path) at \(size) px: \(psnr(small.bitmap, reference)) dB")
        let alpha = zip(small.bitmap.pixels, reference.pixels).enumerated().filter { $0.offset % 4 == 3 }
        #expect(alpha.allSatisfy { abs(Int($0.element.0) - Int($0.element.1)) <= 8 }, "\(path): alpha differs")
    }

    @Test(arguments: [
        // 320 × 200 (320 × 320): at most 1/8 of that, only the DC (lossy) or the whole frame
        // (lossless, modular: splines) is streamed into 8 × 8 block sums, with no full-size buffer.
        // base-alpha has an alpha gradient: colour is alpha-weighted. They came out at 46-50 dB.
        ("color/prophoto.jxl", 16), ("color/base-alpha.jxl", 24), ("formats/other-images/splines.jxl", 32),
    ])
    func aJPEGXLThumbnailFromTheDCMatchesTheFullDecode(path: String, size: Int) throws {
        let small = try Self.fixture(path, size: size)
        let full = try Self.fixture(path, size: 1 << 14)
        #expect(small.sourceWidth == full.bitmap.width && small.sourceHeight == full.bitmap.height)
        #expect(max(small.bitmap.width, small.bitmap.height) == size)
        let reference = Self.shrunk(full.bitmap, small.bitmap.width, small.bitmap.height)
        #expect(psnr(small.bitmap, reference) >= 40, "\(path) at \(size) px: \(psnr(small.bitmap, reference)) dB")
        let alpha = zip(small.bitmap.pixels, reference.pixels).enumerated().filter { $0.offset % 4 == 3 }
        #expect(alpha.allSatisfy { abs(Int($0.element.0) - Int($0.element.1)) <= 8 }, "\(path): alpha differs")
    }

    /// libheif, libjxl and OpenJPEG decode in `vignette-decode`, a fresh process (built beside the tests by
    /// `make test`), and when it is not there in this test program started afresh (what a program using
    /// the library gets): the same picture either way.
    // Serialized: one case unsets the process-wide helper while the other counts its starts. No fork
    // leg: turning self-starts off would make the suites running beside this one fork too, with the
    // hazard scripts/c-checks.sh shows; that check reads through a fork as its control.
    // Sibling suites start children too, so the counts only show that the route was taken.
    @Test(
        .serialized,
        arguments: [
            "formats/other-images/cropped_traffic_light.jxl", "formats/other-images/hopper.avif",
            "formats/other-images/test-card-lossless.jp2",
        ])
    func isolatedDecodersRunInTheHelperProgramOrInThisProgram(path: String) throws {
        let helper = try #require(
            ImageDecoder.StreamedFormat.helper, "vignette-decode is not built beside the test binary (make test builds it)")
        let before = vgn_isolate_helper_starts()
        let viaHelper = try Self.fixture(path, size: 64)
        #expect(vgn_isolate_helper_starts() > before)
        vgn_isolate_set_helper(nil)
        defer { vgn_isolate_set_helper(helper) }
        let selfBefore = vgn_isolate_self_starts()
        let viaSelf = try Self.fixture(path, size: 64)
        #expect(vgn_isolate_self_starts() > selfBefore)
        #expect(viaSelf.bitmap == viaHelper.bitmap)
    }

    /// Every TIFF and GIF fixture (the broken ones too) and the pyramid: the formats whose
    /// decoders read files through their descriptor.
    static let fileReadFixtures: [String] = {
        let suffixes = [".tif", ".tiff", ".gif"]
        return ["tiff", "gif"].flatMap { folder in
            let files = (FileManager.default.enumerator(atPath: Fixtures.root + "/formats/" + folder)?.allObjects as? [String] ?? [])
            return files.filter { file in suffixes.contains { file.hasSuffix($0) } }.sorted().map { "formats/\(folder)/" + $0 }
        } + ["pyramid.tif"]
    }()

    /// The thumbnail of the fixture read through its descriptor, as files are.
    static func thumbnailThroughDescriptor(_ path: String, size: Int, limits: ImageLimits = .standard) throws -> DecodedImage {
        let full = Fixtures.root + "/" + path
        let bytes = try Fixtures.bytes(path)
        let type = resolver.resolve(bytes: bytes, filename: (path as NSString).lastPathComponent).type
        let thumbnailer = ImageThumbnailer(resolver: resolver, limits: limits)
        #expect(thumbnailer.readsFiles(of: type), "\(path): \(type.identifier)")
        let fd = open(full, O_RDONLY | O_CLOEXEC)
        #expect(fd >= 0)
        defer { close(fd) }
        return try thumbnailer.thumbnail(descriptor: fd, size: bytes.count, type: type, request: ThumbnailRequest(maxPixelSize: size))
    }

    @Test(arguments: fileReadFixtures)
    func aTIFFOrGIFReadThroughItsDescriptorIsTheSameAsFromMemory(path: String) throws {
        // Same pixels, warnings and kinds of error (damaged files included) either way; 64 px
        // reads the pyramid's reduced copy.
        for size in [64, 1 << 14] {
            let memory = Result { try Self.fixture(path, size: size) }
            let file = Result { try Self.thumbnailThroughDescriptor(path, size: size) }
            switch (memory, file) {
            case (.success(let a), .success(let b)):
                #expect(a.sourceWidth == b.sourceWidth && a.sourceHeight == b.sourceHeight, "\(path)")
                #expect(a.bitmap.width == b.bitmap.width && a.bitmap.pixels == b.bitmap.pixels, "\(path) at \(size) px")
                #expect(a.warnings == b.warnings, "\(path)")
            case (.failure(let a as VignetteError), .failure(let b as VignetteError)):
                // The same kind ("truncated TIFF"); libtiff words some read errors differently
                // when it reads a file rather than mapped memory.
                #expect(a.code == b.code && a.reason.prefix { $0 != ":" } == b.reason.prefix { $0 != ":" }, "\(path): \(a) | \(b)")
            default:
                Issue.record("\(path) at \(size) px: \(memory) from memory, \(file) from the file")
            }
        }
    }

    @Test func anEmptyTIFFOrGIFFileIsCorrupt() throws {
        #expect(throws: VignetteError(.corrupt, "corrupt TIFF: the file is empty")) {
            try ImageDecoder.decode(.tiff, descriptor: -1, size: 0, request: ThumbnailRequest(maxPixelSize: 64))
        }
        #expect(throws: VignetteError(.corrupt, "corrupt GIF: the file is empty")) {
            try ImageDecoder.decode(.gif, descriptor: -1, size: 0, request: ThumbnailRequest(maxPixelSize: 64))
        }
    }

    @Test func anICOGivesTheEntryThatCoversTheTarget() throws {
        let small = try Self.fixture("formats/ico/python.ico", size: 16)
        let large = try Self.fixture("formats/ico/python.ico", size: 256)
        #expect(small.sourceWidth < large.sourceWidth)
        #expect(small.bitmap.width == 16)
    }

    @Test func aTruncatedFileNamesTheLibrarysReason() throws {
        let bytes = Array(try Fixtures.bytes("formats/gif/video-001.gif").prefix(400))
        #expect(throws: VignetteError.self) { try Self.thumbnail(bytes, name: "cut.gif") }
    }

    @Test(arguments: [
        ("raw/IMG_5952.CR2", 1728, 1152, 256, 171), ("raw/fujifilm-s5pro-exiftool.raf", 160, 120, 160, 120),
        ("raw/eos30d-crop-orient6.dng", 240, 160, 160, 240), ("raw/hdrmerge-eos30d-orient6.dng", 300, 200, 171, 256),
    ])
    func aCameraRAWIsShownByItsEmbeddedPreview(path: String, sourceWidth: Int, sourceHeight: Int, width: Int, height: Int) throws {
        // The CR2 and RAF are real camera files (their previews JPEG); eos30d-crop-orient6.dng has a bitmap
        // preview and Orientation 6; the HDRMerge DNG (600 × 400 raw, a 256 × 171 bitmap in IFD0) is
        // shown by its 300 × 200 JPEG preview, turned by its Orientation 6.
        let image = try Self.fixture(path, size: 256)
        #expect(image.sourceWidth == sourceWidth && image.sourceHeight == sourceHeight)
        #expect(image.bitmap.width == width && image.bitmap.height == height)
    }

    @Test(arguments: [
        // Where exiftool finds the JPEG preview (-PreviewImageStart/-PreviewImageLength; the RAF's
        // -ThumbnailOffset/-ThumbnailLength) and the RAW's orientation.
        ("raw/hdrmerge-eos30d-orient6.dng", 398_666, 10_836, ImageOrientation.right),
        ("raw/IMG_5952.CR2", 83_355, 373_174, ImageOrientation.up),
        ("raw/fujifilm-s5pro-exiftool.raf", 2_704, 9_362, ImageOrientation.up),
    ])
    func aCameraRAWsThumbnailIsItsJPEGPreviewTurnedUpright(path: String, start: Int, length: Int, orientation: ImageOrientation) throws {
        let bytes = try Fixtures.bytes(path)
        let preview = Array(bytes[start..<(start + length)])
        // A JPEG starts there (the RAF's length counts 9 zero bytes of padding after its end marker).
        #expect(preview.prefix(3) == [0xFF, 0xD8, 0xFF])
        let fromRAW = try Self.thumbnail(bytes, name: (path as NSString).lastPathComponent, size: 128)
        let fromJPEG = try Self.thumbnail(preview, name: "preview.jpg", size: 128)
        #expect(fromRAW.sourceWidth == fromJPEG.sourceWidth && fromRAW.sourceHeight == fromJPEG.sourceHeight)
        let upright = fromJPEG.bitmap.applying(orientation)
        #expect(fromRAW.bitmap.width == upright.width && fromRAW.bitmap.height == upright.height)
        #expect(fromRAW.bitmap.pixels == upright.pixels)
    }

    @Test func aRealDNGCutBeforeItsPreviewSaysSo() throws {
        #expect(throws: VignetteError(.corrupt, "truncated camera RAW: the raw file's embedded preview lies outside the file")) {
            try Self.fixture("raw/iphone12pro-exiv2.dng")
        }
        #expect(throws: VignetteError(.unsupported, "unsupported camera RAW: the raw file has no usable embedded preview")) {
            try Self.fixture("raw/eos30d-crop-nopreview.dng")
        }
    }
}
