import Foundation
import Testing
import VignetteCore
import VignetteImaging

@testable import VignetteGenerators

@Suite("Image previews: the picture and its facts (EXIF, XMP, colour profile)")
struct ImagePreviewTests {
    static let generator = ImageGenerator(catalog: .builtIn)

    func preview(_ relative: String) throws -> TextPreview {
        try Self.generator.makePreview(for: try GeneratorFixtures.input(relative), request: PreviewRequest())
    }

    @Test func anImageNothingDecodesGetsItsFactsNotTheFallback() throws {
        // A KTX texture's identifier (OpenGL's container), a format Vignette draws no picture of.
        let bytes: [UInt8] = [0xAB, 0x4B, 0x54, 0x58, 0x20, 0x31, 0x31, 0xBB, 0x0D, 0x0A, 0x1A, 0x0A] + [UInt8](repeating: 0, count: 64)
        let input = GeneratorInput(
            bytes: bytes, filename: "texture.ktx", resolver: TypeResolver(catalog: GeneratorFixtures.registry.catalog))
        let (p, generator, _) = try GeneratorFixtures.registry.preview(for: input, request: PreviewRequest())
        #expect(generator == "image-facts")
        #expect(p.text == "Format: KTX texture\nPicture: not drawn (Vignette has no decoder for this format)\n")
        #expect(p.html.hasPrefix("<p class=\"note\">Picture not drawn: Vignette has no decoder for this format</p>\n<dl class=\"facts\">"))
    }

    @Test func aDICOMFileShowsItsStudyButNeverItsPatient() throws {
        // Explicit VR little-endian elements: a 2 × 1 grey picture of a knee study, its description in
        // Latin-1 (ISO_IR 100), and the patient's name, which a preview must not show.
        func le16(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8)] }
        func element(_ group: Int, _ tag: Int, _ vr: String, _ value: [UInt8]) -> [UInt8] {
            let padded = value.count % 2 == 0 ? value : value + [vr == "UI" ? 0 : 0x20]
            return le16(group) + le16(tag) + Array(vr.utf8) + le16(padded.count) + padded
        }
        func text(_ group: Int, _ tag: Int, _ vr: String, _ value: String) -> [UInt8] { element(group, tag, vr, Array(value.utf8)) }
        var bytes = [UInt8](repeating: 0, count: 128) + Array("DICM".utf8) + text(0x0002, 0x0010, "UI", "1.2.840.10008.1.2.1")
        bytes += text(0x0008, 0x0005, "CS", "ISO_IR 100") + text(0x0008, 0x0020, "DA", "20240131") + text(0x0008, 0x0060, "CS", "MR")
        bytes += text(0x0008, 0x0070, "LO", "ACME") + element(0x0008, 0x1030, "LO", Array("Kn".utf8) + [0xE9] + Array("e gauche".utf8))
        bytes += text(0x0010, 0x0010, "PN", "Doe^Jane") + text(0x0018, 0x0015, "CS", "KNEE")
        bytes += element(0x0028, 0x0002, "US", le16(1)) + text(0x0028, 0x0004, "CS", "MONOCHROME2") + element(0x0028, 0x0010, "US", le16(1))
        bytes += element(0x0028, 0x0011, "US", le16(2)) + element(0x0028, 0x0100, "US", le16(8)) + element(0x0028, 0x0101, "US", le16(8))
        bytes += le16(0x7FE0) + le16(0x0010) + Array("OB".utf8) + [0, 0, 2, 0, 0, 0, 10, 200]
        let input = GeneratorInput(bytes: bytes, filename: "knee.dcm", resolver: TypeResolver(catalog: GeneratorFixtures.registry.catalog))
        let (p, generator, _) = try GeneratorFixtures.registry.preview(for: input, request: PreviewRequest())
        #expect(generator == "image")
        #expect(
            p.text
                == "Size: 2 × 1 pixels\nFormat: DICOM image, 8-bit grey, uncompressed\nModality: MR (magnetic resonance)\nBody part: KNEE\n"
                + "Study: Knée gauche\nStudy date: 2024-01-31\nEquipment: ACME\n")
        #expect(!p.html.contains("Doe") && !p.text.contains("Doe"))
        #expect(p.html.contains("<img src=\"data:image/"))
    }

    @Test func aFITSHeaderWithoutItsAxesSaysWhichIsMissing() throws {
        // Astronomy's 80-character cards in 2,880-byte blocks: NAXIS = 2, and no NAXIS1 or NAXIS2.
        let cards = ["SIMPLE  =                    T", "BITPIX  =                    8", "NAXIS   =                    2", "END"]
        var bytes = Array(cards.map { $0.padding(toLength: 80, withPad: " ", startingAt: 0) }.joined().utf8)
        bytes += [UInt8](repeating: 0x20, count: 2880 - bytes.count)
        let input = GeneratorInput(
            bytes: bytes, filename: "sky.fits", resolver: TypeResolver(catalog: GeneratorFixtures.registry.catalog))
        let (p, generator, _) = try GeneratorFixtures.registry.preview(for: input, request: PreviewRequest())
        #expect(generator == "image")
        #expect(p.text == "Format: FITS image\nPicture: not drawn (corrupt FITS: NAXIS is 2 but NAXIS1 is missing)\n")
    }

    @Test func anImageItsDecoderCannotDrawStillGetsItsHeaderFactsAndTheReason() throws {
        // A QOI header (640 × 480, 4 channels) and too few bytes for its pixels.
        let bytes = Array("qoif".utf8) + [0, 0, 2, 0x80, 0, 0, 1, 0xE0, 4, 0] + [UInt8](repeating: 0, count: 32)
        let input = GeneratorInput(
            bytes: bytes, filename: "drawing.qoi", resolver: TypeResolver(catalog: GeneratorFixtures.registry.catalog))
        let (p, generator, _) = try GeneratorFixtures.registry.preview(for: input, request: PreviewRequest())
        #expect(generator == "image")
        #expect(p.title == "QOI image, 640 × 480")
        #expect(
            p.text == "Size: 640 × 480 pixels (0.3 MP)\nFormat: QOI image\n"
                + "Picture: not drawn (truncated QOI: the file is too short for the pixels its header gives)\n")
    }

    /// A 2 × 1 uncompressed RGB TIFF (red, blue), little-endian, one strip.
    static func tinyTIFF() -> [UInt8] {
        func le16(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8)] }
        func le32(_ v: Int) -> [UInt8] { le16(v & 0xFFFF) + le16(v >> 16) }
        func entry(_ tag: Int, _ type: Int, _ count: Int, _ value: Int) -> [UInt8] {
            le16(tag) + le16(type) + le32(count) + (type == 3 && count == 1 ? le16(value) + [0, 0] : le32(value))
        }
        let entries = [
            entry(256, 3, 1, 2), entry(257, 3, 1, 1), entry(258, 3, 3, 122), entry(259, 3, 1, 1), entry(262, 3, 1, 2),
            entry(273, 4, 1, 128), entry(277, 3, 1, 3), entry(278, 3, 1, 1), entry(279, 4, 1, 6),
        ]
        return Array("II*\0".utf8) + le32(8) + le16(entries.count) + entries.flatMap { $0 } + le32(0) + le16(8) + le16(8) + le16(8)
            + [255, 0, 0, 0, 0, 255]
    }

    @Test func aBinaryEPSShowsItsTIFFPreview() throws {
        let postscript = Array("%!PS-Adobe-3.0 EPSF-3.0\n%%BoundingBox: 0 0 2 1\nshowpage\n".utf8)
        let tiff = Self.tinyTIFF()
        func le32(_ v: Int) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: v >> (8 * $0)) } }
        let eps =
            [0xC5, 0xD0, 0xD3, 0xC6] + le32(30) + le32(postscript.count) + le32(0) + le32(0) + le32(30 + postscript.count)
            + le32(tiff.count) + [0xFF, 0xFF] + postscript + tiff
        let input = GeneratorInput(bytes: eps, filename: "logo.eps", resolver: TypeResolver(catalog: GeneratorFixtures.registry.catalog))
        #expect(input.type.identifier == "com.adobe.encapsulated-postscript")
        let (p, generator, _) = try GeneratorFixtures.registry.preview(for: input, request: PreviewRequest())
        #expect(generator == "eps-preview")
        #expect(p.title == "Encapsulated PostScript, preview 2 × 1")
        #expect(p.text.hasPrefix("Format: Encapsulated PostScript (DOS binary)\nSize: 2 × 1 pixels\nPreview: TIFF image"))
        #expect(p.html.hasPrefix("<figure class=\"picture\"><img src=\"data:image/"))
        #expect(p.html.contains("<dl class=\"facts\"><dt>Format</dt><dd>Encapsulated PostScript (DOS binary)</dd>"))
        // The thumbnail is the preview's pixels: red, then blue.
        let (thumb, thumbnailer, _) = try GeneratorFixtures.registry.thumbnail(for: input, request: ThumbnailRequest(maxPixelSize: 64))
        #expect(thumbnailer == "eps-preview")
        #expect(thumb.bitmap.width == 2 && thumb.bitmap.height == 1)
        #expect(Array(thumb.bitmap.pixels.prefix(3)) == [255, 0, 0] && Array(thumb.bitmap.pixels[4..<7]) == [0, 0, 255])
        // A text EPS is not ours: the text generators answer.
        let text = GeneratorInput(
            bytes: Array("%!PS-Adobe-3.0 EPSF-3.0\n%%BoundingBox: 0 0 10 10\nnewpath 0 0 moveto 10 10 lineto stroke\n".utf8),
            filename: "line.eps", resolver: TypeResolver(catalog: GeneratorFixtures.registry.catalog))
        #expect(try GeneratorFixtures.registry.preview(for: text, request: PreviewRequest()).1 == "text")
    }

    @Test func aCanonPhotoShowsItsCameraExposureAndDate() throws {
        let p = try preview("exif/flower.jpg")
        #expect(p.title == "JPEG image, 480 × 360")
        #expect(
            p.text
                == "Size: 480 × 360 pixels (0.2 MP)\nFormat: JPEG image, 8-bit YCbCr\nCamera: Canon PowerShot S40\n"
                + "Exposure: 1/500 s, f/4.9, 21.3 mm\nTaken: 2003-12-14 12:01:44\n")
        #expect(p.html.hasPrefix("<figure class=\"picture\"><img src=\"data:image/jpeg;base64,"))
        #expect(p.html.contains("width=\"480\" height=\"360\""))
        #expect(p.html.contains("<dt>Camera</dt><dd>Canon PowerShot S40</dd>"))
    }

    @Test func bigEndianEXIFWithArtistAndCopyright() throws {
        let p = try preview("exif/broken_exif_dpi.jpg")
        #expect(p.text.contains("Camera: NIKON D800\nExposure: 1/250 s, f/8, ISO 400, 14 mm\nTaken: 2013-09-11 16:45:13\n"))
        #expect(p.text.contains("Artist: Ross_Pushinaitis\nCopyright: Ross_Pushinaitis\nSoftware: Adobe Photoshop CC (Macintosh)\n"))
    }

    @Test func aPhoneShotShowsItsLensGPSAndProfile() throws {
        let p = try preview("exif/ultrahdr.jpg")
        #expect(p.text.contains("Colour profile: sRGB IEC61966-2.1\n"))
        #expect(p.text.contains("Camera: Google Pixel 6\nLens: Google Pixel 6 back camera 6.81mm f/1.85\n"))
        #expect(p.text.contains("GPS position: 30.62765° N, 119.73877° E, 99 m\n"))
    }

    @Test func xmpTitleAndDescriptionFromJPEGAndPNG() throws {
        let xmp = Array(
            ("<x:xmpmeta xmlns:x=\"adobe:ns:meta/\"><rdf:RDF><rdf:Description><dc:title><rdf:Alt><rdf:li xml:lang=\"x-default\">"
                + "Harbour at dusk</rdf:li></rdf:Alt></dc:title><dc:description><rdf:Alt><rdf:li xml:lang=\"x-default\">Boats &amp; "
                + "cranes</rdf:li></rdf:Alt></dc:description></rdf:Description></rdf:RDF></x:xmpmeta>").utf8)
        let photo = Array(try Data(contentsOf: URL(fileURLWithPath: GeneratorFixtures.path("exif/flower.jpg"))))
        let body = Array("http://ns.adobe.com/xap/1.0/\0".utf8) + xmp
        let app1 = [0xFF, 0xE1, UInt8((body.count + 2) >> 8), UInt8((body.count + 2) & 0xFF)] + body
        let jpeg = Array(photo.prefix(2)) + app1 + Array(photo.dropFirst(2))
        let fromJPEG = ImageMetadata(jpeg)
        #expect(fromJPEG.title == "Harbour at dusk")
        #expect(fromJPEG.description == "Boats & cranes")
        #expect(fromJPEG.exif?.model == "Canon PowerShot S40")

        let png = try ImageEncoder.png(Bitmap(width: 2, height: 2))
        let itxt = Self.chunk("iTXt", Array("XML:com.adobe.xmp\0\0\0\0\0".utf8) + xmp)
        let withXMP = Array(png.prefix(33)) + itxt + Array(png.dropFirst(33))
        let fromPNG = ImageMetadata(withXMP)
        #expect(fromPNG.title == "Harbour at dusk")
        #expect(fromPNG.details == "8-bit RGBA")
    }

    @Test func hostileEXIFIsBoundedNotTrusted() {
        // An IFD claiming 65535 entries, offsets past the end, a self-referencing Exif pointer.
        var tiff: [UInt8] = Array("II*\0".utf8) + [8, 0, 0, 0] + [0xFF, 0xFF]
        tiff += [0x69, 0x87, 4, 0, 1, 0, 0, 0, 8, 0, 0, 0]  // Exif IFD pointer back to IFD0
        tiff += [0x0F, 0x01, 2, 0, 0xFF, 0xFF, 0xFF, 0x7F, 0xF0, 0xFF, 0xFF, 0xFF]  // Make, 2 GB of text far away
        let exif = ExifData(tiff: tiff)
        #expect(exif != nil)
        #expect(exif?.make == nil)
        #expect(ExifData(tiff: Array("MM\0*".utf8)) == nil)
        #expect(ImageMetadata([0xFF, 0xD8, 0xFF, 0xE1, 0xFF, 0xFF] + Array("Exif\0\0".utf8)).exif == nil)
    }

    @Test func aPixelBombStillGetsItsFacts() throws {
        var png = try ImageEncoder.png(Bitmap(width: 2, height: 2))
        // IHDR's width and height to 65535 × 65535 (the CRC is not checked before the size is).
        png.replaceSubrange(16..<24, with: [0, 0, 0xFF, 0xFF, 0, 0, 0xFF, 0xFF])
        let input = GeneratorInput(bytes: png, filename: "bomb.png", resolver: TypeResolver(catalog: .builtIn))
        let p = try Self.generator.makePreview(for: input, request: PreviewRequest())
        #expect(p.text.hasPrefix("Size: 65535 × 65535 pixels (4295 MP)\nFormat: PNG image, 8-bit RGBA\nPicture: not drawn ("))
        #expect(!p.html.contains("<img"))
    }

    static func chunk(_ type: String, _ body: [UInt8]) -> [UInt8] {
        let length = [
            UInt8(body.count >> 24 & 0xFF), UInt8(body.count >> 16 & 0xFF), UInt8(body.count >> 8 & 0xFF), UInt8(body.count & 0xFF),
        ]
        let typed = Array(type.utf8) + body
        return length + typed + [0, 0, 0, 0]
    }
}
