import Foundation
import Testing
import VignetteCore
import VignetteImaging

/// Every GIF, TIFF, BMP, ICO/CUR, ICNS, WebP, AVIF/HEIF, JPEG XL, JPEG 2000, TGA, PNM, PFM, QOI,
/// DDS, OpenEXR, PCX, SGI, Sun raster, PSD, XPM and XBM file of the shared mixed corpus (copied to Fixtures/formats with its MANIFEST.tsv) against
/// each format's reference decoder: what the reference decodes, the built-in decoders thumbnail
/// within 25 dB (35 dB on average per format, the known disagreements aside) of the reference's
/// own pixels shrunk the same way; what it refuses, we refuse with an error that names the reason.
@Suite("Formats against their reference decoders")
struct FormatCorpusTests {
    /// The reference decoder of each format (named in the closing note and bench/RESULTS.md).
    enum Reference: String {
        case vips, imageMagick = "ImageMagick", netpbm, heifConvert = "heif-convert", djxl, openJPEG = "opj_decompress", icns2png, ffmpeg,
            vipsSRGB = "vips colourspace", jbgtopbm

        /// The command that writes `input`'s first picture (ICNS: the entry `frame` pixels wide) to
        /// `output` as PNG (icns2png: every entry, in `output`'s folder).
        func command(_ input: String, _ output: String, frame: Int) -> [String] {
            switch self {
            case .vips: ["vips", "copy", input, output]
            case .imageMagick: ["convert", "\(input)[\(frame)]", "-depth", "8", "PNG32:\(output)"]
            case .netpbm: ["sh", "-c", "tgatoppm \"$0\" | pnmtopng > \"$1\"", input, output]
            case .jbgtopbm: ["sh", "-c", "jbgtopbm \"$0\" | pnmtopng > \"$1\"", input, output]
            case .heifConvert: ["heif-convert", input, output]
            case .djxl: ["djxl", input, output]
            case .openJPEG: ["opj_decompress", "-i", input, "-o", output]
            case .ffmpeg: ["ffmpeg", "-v", "error", "-i", input, "-frames:v", "1", "-pix_fmt", "rgba", output]
            case .vipsSRGB: ["vips", "colourspace", input, output, "srgb"]
            // every entry, as NAME_16x16x32.png … (its -s picks ic09 for 256)
            case .icns2png: ["icns2png", "-x", "-o", (output as NSString).deletingLastPathComponent, input]
            }
        }
    }

    /// The format a fixture counts under in the table, and its reference decoder.
    static func format(of path: String) -> (name: String, reference: Reference) {
        let ext = (path as NSString).pathExtension.lowercased()
        switch (path.split(separator: "/").first.map(String.init) ?? "", ext) {
        case ("gif", _): return ("GIF", .vips)
        case ("webp", _): return ("WebP", .vips)
        case ("tiff", _): return ("TIFF", .imageMagick)
        case ("bmp", _): return ("BMP", .imageMagick)
        case (_, "icns"): return ("ICNS", .icns2png)
        case ("ico", _): return ("ICO/CUR", .imageMagick)
        case (_, "avif"), (_, "heif"): return ("AVIF/HEIF", .heifConvert)
        case (_, "jxl"): return ("JPEG XL", .djxl)
        case (_, "jp2"), (_, "j2k"): return ("JPEG 2000", .openJPEG)
        case (_, "xpm"), (_, "xbm"): return ("XPM/XBM", .imageMagick)
        case (_, "qoi"): return ("QOI", .ffmpeg)
        case (_, "pfm"): return ("PFM", .imageMagick)
        case (_, "dds"): return ("DDS", .imageMagick)
        case (_, "exr"): return ("OpenEXR", .vipsSRGB)
        case (_, "jbg"): return ("JBIG", .jbgtopbm)
        case (_, "pcx"), (_, "sgi"), (_, "ras"): return ("PCX/SGI/Sun", .imageMagick)
        case (_, "psd"): return ("PSD", .imageMagick)
        // ImageMagick 6.9.11 turns bottom-left TGAs upside down; netpbm reads them as the spec says.
        case (_, "tga"): return ("TGA", .netpbm)
        default: return ("PNM", .imageMagick)
        }
    }

    /// Files where the reference is wrong or we differ on purpose: not held to the PSNR floor
    /// (their scores still count in the table), with the reason.
    static let knownDisagreements: [String: String] = [
        "bmp/bmpsuite-g/rgb32.bmp":
            "32-bit BI_RGB with every fourth byte zero: ImageMagick shows it fully transparent, browsers and we opaque",
        "bmp/bmpsuite-g/rgb32bf.bmp": "as rgb32.bmp (bitfields without an alpha mask)",
        "bmp/bmpsuite-q/rgb32h52.bmp": "as rgb32.bmp (a 52-byte header without an alpha mask)",
        "bmp/bmpsuite-q/rgb32bf-xbgr.bmp": "as rgb32.bmp",
        "bmp/bmpsuite-q/rgb32-111110.bmp": "as rgb32.bmp",
        "bmp/bmpsuite-q/pal8os2v2.bmp": "ImageMagick reads this OS/2 v2 palette as 4-byte entries; ours equals bmpsuite's pal8.bmp",
        "bmp/bmpsuite-q/pal4rletrns.bmp":
            "pixels an RLE delta skips are transparent (bmpsuite's reading); ImageMagick paints palette entry 0",
        "bmp/bmpsuite-q/pal8rletrns.bmp": "as pal4rletrns.bmp",
        "bmp/bmpsuite-q/rgb16-231.bmp": "we scale 2/3/1-bit fields to the full range; ImageMagick shifts the bits",
        "bmp/bmpsuite-b/badrle.bmp":
            "a deliberately broken file: we draw what decodes (skipped pixels transparent), ImageMagick uses entry 0",
        "bmp/bmpsuite-b/pal8badindex.bmp": "a deliberately broken file: out-of-range indices are black here, entry 0 in ImageMagick",
        "bmp/bmpsuite-b/rletopdown.bmp": "RLE with a top-down height is invalid (the BMP format forbids it); ImageMagick reads it anyway",
        "ico/pillow2.icns":
            "its PNG entries carry Apple's Generic RGB profile (gamma 1.8), which we apply and icns2png drops (the PNG alone: 28.8 dB against its raw pixels too)",
        "other-images/hopper.pfm":
            "Pillow wrote 0-255 pixel values as floats: we stretch them over their range (as for floating-point TIFFs), ImageMagick clamps them to white",
        "tiff/hopper.Lab.tif":
            "libtiff's CIELab to RGB conversion comes out lighter than ImageMagick's and libvips' (23-24 dB against both)",
    ]

    /// The outcome for one file.
    struct Outcome {
        var path: String
        var format: String
        var psnr: Double?
        var ours: String
        var reference: String
    }

    static let request = ThumbnailRequest(maxPixelSize: 256)
    static let resolver = TypeResolver()

    @Test func everyFileTheReferenceDecodesGetsAThumbnailCloseToIt() throws {
        let files = try Self.fixtureFiles()
        #expect(files.count > 180)
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("format-corpus-\(getpid())")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        var outcomes: [Outcome] = []
        for (index, path) in files.enumerated() {
            outcomes.append(try Self.compare(path, work: work.appendingPathComponent("\(index)").path))
        }
        var failures: [String] = []
        for outcome in outcomes where Self.knownDisagreements[outcome.path] == nil {
            if outcome.reference == "ok", outcome.ours != "ok", !outcome.ours.hasPrefix("refused:") {
                failures.append("\(outcome.path): the reference decodes it, we say \(outcome.ours)")
            }
            if let psnr = outcome.psnr, psnr < 25 { failures.append("\(outcome.path): \(String(format: "%.1f", psnr)) dB") }
            if outcome.ours != "ok", outcome.ours.contains("misuse") || outcome.ours.hasSuffix(": ") {
                failures.append("\(outcome.path): unclear error \(outcome.ours)")
            }
        }
        print(Self.table(outcomes))
        // The mean leaves out the known disagreements (a format with only those has none).
        let agreed = outcomes.filter { Self.knownDisagreements[$0.path] == nil }
        for (format, group) in Dictionary(grouping: agreed.compactMap { o in o.psnr.map { (o.format, $0) } }, by: \.0) {
            let mean = group.map(\.1).reduce(0, +) / Double(group.count)
            if mean < 35 { failures.append("\(format): mean \(String(format: "%.1f", mean)) dB") }
        }
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
    }

    /// Our thumbnail and the reference's of one fixture, and their PSNR when both exist.
    static func compare(_ path: String, work: String) throws -> Outcome {
        let (format, reference) = Self.format(of: path)
        let bytes = try Fixtures.bytes("formats/" + path)
        let type = Self.resolver.resolve(bytes: bytes, filename: (path as NSString).lastPathComponent).type
        var outcome = Outcome(path: path, format: format, psnr: nil, ours: "ok", reference: "ok")
        let ours: DecodedImage
        do {
            ours = try ImageThumbnailer(resolver: Self.resolver).thumbnail(bytes: bytes, type: type, request: Self.request)
        } catch let error as VignetteError {
            outcome.ours = "\(error.code): \(error.reason)"
            outcome.reference = (try? Self.referenceImage(path, reference, frame: 0, work: work)) == nil ? "fails" : "ok"
            return outcome
        }
        // ICO/CUR: compare with the entry we chose (the reference's frame of the same size).
        // ICNS: the entry of the size we chose.
        let frame =
            format == "ICO/CUR"
            ? try Self.icoFrame(path, width: ours.sourceWidth, height: ours.sourceHeight) : format == "ICNS" ? ours.sourceWidth : 0
        guard let image = try Self.referenceImage(path, reference, frame: frame, work: work) else {
            outcome.reference = "fails"
            return outcome
        }
        // References that leave orientation to the viewer (libvips' copy, ImageMagick) get ours,
        // unless they kept it as the PNG's eXIf, which our PNG decoder has applied already.
        let upright = [.vips, .imageMagick].contains(reference) && image.orientation == .up
        outcome.psnr = Self.psnr(ours.bitmap, upright ? image.bitmap.applying(ours.orientation) : image.bitmap)
        return outcome
    }

    /// The reference decoder's picture of `path`, shrunk by our downscaler; nil when it fails.
    static func referenceImage(_ path: String, _ reference: Reference, frame: Int, work: String) throws -> DecodedImage? {
        try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
        let output = work + "/reference.png"
        let command = reference.command(Fixtures.root + "/formats/" + path, output, frame: frame)
        guard try Self.run(command) == 0 else { return nil }
        // heif-convert numbers the images of a file with several (out-1.png, …): the first is the primary.
        let produced = try FileManager.default.contentsOfDirectory(atPath: work).filter { $0.hasSuffix(".png") }.sorted()
        // icns2png names each entry by its size.
        let wanted = reference == .icns2png ? produced.first { $0.hasSuffix("_\(frame)x\(frame)x32.png") } : nil
        guard let name = wanted ?? produced.first(where: { $0 == "reference.png" }) ?? produced.first else { return nil }
        let png = Array(try Data(contentsOf: URL(fileURLWithPath: work + "/" + name)))
        return try png.withUnsafeBytes { try ImageDecoder.png($0, request: Self.request) }
    }

    /// The index ImageMagick gives the ICO/CUR entry of `width × height` (the deepest of that size).
    static func icoFrame(_ path: String, width: Int, height: Int) throws -> Int {
        let pipe = Pipe()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["identify", "-format", "%w %h %z\n", Fixtures.root + "/formats/" + path]
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let entries = text.split(separator: "\n").map { $0.split(separator: " ").compactMap { Int($0) } }
        let matching = entries.enumerated().filter { $0.element.count == 3 && $0.element[0] == width && $0.element[1] == height }
        return matching.max { $0.element[2] < $1.element[2] }?.offset ?? 0
    }

    /// Runs a reference tool quietly; a missing tool fails the test naming its package.
    static func run(_ command: [String]) throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = command
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        if process.terminationStatus == 127 {
            Issue.record("\(command[0]) is not installed (scripts/install-deps.sh --test installs it)")
        }
        return process.terminationStatus
    }

    /// PSNR of two thumbnails composed over mid grey (alpha counts through what it shows).
    static func psnr(_ a: Bitmap, _ b: Bitmap) -> Double {
        guard a.width == b.width, a.height == b.height else { return 0 }
        var sum = 0.0
        for i in stride(from: 0, to: a.pixels.count, by: 4) {
            let alphaA = Double(a.pixels[i + 3]) / 255
            let alphaB = Double(b.pixels[i + 3]) / 255
            for c in 0..<3 {
                let x = Double(a.pixels[i + c]) * alphaA + 128 * (1 - alphaA)
                let y = Double(b.pixels[i + c]) * alphaB + 128 * (1 - alphaB)
                sum += (x - y) * (x - y)
            }
        }
        let mse = sum / Double(a.width * a.height * 3)
        return mse == 0 ? 99 : 10 * log10(255 * 255 / mse)
    }

    /// The fixtures listed in the manifest, by their path under formats/.
    static func fixtureFiles() throws -> [String] {
        try Fixtures.tsv("formats/MANIFEST.tsv").map { $0[0] }.filter { !$0.isEmpty }.sorted()
    }

    /// The table for bench/RESULTS.md: per format, files, thumbnails, errors, PSNR mean and minimum.
    static func table(_ outcomes: [Outcome]) -> String {
        var lines = [
            "| format | files | reference decodes | we thumbnail | we refuse (reference also fails) | mean PSNR | min PSNR |",
            "|---|---|---|---|---|---|---|",
        ]
        for (format, group) in Dictionary(grouping: outcomes, by: \.format).sorted(by: { $0.key < $1.key }) {
            let scores = group.compactMap(\.psnr)
            let mean = scores.isEmpty ? "-" : String(format: "%.1f dB", scores.reduce(0, +) / Double(scores.count))
            let minimum = scores.min().map { String(format: "%.1f dB", $0) } ?? "-"
            let refusedToo = group.filter { $0.ours != "ok" && $0.reference != "ok" }.count
            lines.append(
                "| \(format) | \(group.count) | \(group.filter { $0.reference == "ok" }.count) | \(group.filter { $0.ours == "ok" }.count) | \(refusedToo) | \(mean) | \(minimum) |"
            )
        }
        for outcome in outcomes where outcome.ours != "ok" {
            lines.append("- `\(outcome.path)`: \(outcome.ours) (reference: \(outcome.reference))")
        }
        for outcome in outcomes {
            guard let reason = Self.knownDisagreements[outcome.path] else { continue }
            let score = outcome.psnr.map { String(format: "%.1f dB", $0) } ?? outcome.ours
            lines.append("- `\(outcome.path)` (\(score)): \(reason)")
        }
        return lines.joined(separator: "\n")
    }
}
