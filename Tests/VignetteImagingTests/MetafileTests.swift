import CVignetteCodecs
import Foundation
import Testing
import VignetteCore

@testable import VignetteImaging

/// Windows metafiles played by our record player over cairo in the decoding child: a drawing
/// LibreOffice converts to EMF and to WMF at test time, against LibreOffice's own rendering of
/// each; drawn at the thumbnail's size (vector: never a bitmap shrunk); damaged and hostile files.
@Suite("WMF and EMF")
struct MetafileTests {
    /// Shapes of every kind the converters write (filled and outlined rectangles, an ellipse, a
    /// polygon, a Bézier stroke): no text, whose fonts differ from machine to machine.
    static let drawing = """
        <svg xmlns="http://www.w3.org/2000/svg" width="400" height="300" viewBox="0 0 400 300">
          <rect x="20" y="20" width="160" height="100" fill="#3366cc" stroke="#000000" stroke-width="4"/>
          <ellipse cx="290" cy="70" rx="90" ry="50" fill="#e04020"/>
          <polygon points="40,280 120,160 200,280" fill="#ffcc00" stroke="#800080" stroke-width="2"/>
          <path d="M 230 200 C 260 140, 320 260, 380 200" fill="none" stroke="#1080f0" stroke-width="8"/>
          <rect x="240" y="230" width="120" height="50" fill="#20a040"/>
        </svg>
        """

    /// The drawing as `ext` (emf or wmf) written by LibreOffice, and LibreOffice's PNG of that file,
    /// in `folder`.
    static func convert(_ folder: String, _ ext: String) throws -> (metafile: [UInt8], rendering: String) {
        try drawing.write(toFile: folder + "/d.svg", atomically: true, encoding: .utf8)
        let office = ["-env:UserInstallation=file://\(folder)/profile", "--headless", "--norestore", "--convert-to"]
        #expect(try FormatCorpusTests.run(["soffice"] + office + [ext, "--outdir", folder, folder + "/d.svg"]) == 0)
        let metafile = folder + "/d." + ext
        #expect(try FormatCorpusTests.run(["soffice"] + office + ["png", "--outdir", folder + "/png", metafile]) == 0)
        return (Array(try Data(contentsOf: URL(fileURLWithPath: metafile))), folder + "/png/d.png")
    }

    /// The part of `bitmap`, over white, that is not white.
    static func trimmed(_ bitmap: Bitmap) -> Bitmap {
        let rgb = bitmap.rgb()
        var (x0, y0, x1, y1) = (bitmap.width, bitmap.height, -1, -1)
        for y in 0..<bitmap.height {
            for x in 0..<bitmap.width where (0..<3).contains(where: { rgb[(y * bitmap.width + x) * 3 + $0] < 250 }) {
                (x0, y0, x1, y1) = (min(x0, x), min(y0, y), max(x1, x), max(y1, y))
            }
        }
        var out = Bitmap(width: x1 - x0 + 1, height: y1 - y0 + 1)
        for y in y0...y1 {
            for x in x0...x1 {
                let s = (y * bitmap.width + x) * 3
                let d = ((y - y0) * out.width + x - x0) * 4
                out.pixels.replaceSubrange(d..<(d + 4), with: [rgb[s], rgb[s + 1], rgb[s + 2], 255])
            }
        }
        return out
    }

    @Test(arguments: ["emf", "wmf"])
    func aDrawingLibreOfficeWroteMatchesLibreOfficesOwnRendering(ext: String) throws {
        let folder = try JPEG2000Tests.workFolder("metafile-\(ext)")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let (metafile, rendering) = try Self.convert(folder, ext)
        // At its natural size (96 dpi): LibreOffice puts it on a page, so both are cut to what is drawn.
        let ours = try StreamedFormatTests.thumbnail(metafile, name: "d.\(ext)", size: 1 << 14)
        #expect(ours.warnings.isEmpty, "\(ours.warnings)")
        let drawn = Self.trimmed(ours.bitmap)
        #expect(abs(drawn.width - 362) <= 4 && abs(drawn.height - 262) <= 4, "\(drawn.width) × \(drawn.height)")
        let fitted = folder + "/fitted.png"
        let fit = ["convert", rendering, "-background", "white", "-flatten", "-fuzz", "2%", "-trim", "+repage", "-resize"]
        #expect(try FormatCorpusTests.run(fit + ["\(drawn.width)x\(drawn.height)!", "PNG24:" + fitted]) == 0)
        let png = Array(try Data(contentsOf: URL(fileURLWithPath: fitted)))
        let theirs = try png.withUnsafeBytes { try ImageDecoder.png($0, request: ThumbnailRequest(maxPixelSize: 1 << 14)) }
        // Anti-aliasing and LibreOffice's one-pixel-larger page crop differ (27-28 dB measured); a
        // shape missing or misplaced costs far more.
        #expect(psnr(drawn, theirs.bitmap) >= 24, "\(psnr(drawn, theirs.bitmap)) dB")

        // A thumbnail is drawn at its own size, not shrunk from the natural one (which is 372 × 272).
        let size = isolatedRowSize(metafile, vgn_metafile_open, "cairo", target: 64)
        #expect(size.map { max($0.0, $0.1) } == 64)
        #expect(ours.sourceWidth > 360 && ours.sourceWidth < 380, "\(ours.sourceWidth) × \(ours.sourceHeight)")
    }

    @Test(arguments: ["face_bad.emf", "wmf_face.wmf"])
    func aFaceNameCutToItsBufferStillLeavesTheRestDrawn(name: String) throws {
        // A face cut inside a character was invalid UTF-8 to cairo, which then dropped every later drawing.
        let image = try StreamedFormatTests.fixture("metafile/" + name, size: 256)
        #expect(image.warnings.isEmpty, "\(image.warnings)")
        let bitmap = image.bitmap
        let centre = ((bitmap.height / 2) * bitmap.width + bitmap.width / 2) * 4
        #expect(bitmap.pixels[centre + 3] == 255, "the rectangle after the text is drawn")
    }

    @Test func aDamagedOrHostileEMFDrawsWhatCameBeforeOrSaysWhy() throws {
        let folder = try JPEG2000Tests.workFolder("metafile-hostile")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let (emf, _) = try Self.convert(folder, "emf")
        func le32(_ b: [UInt8], _ at: Int) -> Int { (0..<4).reduce(0) { $0 | Int(b[at + $1]) << (8 * $1) } }
        // The records: their offsets, types and sizes.
        var records: [(offset: Int, type: Int)] = []  // numbered from 0, the header, as messages number them
        var at = 0
        while at + 8 <= emf.count, le32(emf, at + 4) > 0 {
            records.append((at, le32(emf, at)))
            at += le32(emf, at + 4)
        }
        let polygon = try #require(records.firstIndex { $0.type == 3 })  // EMR_POLYGON

        // Cut inside the last polygon: the records before it are drawn, with a warning.
        let last = try #require(records.lastIndex { $0.type == 3 })
        let cut = try StreamedFormatTests.thumbnail(Array(emf.prefix(records[last].offset + 20)), name: "cut.emf", size: 128)
        #expect(cut.warnings == ["cut short: record \(last) runs past the end of the file (the records before it are drawn)"])
        #expect(cut.bitmap.width == 128)

        // The first polygon claiming a million points in a record of a few: refused before anything
        // is read; nothing was drawn before it, so the file is an error.
        var bomb = emf
        bomb.replaceSubrange((records[polygon].offset + 24)..<(records[polygon].offset + 28), with: [0x40, 0x42, 0x0F, 0x00])
        let bombed = try #require(throws: VignetteError.self) { try StreamedFormatTests.thumbnail(bomb, name: "bomb.emf", size: 128) }
        #expect(bombed.reason == "corrupt EMF: record \(polygon) has more points than bytes")

        // A frame of 20 m by 20 m (2,000,000 hundredths of a millimetre, 75,590 pixels at 96 dpi):
        // over the side limit at open, before the pixel cap is asked.
        var huge = emf
        huge.replaceSubrange(32..<40, with: [0x80, 0x84, 0x1E, 0x00, 0x80, 0x84, 0x1E, 0x00])
        let error = try #require(throws: VignetteError.self) { try StreamedFormatTests.thumbnail(huge, name: "huge.emf") }
        #expect(error.reason.hasPrefix("EMF over a decoder limit: a picture of 755"), "\(error.reason)")
        #expect(error.reason.hasSuffix(" pixels (at most 65535 a side)"), "\(error.reason)")
    }
}
