import Foundation
import Testing
import VignetteCore

@testable import VignetteImaging

/// DPX from our own decoder: files ImageMagick and FFmpeg write at test time, in each depth, packing
/// and byte order they write, against FFmpeg's own reading; files written here for the orientations,
/// the Cineon log conversion and what a file that cannot be shown says.
@Suite("DPX")
struct DPXTests {
    /// How each tool is asked for a DPX of `source`, by the name the file gets.
    static let writers: [String: [String]] = [
        "im-rgb8": ["convert", "SRC", "-depth", "8"], "im-rgb10": ["convert", "SRC", "-depth", "10"],
        "im-rgb12": ["convert", "SRC", "-depth", "12"], "im-rgb16": ["convert", "SRC", "-depth", "16"],
        "im-grey10": ["convert", "SRC", "-colorspace", "gray", "-depth", "10"],
        "im-rgba16": [
            "convert", "SRC", "(", "+clone", "-fx", "i/w", ")", "-alpha", "off", "-compose", "CopyOpacity", "-composite", "-depth", "16",
        ],
        "ff-gbrp10le": ["ffmpeg", "-pix_fmt", "gbrp10le"], "ff-gbrp12be": ["ffmpeg", "-pix_fmt", "gbrp12be"],
        "ff-rgb48le": ["ffmpeg", "-pix_fmt", "rgb48le"], "ff-rgba64be": ["ffmpeg", "-pix_fmt", "rgba64be"],
        "ff-gray16le": ["ffmpeg", "-pix_fmt", "gray16le"], "ff-rgb24": ["ffmpeg", "-pix_fmt", "rgb24"],
    ]

    @Test(arguments: writers.keys.sorted())
    func aFileImageMagickOrFFmpegWroteMatchesFFmpegsReading(name: String) throws {
        let folder = try JPEG2000Tests.workFolder("dpx-\(name)")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // 61 × 41 with alpha rising left to right: lines whose samples fill no whole word.
        let source = folder + "/s.png"
        let flower = Fixtures.root + "/jpeg/pillow/flower.jpg"
        #expect(try FormatCorpusTests.run(["convert", flower, "-resize", "61x41!", "PNG24:" + source]) == 0)
        let dpx = folder + "/f.dpx"
        let writer = try #require(Self.writers[name])
        let command =
            writer[0] == "ffmpeg"
            ? ["ffmpeg", "-loglevel", "error", "-y", "-i", source] + writer.dropFirst() + [dpx]
            : writer.map { $0 == "SRC" ? source : $0 } + [dpx]
        #expect(try FormatCorpusTests.run(command) == 0)
        let reference = folder + "/r.png"
        #expect(try FormatCorpusTests.run(["ffmpeg", "-loglevel", "error", "-y", "-i", dpx, "-pix_fmt", "rgba", reference]) == 0)
        let ours = try StreamedFormatTests.thumbnail(Array(try Data(contentsOf: URL(fileURLWithPath: dpx))), name: "f.dpx", size: 61)
        let theirs = try referencePNG(reference, side: 61)
        #expect(ours.bitmap.width == 61 && ours.bitmap.height == 41)
        // FFmpeg rounds 10-, 12- and 16-bit samples to 8 bits its own way: within one level.
        let worst = zip(ours.bitmap.pixels, theirs.pixels).map { abs(Int($0) - Int($1)) }.max()
        #expect(worst != nil && worst! <= 1, "\(name): \(worst ?? -1)")
    }

    /// A big-endian 10-bit DPX of `pixels` (rows of RGB code values), packing 1, in orientation
    /// `turn` with transfer characteristic `transfer`.
    static func file(_ pixels: [[[UInt32]]], turn: UInt16 = 0, transfer: UInt8 = 2, descriptor: UInt8 = 50, packing: UInt16 = 1)
        -> [UInt8]
    {
        func be32(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
        var header = [UInt8](repeating: 0, count: 1664)
        header.replaceSubrange(0..<4, with: Array("SDPX".utf8))
        header.replaceSubrange(4..<8, with: be32(1664))
        header.replaceSubrange(8..<12, with: Array("V2.0".utf8))
        header.replaceSubrange(768..<770, with: [UInt8(turn >> 8), UInt8(turn & 0xFF)])
        header.replaceSubrange(770..<772, with: [0, 1])
        header.replaceSubrange(772..<776, with: be32(UInt32(pixels[0].count)))
        header.replaceSubrange(776..<780, with: be32(UInt32(pixels.count)))
        header[800] = descriptor
        header[801] = transfer
        header[803] = 10
        header.replaceSubrange(804..<806, with: [UInt8(packing >> 8), UInt8(packing & 0xFF)])
        header.replaceSubrange(808..<812, with: be32(1664))
        var body: [UInt8] = []
        for row in pixels {
            for p in row { body += be32(p[0] << 22 | p[1] << 12 | p[2] << 2) }
        }
        return header + body
    }

    @Test func theFourOrientationsGiveTheSamePicture() throws {
        // Red, green / blue, white as stored top-down, left to right; each orientation stores them
        // mirrored as it says, to be turned back.
        let r: [UInt32] = [1023, 0, 0]
        let g: [UInt32] = [0, 1023, 0]
        let b: [UInt32] = [0, 0, 1023]
        let w: [UInt32] = [1023, 1023, 1023]
        let stored: [UInt16: [[[UInt32]]]] = [
            0: [[r, g], [b, w]], 1: [[g, r], [w, b]], 2: [[b, w], [r, g]], 3: [[w, b], [g, r]],
        ]
        for (turn, rows) in stored {
            let bitmap = try StreamedFormatTests.thumbnail(Self.file(rows, turn: turn), name: "t.dpx", size: 2).bitmap
            #expect(bitmap.pixels == [255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 255, 255, 255, 255], "orientation \(turn)")
        }
    }

    @Test func aFilmScanInPrintingDensityIsShownThroughTheCineonCurve() throws {
        // Reference black (95) is black, reference white (685) white, and 445 is light
        // (10^((445 - 685) × 0.002 / 0.6) - b) / (1 - b) with b = 10^((95 - 685) × 0.002 / 0.6):
        // 0.1493, sRGB 0.4227, level 108.
        let scan = Self.file([[[95, 445, 685], [0, 1023, 600]]], transfer: 1)
        let bitmap = try StreamedFormatTests.thumbnail(scan, name: "scan.dpx", size: 2).bitmap
        #expect(bitmap.pixels[0..<3] == [0, 108, 255])
        #expect(bitmap.pixels[4] == 0 && bitmap.pixels[5] == 255)
        // The same code values in linear transfer are shown as stored.
        let video = try StreamedFormatTests.thumbnail(Self.file([[[95, 445, 685], [0, 1023, 600]]]), name: "v.dpx", size: 2).bitmap
        #expect(video.pixels[0..<3] == [24, 111, 171])
    }

    @Test func whatCannotBeShownSaysWhy() throws {
        func reason(_ bytes: [UInt8]) throws -> String {
            try #require(throws: VignetteError.self) { try StreamedFormatTests.thumbnail(bytes, name: "x.dpx") }.reason
        }
        let pixels: [[[UInt32]]] = [[[1, 2, 3], [4, 5, 6]], [[7, 8, 9], [10, 11, 12]]]
        let whole = Self.file(pixels)
        #expect(try reason(Array(whole.dropLast(2))) == "truncated DPX: the file is too short for the pixels its header gives")
        #expect(try reason(Array(whole.prefix(1000))) == "truncated DPX: the file ends inside its headers")
        #expect(
            try reason(Self.file(pixels, descriptor: 100))
                == "unsupported DPX: image element descriptor 100 (luma, one component, RGB, RGBA and ABGR are read)")
        #expect(
            try reason(Self.file(pixels, packing: 0))
                == "unsupported DPX: 10-bit samples with packing 0 (filled words, packing 1 or 2, are read)")
        #expect(try reason(Self.file(pixels, turn: 5)) == "unsupported DPX: orientation 5 (lines as columns) is not read")
        var coded = whole
        coded[807] = 1
        #expect(try reason(coded) == "unsupported DPX: run-length coded DPX is not read")
        // A header promising 100,000² pixels in a few bytes: refused at open, before anything is allocated.
        var bomb = whole
        bomb.replaceSubrange(772..<780, with: [0, 1, 0x86, 0xA0, 0, 1, 0x86, 0xA0])
        #expect(try reason(bomb) == "truncated DPX: the file is too short for the pixels its header gives")
    }
}
