import Foundation
import Testing
import VignetteCore

@testable import VignetteImaging

func jpegThumbnail(_ relative: String, size: Int = 96) throws -> DecodedImage {
    let data = try Fixtures.bytes("jpeg/" + relative)
    return try data.withUnsafeBytes { try ImageDecoder.jpeg($0, request: ThumbnailRequest(maxPixelSize: size)) }
}

@Suite("JPEG decoding")
struct JPEGDecodingTests {
    /// Every row of the corpus manifest: what Debian's djpeg does with the file.
    static let manifest: [(file: String, djpeg: String)] = {
        (try? Fixtures.tsv("jpeg/MANIFEST.tsv"))?.map { ($0[0], $0.last ?? "") } ?? []
    }()

    @Test func everyFileDjpegDecodesGivesAThumbnailAndTheOthersAClearError() throws {
        #expect(Self.manifest.count == 119)
        for (file, djpeg) in Self.manifest {
            if djpeg.hasPrefix("fatal") {
                do {
                    _ = try jpegThumbnail(file)
                    Issue.record("\(file): decoded, but djpeg fails on it (\(djpeg))")
                } catch let error as VignetteError {
                    #expect([.corrupt, .unsupported, .refused].contains(error.code), "\(file): \(error)")
                }
            } else {
                let image = try jpegThumbnail(file)
                #expect(max(image.bitmap.width, image.bitmap.height) <= 96, "\(file)")
                #expect(image.bitmap.width > 0 && image.bitmap.height > 0)
                if djpeg.contains("Premature end of JPEG file") {
                    #expect(!image.warnings.isEmpty, "\(file): djpeg warns (\(djpeg)) but we said nothing")
                }
            }
        }
    }

    @Test func twelveBitIsReportedAsUnsupported() throws {
        #expect(throws: VignetteError.self) { try jpegThumbnail("libjpeg-turbo/testorig12.jpg") }
        #expect(throws: VignetteError(.unsupported, "unsupported JPEG: 12-bit JPEG is not supported")) {
            try jpegThumbnail("libjpeg-turbo/testorig12.jpg")
        }
    }

    @Test func losslessJPEGIsReportedAsUnsupported() throws {
        // A lossless (SOF3) frame header in place of the baseline one.
        var data = try Fixtures.bytes("jpeg/libjpeg-turbo/testorig.jpg")
        let sof = try #require(data.indices.first { data[$0] == 0xFF && data[$0 + 1] == 0xC0 })
        data[sof + 1] = 0xC3
        #expect(throws: VignetteError(.unsupported, "unsupported JPEG: lossless JPEG is not supported")) {
            _ = try data.withUnsafeBytes { try ImageDecoder.jpeg($0, request: ThumbnailRequest()) }
        }
    }

    @Test func exifOrientationTurnsEveryExampleUpright() throws {
        for shape in ["Landscape", "Portrait"] {
            let upright = try jpegThumbnail("exif-orientation/\(shape)_1.jpg").bitmap
            for n in [0, 2, 3, 4, 5, 6, 7, 8] {
                let image = try jpegThumbnail("exif-orientation/\(shape)_\(n).jpg")
                #expect(image.orientation.rawValue == (n == 0 ? 1 : n))
                #expect((image.bitmap.width, image.bitmap.height) == (upright.width, upright.height), "\(shape)_\(n)")
                if image.bitmap.width == upright.width && image.bitmap.height == upright.height {
                    #expect(psnr(image.bitmap, upright) > 25, "\(shape)_\(n): \(psnr(image.bitmap, upright)) dB")
                }
            }
            // The check can fail: the stored pixels of _3 without the turn are far from upright.
            let stored = try jpegThumbnail("exif-orientation/\(shape)_3.jpg").bitmap.applying(.down)
            #expect(psnr(stored, upright) < 15)
        }
    }

    @Test func cmykFilesHaveTheRightColours() throws {
        // Photoshop's inverted CMYK against the RGB original of the same picture.
        let cmyk = try jpegThumbnail("pillow/pil_sample_cmyk.jpg").bitmap
        let rgb = try jpegThumbnail("pillow/pil_sample_rgb.jpg").bitmap
        #expect(psnr(cmyk, rgb) > 28, "\(psnr(cmyk, rgb)) dB")
        // Go's CMYK file against ImageMagick's rendering of it.
        let go = try jpegThumbnail("go-image/video-001.cmyk.jpeg").bitmap
        let reference = try Fixtures.bytes("reference/video-001.cmyk.imagemagick-96.png").withUnsafeBytes {
            try ImageDecoder.png($0, request: fullSize)
        }.bitmap
        #expect(psnr(go, reference) > 40, "\(psnr(go, reference)) dB")
    }

    @Test func progressiveShortcutMatchesTheBaselineImage() throws {
        // The same 150×103 picture stored progressive and baseline. At 9 px both decode at 1/8
        // (19×13 still leaves 2× for the reduce): the DC-scan decoder must agree with libjpeg.
        let progressive = try jpegThumbnail("go-image/video-001.progressive.jpeg", size: 9).bitmap
        let baseline = try jpegThumbnail("go-image/video-001.jpeg", size: 9).bitmap
        #expect(psnr(progressive, baseline) > 35)
    }

    @Test func grayscaleBecomesGrayRGB() throws {
        let image = try jpegThumbnail("libjpeg-turbo/testimggray.jpg").bitmap
        for i in stride(from: 0, to: image.pixels.count, by: 4) {
            #expect(image.pixels[i] == image.pixels[i + 1] && image.pixels[i + 1] == image.pixels[i + 2])
        }
    }

    @Test func damagedFilesGiveAnErrorOrAPartialImage() throws {
        for name in try Fixtures.files(in: "jpeg/derived") where name.hasSuffix(".jpg") {
            do {
                let image = try jpegThumbnail("derived/" + name)
                #expect(image.bitmap.width > 0)
            } catch let error as VignetteError {
                #expect(error.reason.contains("JPEG"), "\(name): \(error)")
            }
        }
    }
}
