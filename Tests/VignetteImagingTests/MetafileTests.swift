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

    /// A WMF of 100 x 100 pixels, written here: `records` (function, 16-bit parameters) after a
    /// placeable header and the window set to the picture, then EOF.
    static func wmf(_ records: [(function: UInt16, params: [Int])]) -> [UInt8] {
        func u16(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF)] }
        func u32(_ v: Int) -> [UInt8] { u16(v & 0xFFFF) + u16(v >> 16 & 0xFFFF) }
        let all = [(UInt16(0x020B), [0, 0]), (0x020C, [100, 100])] + records + [(0x0000, [])]
        let body = all.flatMap { record in u32(3 + record.1.count) + u16(Int(record.0)) + record.1.flatMap { u16($0) } }
        let placeable = u32(0x9AC6_CDD7) + u16(0) + [0, 0, 100, 100].flatMap { u16($0) } + u16(96) + u32(0) + u16(0)
        let header = u16(1) + u16(9) + u16(0x0300) + u32(9 + body.count / 2) + u16(3) + u32(16) + u16(0)
        return placeable + header + body
    }

    @Test func clipRectanglesAreIntersectedExcludedSavedAndRestored() throws {
        // A null pen; a red brush; with the clip saved, narrowed to the left half and a red square drawn
        // over everything; the clip restored, a hole taken out of it and a blue square drawn on the right half.
        let bytes = Self.wmf([
            (0x02FA, [5, 0, 0, 0, 0]), (0x012D, [0]),  // CreatePenIndirect (PS_NULL), SelectObject
            (0x02FC, [0, 0x00FF, 0x0000, 0]), (0x012D, [1]),  // CreateBrushIndirect (red), SelectObject
            (0x001E, []), (0x0416, [100, 50, 0, 0]),  // SaveDC, IntersectClipRect (left half)
            (0x041B, [100, 100, 0, 0]),  // Rectangle (all of it)
            (0x0127, [0xFFFF]), (0x0415, [60, 80, 40, 60]),  // RestoreDC(-1), ExcludeClipRect (60…80, 40…60)
            (0x02FC, [0, 0x0000, 0x00FF, 0]), (0x012D, [2]),  // CreateBrushIndirect (blue), SelectObject
            (0x041B, [100, 100, 0, 50]),  // Rectangle (the right half)
        ])
        let image = try StreamedFormatTests.thumbnail(bytes, name: "clips.wmf", size: 100)
        #expect(image.warnings.isEmpty, "\(image.warnings)")
        let bitmap = image.bitmap
        #expect(bitmap.width == 100 && bitmap.height == 100)
        func pixel(_ x: Int, _ y: Int) -> [UInt8] { Array(bitmap.pixels[(y * bitmap.width + x) * 4..<(y * bitmap.width + x) * 4 + 4]) }
        #expect(pixel(25, 50) == [255, 0, 0, 255], "red inside the first clip")
        #expect(pixel(75, 20) == [0, 0, 255, 255], "blue: the clip was restored before the second square")
        #expect(pixel(70, 50)[3] == 0, "neither square in the hole: red clipped away, blue excluded")
    }

    /// An EMF of 100 x 100 pixels (MM_TEXT, a pixel a unit), written here: `records` (type, 32-bit
    /// parameters) after the header, then EOF.
    static func emf(_ records: [(type: Int, params: [Int])]) -> [UInt8] {
        func u32(_ v: Int) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: v >> (8 * $0)) } }
        let all = records + [(14, [0, 16, 20])]
        let body = all.flatMap { record in u32(record.0) + u32(8 + 4 * record.1.count) + record.1.flatMap { u32($0) } }
        let header = [
            1, 88, 0, 0, 99, 99, 0, 0, 2646, 2646, 0x464D_4520, 0x10000, 88 + body.count, all.count + 1, 5, 0, 0, 0, 1000, 1000, 265, 265,
        ]
        return header.flatMap { u32($0) } + body
    }

    @Test func emfClipsToAPathAndToRegionsCopiedTakenOutAndReset() throws {
        func region(_ mode: Int, _ l: Int, _ t: Int, _ r: Int, _ b: Int) -> (type: Int, params: [Int]) {
            (75, [48, mode, 32, 1, 1, 16, l, t, r, b, l, t, r, b])  // ExtSelectClipRgn: one rectangle
        }
        let bytes = Self.emf([
            (38, [1, 5, 0, 0, 0]), (37, [1]),  // CreatePen (PS_NULL), SelectObject
            (39, [2, 0, 0x0000FF, 0]), (37, [2]),  // CreateBrushIndirect (red), SelectObject
            (33, []), (59, []), (43, [0, 0, 50, 100]), (60, []), (67, [5]),  // SaveDC; the left half's path made the clip
            (43, [0, 0, 100, 100]),  // Rectangle (all of it)
            (34, [-1]), region(5, 50, 0, 100, 100), region(4, 60, 40, 80, 60),  // RestoreDC; the right half, less a hole
            (39, [3, 0, 0xFF0000, 0]), (37, [3]), (43, [0, 0, 100, 100]),  // blue, everywhere
            (75, [0, 5]), (39, [4, 0, 0x00FF00, 0]), (37, [4]), (43, [65, 45, 75, 55]),  // no clip; green, inside the hole
        ])
        let image = try StreamedFormatTests.thumbnail(bytes, name: "clips.emf", size: 100)
        #expect(image.warnings.isEmpty, "\(image.warnings)")
        let bitmap = image.bitmap
        #expect(bitmap.width == 100 && bitmap.height == 100)
        func pixel(_ x: Int, _ y: Int) -> [UInt8] { Array(bitmap.pixels[(y * bitmap.width + x) * 4..<(y * bitmap.width + x) * 4 + 4]) }
        #expect(pixel(25, 50) == [255, 0, 0, 255], "red inside the path")
        #expect(pixel(75, 20) == [0, 0, 255, 255], "blue in the region copied after the restore")
        #expect(pixel(25, 80) == [255, 0, 0, 255], "no blue outside that region")
        #expect(pixel(62, 42)[3] == 0, "nothing in the hole taken out of it")
        #expect(pixel(70, 50) == [0, 255, 0, 255], "green once the clip is reset")
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
