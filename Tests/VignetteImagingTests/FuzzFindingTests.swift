import Foundation
import Testing
import VignetteCore
import VignetteImaging

/// Inputs the C fuzz harnesses found (Tests/Fixtures/fuzz), through the production path.
@Suite("C fuzz findings")
struct FuzzFindingTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().path + "/Fixtures/fuzz"

    @Test func aProgressiveHeaderOfTwoGigapixelsIsRefusedBeforeTheLowFrequencyDecoderRuns() throws {
        // jpeg-dc ran 38 s on this 4 KB file: a 31638 × 62055 progressive frame whose scans say
        // almost nothing. ImageDecoder checks the header first, so the decoder never sees it.
        let data = try Data(contentsOf: URL(fileURLWithPath: Self.folder + "/jpeg-dc/progressive-1963mp-header.jpg"))
        #expect(throws: VignetteError(.refused, "image is 31638 × 62055 pixels (1963 MP), over the limit of 100 MP")) {
            try data.withUnsafeBytes { try ImageDecoder.jpeg($0, request: ThumbnailRequest(maxPixelSize: 256)) }
        }
    }

    @Test func aFileThatCrashesLibRawIsAnErrorNotACrash() throws {
        // LibRaw 0.20.2 dereferences NULL in parse_tiff_ifd on this 10 KB file (fuzz_raw, in-process):
        // LibRaw runs in a forked child, whose death is reported.
        let data = try Data(contentsOf: URL(fileURLWithPath: Self.folder + "/raw/libraw-parse-tiff-ifd-segv.dng"))
        #expect(throws: VignetteError(.corrupt, "corrupt camera RAW: libraw crashed on this file (signal 11); nothing was read from it")) {
            try data.withUnsafeBytes { try ImageDecoder.cameraRaw($0, request: ThumbnailRequest(maxPixelSize: 256)) }
        }
    }

    @Test func aBitmapPreviewLongerThanItsPixelsIsRefused() throws {
        // LibRaw 0.20.2 reads a bitmap thumbnail's declared length into a buffer of its pixels.
        let data = try Data(contentsOf: URL(fileURLWithPath: Self.folder + "/raw/libraw-bitmap-thumb-overflow.dng"))
        #expect(throws: VignetteError.self) {
            try data.withUnsafeBytes { try ImageDecoder.cameraRaw($0, request: ThumbnailRequest(maxPixelSize: 256)) }
        }
    }

    @Test func aHEIFWithSeveralDecodingWarningsDecodesOrFailsCleanly() throws {
        // fuzz_heif found our code reading libheif's warning text after the next warning reused it.
        let data = try Data(contentsOf: URL(fileURLWithPath: Self.folder + "/heif/heif-warning-text-reuse.heic"))
        _ = try? data.withUnsafeBytes { try ImageDecoder.decode(.heif, $0, request: ThumbnailRequest(maxPixelSize: 256)) }
    }

    @Test func aJPEGXLWhoseColourHeaderFailsIsNotDecodedFurther() throws {
        // fuzz_jxl: libjxl 0.7 crashes when called again after an error in the colour encoding.
        let data = try Data(contentsOf: URL(fileURLWithPath: Self.folder + "/jxl/libjxl-call-after-error.jxl"))
        #expect(throws: VignetteError(.corrupt, "corrupt JPEG XL: libjxl: cannot decode the image")) {
            try data.withUnsafeBytes { try ImageDecoder.decode(.jpegXL, $0, request: ThumbnailRequest(maxPixelSize: 256)) }
        }
    }
}
