import Foundation
import Testing
import VignetteCore

@testable import VignetteImaging

/// XPM and XBM, the X Window System's images written as C source (the icons in
/// /usr/share/pixmaps): hand-written files for each way of giving a colour, and ImageMagick's
/// writing of a photo read back against its own reading.
@Suite("XPM and XBM")
struct XPMTests {
    static func image(_ text: String, name: String, size: Int = 64) throws -> DecodedImage {
        try StreamedFormatTests.thumbnail(Array(text.utf8), name: name, size: size)
    }

    /// The RGBA of pixel (x, y).
    static func pixel(_ image: DecodedImage, _ x: Int, _ y: Int) -> [UInt8] {
        let at = (y * image.bitmap.width + x) * 4
        return Array(image.bitmap.pixels[at..<(at + 4)])
    }

    /// Four pixels in a row, each colour given another way: transparent, #RGB, 48-bit hex, an X11
    /// name with spaces, a computed grey; the symbolic name and mono colour beside them are not used.
    static let xpm3 = """
        /* XPM */
        static char * test_xpm[] = {
        /* columns rows colors chars-per-pixel */
        "5 2 5 2 ",
        "   c None s background",
        ".. c #F80",
        "++ c #00008000FFFF m black",
        "@@ s fg c light slate gray",
        "## c Gray50",
        /* pixels */
        "  ..++@@##",
        "##@@++..  "
        };
        """

    @Test func everyWayOfGivingAColourIsRead() throws {
        let image = try Self.image(Self.xpm3, name: "test.xpm")
        #expect(image.bitmap.width == 5 && image.bitmap.height == 2)
        #expect(Self.pixel(image, 0, 0)[3] == 0)
        #expect(Self.pixel(image, 1, 0) == [0xFF, 0x88, 0x00, 0xFF])
        #expect(Self.pixel(image, 2, 0) == [0x00, 0x80, 0xFF, 0xFF])
        // rgb.txt: LightSlateGray 119 136 153; gray50 127 127 127
        #expect(Self.pixel(image, 3, 0) == [119, 136, 153, 0xFF])
        #expect(Self.pixel(image, 4, 0) == [127, 127, 127, 0xFF])
        #expect(Self.pixel(image, 0, 1) == [127, 127, 127, 0xFF])
        #expect(Self.pixel(image, 4, 1)[3] == 0)
    }

    @Test func anXPM2FileIsTheSamePicture() throws {
        let xpm2 = """
            ! XPM2
            5 2 5 2
               c None s background
            .. c #F80
            ++ c #00008000FFFF m black
            @@ s fg c light slate gray
            ## c Gray50
              ..++@@##
            ##@@++..  \("")
            """
        let image = try Self.image(xpm2, name: "test.xpm")
        #expect(image.bitmap == (try Self.image(Self.xpm3, name: "test.xpm")).bitmap)
    }

    @Test func aColourNothingKnowsIsBlackAndSaysSo() throws {
        let text = "/* XPM */\nstatic char *x[] = {\"2 1 2 1\", \". c #FFFFFF\", \"o c octarine\", \".o\"};\n"
        let image = try Self.image(text, name: "x.xpm")
        #expect(Self.pixel(image, 1, 0) == [0, 0, 0, 0xFF])
        #expect(image.warnings.contains("unknown colour \"octarine\" (c) shown black"), "\(image.warnings)")
    }

    @Test func aPhotoImageMagickWroteMatchesItsOwnReading() throws {
        let folder = try JPEG2000Tests.workFolder("xpm")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // ImageMagick quantises to 256 colours, two characters a pixel.
        let flower = Fixtures.root + "/jpeg/pillow/flower.jpg"
        #expect(try FormatCorpusTests.run(["convert", flower, "-resize", "200x150", folder + "/flower.xpm"]) == 0)
        #expect(try FormatCorpusTests.run(["convert", folder + "/flower.xpm", folder + "/flower.png"]) == 0)
        let text = try String(contentsOfFile: folder + "/flower.xpm", encoding: .utf8)
        let ours = try Self.image(text, name: "flower.xpm", size: 200)
        let png = Array(try Data(contentsOf: URL(fileURLWithPath: folder + "/flower.png")))
        let reference = try png.withUnsafeBytes { try ImageDecoder.png($0, request: ThumbnailRequest(maxPixelSize: 200)) }
        #expect(ours.bitmap == reference.bitmap)
    }

    @Test func threeCharactersAPixelFindEachOfThousandsOfColours() throws {
        // The photo's own colours, each its three-character key (looked up by binary search).
        let photo = try StreamedFormatTests.thumbnail(try Fixtures.bytes("jpeg/pillow/flower.jpg"), name: "flower.jpg", size: 160)
        let (width, height) = (photo.bitmap.width, photo.bitmap.height)
        let alphabet = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.#@+")
        var keys: [UInt32: String] = [:]
        var lines: [String] = []
        var rows: [String] = []
        for y in 0..<height {
            var row = ""
            for x in 0..<width {
                let at = (y * width + x) * 4
                let rgb = photo.bitmap.pixels[at..<(at + 3)].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
                if keys[rgb] == nil {
                    let n = keys.count
                    let key = String([alphabet[n % 64], alphabet[n / 64 % 64], alphabet[n / 4096 % 64]])
                    keys[rgb] = key
                    lines.append("\"\(key) c #\(String(format: "%06X", rgb))\",")
                }
                row += keys[rgb]!
            }
            rows.append("\"\(row)\"")
        }
        #expect(keys.count > 4096, "\(keys.count) colours")
        let text =
            "/* XPM */\nstatic char *flower[] = {\n\"\(width) \(height) \(keys.count) 3\",\n" + lines.joined(separator: "\n") + "\n"
            + rows.joined(separator: ",\n") + "};\n"
        let ours = try Self.image(text, name: "flower.xpm", size: 160)
        #expect(ours.bitmap == photo.bitmap)
    }

    @Test func aHeaderPromisingMorePixelsThanTheFileHoldsIsRefusedBeforeAnythingIsAllocated() throws {
        let text = "/* XPM */\nstatic char *x[] = {\"30000 30000 1 1\", \". c #FFFFFF\", \"..\"};\n"
        #expect(throws: VignetteError(.corrupt, "truncated XPM: the file is too short for the colours and pixels its header gives")) {
            try Self.image(text, name: "x.xpm")
        }
        // The largest sizes a header can give: their product must not wrap past the file's size.
        let huge = "/* XPM */\nstatic char *x[] = {\"4294967295 4294967295 1 8\", \"12345678 c #FFFFFF\", \"12345678\"};\n"
        #expect(throws: VignetteError(.corrupt, "truncated XPM: the file is too short for the colours and pixels its header gives")) {
            try Self.image(huge, name: "x.xpm")
        }
        let wide = "/* XPM */\nstatic char *x[] = {\"1 1 1 9\", \"123456789 c #FFFFFF\", \"123456789\"};\n"
        #expect(
            throws: VignetteError(.corrupt, "corrupt XPM: the header says 1 x 1 pixels, 1 colours, 9 characters a pixel (1 to 8)")
        ) { try Self.image(wide, name: "x.xpm") }
    }

    @Test func anX11BitmapIsBlackOnWhiteLeastSignificantBitFirst() throws {
        let xbm = """
            #define dot_width 10
            #define dot_height 2
            static unsigned char dot_bits[] = {
               0x01, 0x02, 0xff, 0x03 };
            """
        let image = try Self.image(xbm, name: "dot.xbm")
        #expect(image.bitmap.width == 10 && image.bitmap.height == 2)
        let row0 = (0..<10).map { Self.pixel(image, $0, 0)[0] }
        let row1 = (0..<10).map { Self.pixel(image, $0, 1)[0] }
        #expect(row0 == [0, 255, 255, 255, 255, 255, 255, 255, 255, 0])
        #expect(row1 == Array(repeating: 0, count: 10))
    }

    @Test func anX10BitmapOfSixteenBitValuesIsTheSamePicture() throws {
        let x10 = """
            #define dot_width 10
            #define dot_height 2
            static short dot_bits[] = {
               0x0201, 0x03ff };
            """
        let x11 = "#define dot_width 10\n#define dot_height 2\nstatic unsigned char dot_bits[] = { 0x01, 0x02, 0xff, 0x03 };\n"
        #expect(try Self.image(x10, name: "dot.xbm").bitmap == (try Self.image(x11, name: "dot.xbm")).bitmap)
    }

    @Test func anXBMWithFewerBitsThanItsSizeSaysSo() throws {
        let cut = "#define dot_width 8\n#define dot_height 4\nstatic unsigned char dot_bits[] = { 0x01, 0x02, 0x03 };\n"
        #expect(throws: VignetteError(.corrupt, "truncated XBM: the bits end before the last row")) { try Self.image(cut, name: "dot.xbm") }
    }
}
