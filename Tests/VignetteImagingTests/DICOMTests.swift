import Foundation
import Testing
import VignetteCore

@testable import VignetteImaging

/// DICOM from our own decoder: pydicom's test files and files dcmtk writes at test time (every
/// transfer syntax read) against dcmtk's own reading (`dcmj2pnm`, `dcml2pnm` for JPEG-LS, after
/// GDCM's `gdcmconv --raw` for JPEG 2000, which dcmtk does not read); files written here for the rescale and window, a lossless
/// JPEG frame with restart markers, a JPEG frame in two fragments, and what a file that cannot be
/// shown says.
@Suite("DICOM")
struct DICOMTests {
    /// pydicom's files (`Fixtures/dicom/`), with whether each has a window (dcmtk is asked for it,
    /// else for the range of the values, as Vignette chooses).
    static let fixtures: [String: Bool] = [
        "CT_small": false, "MR_small": true, "MR_small_RLE": true, "MR_small_bigendian": true, "MR_small_implicit": true,
        "MR_small_jp2klossless": true, "JPEG2000": false, "693_J2KI": true, "J2K_pixelrep_mismatch": true,
        "examples_palette": false, "SC_ybr_full_422_uncompressed": false, "liver_1frame": false,
        "SC_rgb_small_odd_big_endian": false, "rtdose_expb_1frame": false, "rtdose_rle_1frame": false, "SC_rgb_rle_16bit": false,
        "SC_rgb_jpeg_gdcm": false, "SC_rgb_jpeg_dcmtk": false, "MR_small_jpeg_ls_lossless": true, "JPEGLSNearLossless_16": false,
    ]

    /// JPEG 2000 files, which dcmtk reads only once GDCM has decompressed them.
    static let jpeg2000: Set<String> = ["MR_small_jp2klossless", "JPEG2000", "693_J2KI", "J2K_pixelrep_mismatch"]

    /// dcmtk's reading of the DICOM file at `path` (its first window, or its range), full size
    /// (`dcml2pnm`, its JPEG-LS reader, for `jpegls`).
    static func dcmtkReading(_ path: String, window: Bool, folder: String, decompressFirst: Bool = false, jpegls: Bool = false)
        throws -> Bitmap
    {
        var source = path
        if decompressFirst {
            source = folder + "/raw.dcm"
            #expect(try FormatCorpusTests.run(["gdcmconv", "--raw", path, source]) == 0)
        }
        let png = folder + "/dcmtk.png"
        #expect(
            try FormatCorpusTests.run(
                [jpegls ? "dcml2pnm" : "dcmj2pnm", "--write-png"] + (window ? ["+Wi", "1"] : ["+Wm"]) + [source, png])
                == 0)
        return try referencePNG(png)
    }

    /// Our thumbnail of `bytes` at full size (no side of these files is over 1024).
    static func ours(_ bytes: [UInt8]) throws -> DecodedImage {
        try StreamedFormatTests.thumbnail(bytes, name: "f.dcm", size: 1024)
    }

    /// The largest difference of two pictures' levels, or nil when their sizes differ.
    static func worst(_ a: Bitmap, _ b: Bitmap) -> Int? {
        guard a.width == b.width, a.height == b.height else { return nil }
        return zip(a.pixels, b.pixels).map { abs(Int($0) - Int($1)) }.max()
    }

    @Test(arguments: fixtures.keys.sorted())
    func pydicomsFilesMatchDCMTKsReading(name: String) throws {
        let folder = try JPEG2000Tests.workFolder("dicom-\(name)")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = Fixtures.root + "/dicom/\(name).dcm"
        let ours = try Self.ours(try Fixtures.bytes("dicom/\(name).dcm"))
        let theirs = try Self.dcmtkReading(
            path, window: try #require(Self.fixtures[name]), folder: folder, decompressFirst: Self.jpeg2000.contains(name),
            jpegls: name.contains("jpeg_ls") || name.hasPrefix("JPEGLS"))
        // dcmtk truncates where Vignette rounds: within one level.
        let worst = Self.worst(ours.bitmap, theirs)
        #expect(worst != nil && worst! <= 1, "\(name): \(worst ?? -1)")
    }

    /// How dcmtk is asked to write each file: from CT_small (16-bit signed CT, no window), from a
    /// colour photo made a DICOM file by img2dcm, or from a 16-bit grey one made a DICOM file by GDCM's
    /// gdcmimg (which writes GE's private syntax: implicit VR, big-endian pixels).
    static let writers: [String: (source: String, command: [String])] = [
        "ct-lossless-sv1": ("ct", ["dcmcjpeg", "+el", "+sv", "1"]), "ct-lossless-sv2": ("ct", ["dcmcjpeg", "+el", "+sv", "2"]),
        "ct-lossless-sv3": ("ct", ["dcmcjpeg", "+el", "+sv", "3"]), "ct-lossless-sv4": ("ct", ["dcmcjpeg", "+el", "+sv", "4"]),
        "ct-lossless-sv5": ("ct", ["dcmcjpeg", "+el", "+sv", "5"]), "ct-lossless-sv6": ("ct", ["dcmcjpeg", "+el", "+sv", "6"]),
        "ct-lossless-sv7": ("ct", ["dcmcjpeg", "+el", "+sv", "7"]),
        "ct-lossless-pt2": ("ct", ["dcmcjpeg", "+el", "+sv", "1", "+pt", "2"]), "ct-rle": ("ct", ["dcmcrle"]),
        "ct-big-endian": ("ct", ["dcmconv", "+tb"]), "ct-implicit": ("ct", ["dcmconv", "+ti"]),
        "rgb-explicit": ("rgb", ["dcmconv", "+te"]), "rgb-implicit": ("rgb", ["dcmconv", "+ti"]),
        "rgb-big-endian": ("rgb", ["dcmconv", "+tb"]), "rgb-rle": ("rgb", ["dcmcrle"]),
        "rgb-lossless-sv1": ("rgb", ["dcmcjpeg", "+e1"]), "rgb-lossless-sv7": ("rgb", ["dcmcjpeg", "+el", "+sv", "7"]),
        "rgb-baseline": ("rgb", ["dcmcjpeg", "+eb"]), "rgb-baseline-444": ("rgb", ["dcmcjpeg", "+eb", "+s4"]),
        "grey-baseline": ("grey-jpeg", ["dcmconv"]), "grey16-ge-private": ("pgm", ["dcmconv"]),
        "ct-lossless-fragments": ("ct", ["dcmcjpeg", "+e1", "+fs", "4"]), "ct-jpegls": ("ct", ["dcmcjpls"]),
        "rgb-jpegls-near": ("rgb", ["dcmcjpls", "+en"]), "ct-jpegls-fragments": ("ct", ["dcmcjpls", "+fs", "4"]),
        "rgb-jpegls-line": ("rgb", ["dcmcjpls", "+il"]), "rgb-jpegls-sample": ("rgb", ["dcmcjpls", "+is"]),
        "rgb-jpegls-none": ("rgb", ["dcmcjpls", "+in"]),
    ]

    @Test(arguments: writers.keys.sorted())
    func aFileDCMTKWritesMatchesItsReading(name: String) throws {
        let folder = try JPEG2000Tests.workFolder("dicom-w-\(name)")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let writer = try #require(Self.writers[name])
        var source = Fixtures.root + "/dicom/CT_small.dcm"
        if writer.source == "pgm" {
            let pgm = folder + "/s.pgm"
            #expect(
                try FormatCorpusTests.run(
                    ["convert", Fixtures.root + "/jpeg/pillow/flower.jpg", "-resize", "61x41!", "-colorspace", "gray", "-depth", "16", pgm])
                    == 0)
            source = folder + "/s.dcm"
            #expect(try FormatCorpusTests.run(["gdcmimg", pgm, source]) == 0)
        } else if writer.source != "ct" {
            // 61 × 41: rows of an odd length; an RGB BMP to img2dcm (uncompressed), or a grey JPEG
            // (kept as it is, MONOCHROME2 under JPEG baseline).
            let rgb = writer.source == "rgb"
            let image = folder + (rgb ? "/s.bmp" : "/s.jpg")
            let conversion = rgb ? ["BMP3:" + image] : ["-colorspace", "gray", image]
            #expect(
                try FormatCorpusTests.run(["convert", Fixtures.root + "/jpeg/pillow/flower.jpg", "-resize", "61x41!"] + conversion) == 0)
            source = folder + "/s.dcm"
            #expect(try FormatCorpusTests.run(["img2dcm"] + (rgb ? ["-i", "BMP"] : []) + [image, source]) == 0)
        }
        let dicom = folder + "/f.dcm"
        #expect(try FormatCorpusTests.run(writer.command + [source, dicom]) == 0)
        let ours = try Self.ours(Array(try Data(contentsOf: URL(fileURLWithPath: dicom))))
        let theirs = try Self.dcmtkReading(dicom, window: false, folder: folder, jpegls: name.contains("jpegls"))
        // Lossy JPEG: libjpeg-turbo's and dcmtk's IJG 6b inverse DCTs and upsampling differ a little.
        let tolerance = name.contains("baseline") ? 6 : 1
        let worst = Self.worst(ours.bitmap, theirs)
        #expect(worst != nil && worst! <= tolerance, "\(name): \(worst ?? -1)")
    }

    // MARK: - Files written here

    static func le16(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF)] }
    static func le32(_ v: Int) -> [UInt8] { le16(v & 0xFFFF) + le16(v >> 16 & 0xFFFF) }

    /// An explicit-VR little-endian element (a UI value padded with NUL, other text with a space).
    static func element(_ group: Int, _ element: Int, _ vr: String, _ value: [UInt8]) -> [UInt8] {
        let padded = value.count % 2 == 0 ? value : value + [vr == "UI" ? 0 : 0x20]
        let long = ["OB", "OW", "SQ", "UN", "UT"].contains(vr)
        return le16(group) + le16(element) + Array(vr.utf8) + (long ? [0, 0] + le32(padded.count) : le16(padded.count)) + padded
    }

    static func text(_ group: Int, _ tag: Int, _ vr: String, _ value: String) -> [UInt8] {
        element(group, tag, vr, Array(value.utf8))
    }

    static func us(_ group: Int, _ tag: Int, _ value: Int) -> [UInt8] { element(group, tag, "US", le16(value)) }

    /// A DICOM file: preamble, "DICM", the meta group naming `syntax`, then `body` (its elements, the
    /// pixel data last).
    static func file(syntax: String, _ body: [UInt8]) -> [UInt8] {
        [UInt8](repeating: 0, count: 128) + Array("DICM".utf8) + text(0x0002, 0x0010, "UI", syntax) + body
    }

    /// The image pixel module of a `columns` × `rows` grey picture of 16-bit samples.
    static func greyModule(columns: Int, rows: Int, signed: Bool, photometric: String = "MONOCHROME2") -> [UInt8] {
        us(0x0028, 0x0002, 1) + text(0x0028, 0x0004, "CS", photometric) + us(0x0028, 0x0010, rows) + us(0x0028, 0x0011, columns)
            + us(0x0028, 0x0100, 16) + us(0x0028, 0x0101, 16) + us(0x0028, 0x0102, 15) + us(0x0028, 0x0103, signed ? 1 : 0)
    }

    /// The grey levels of a picture (its red channel), top row first.
    static func levels(_ image: DecodedImage) -> [UInt8] {
        stride(from: 0, to: image.bitmap.pixels.count, by: 4).map { image.bitmap.pixels[$0] }
    }

    @Test func theRescaleAndTheFirstWindowGiveTheLevelsComputedByHand() throws {
        // Signed samples; the rescale (×2, −10) gives −2058, −10, 70, 150, 1990. The first of two
        // windows, centre 70 and width 161, runs from −10.5 (black) to 149.5 (white): PS3.3 C.11.2.1.2.1.
        let stored = [-1024, 0, 40, 80, 1000]
        let pixels = stored.flatMap { Self.le16($0 & 0xFFFF) }
        func picture(_ photometric: String, window: Bool) throws -> [UInt8] {
            var body = Self.greyModule(columns: 5, rows: 1, signed: true, photometric: photometric)
            if window { body += Self.text(0x0028, 0x1050, "DS", "70\\400") + Self.text(0x0028, 0x1051, "DS", "161\\2000") }
            body += Self.text(0x0028, 0x1052, "DS", "-10") + Self.text(0x0028, 0x1053, "DS", "2")
            body += Self.element(0x7FE0, 0x0010, "OW", pixels)
            return Self.levels(try Self.ours(Self.file(syntax: "1.2.840.10008.1.2.1", body)))
        }
        // (−10 + 10.5) / 160 × 255 = 0.8; (70 + 10.5) / 160 × 255 = 128.3.
        #expect(try picture("MONOCHROME2", window: true) == [0, 1, 128, 255, 255])
        #expect(try picture("MONOCHROME1", window: true) == [255, 254, 127, 0, 0])
        // Without a window, the range −2058…1990: (2048, 2128, 2208) / 4048 × 255 = 129.0, 134.1, 139.1.
        #expect(try picture("MONOCHROME2", window: false) == [0, 129, 134, 139, 255])
    }

    /// A lossless JPEG (SOF3) of 16-bit grey `rows` with `predictor` and a restart marker every
    /// `interval` samples (a whole number of rows), its differences coded with one table of 5-bit codes for categories 0-16.
    /// Predictions as T.81 H.1.2.1 gives them: 2^15 at the start and after each restart, the left
    /// neighbour along the first line of a restart interval, the upper one down the first column.
    static func losslessJPEG(_ rows: [[Int]], predictor: Int, interval: Int) -> [UInt8] {
        let height = rows.count
        let width = rows[0].count
        var out: [UInt8] = [0xFF, 0xD8]
        out += [0xFF, 0xC3, 0, 11, 16, UInt8(height >> 8), UInt8(height & 0xFF), UInt8(width >> 8), UInt8(width & 0xFF), 1, 1, 0x11, 0]
        out += [0xFF, 0xC4, 0, 36, 0x00] + [0, 0, 0, 0, 17] + [UInt8](repeating: 0, count: 11) + (0...16).map { UInt8($0) }
        out += [0xFF, 0xDD, 0, 4, UInt8(interval >> 8), UInt8(interval & 0xFF)]
        out += [0xFF, 0xDA, 0, 8, 1, 1, 0x00, UInt8(predictor), 0, 0]
        var accumulator = 0
        var count = 0
        func put(_ value: Int, _ bits: Int) {
            for k in stride(from: bits - 1, through: 0, by: -1) {
                accumulator = accumulator << 1 | (value >> k & 1)
                count += 1
                if count == 8 {
                    out.append(UInt8(accumulator))
                    if accumulator == 0xFF { out.append(0) }
                    accumulator = 0
                    count = 0
                }
            }
        }
        var restartRow = 0
        var markers = 0
        for y in 0..<height {
            for x in 0..<width {
                let index = y * width + x
                let fresh = index == 0 || (interval > 0 && index % interval == 0)
                if fresh && index > 0 {
                    if count > 0 { put((1 << (8 - count)) - 1, 8 - count) }
                    out += [0xFF, UInt8(0xD0 + markers % 8)]
                    markers += 1
                }
                if fresh { restartRow = y }
                let predicted: Int
                if fresh {
                    predicted = 1 << 15
                } else if y == restartRow {
                    predicted = rows[y][x - 1]
                } else if x == 0 {
                    predicted = rows[y - 1][x]
                } else {
                    let (ra, rb, rc) = (rows[y][x - 1], rows[y - 1][x], rows[y - 1][x - 1])
                    predicted = [ra, rb, rc, ra + rb - rc, ra + ((rb - rc) >> 1), rb + ((ra - rc) >> 1), (ra + rb) >> 1][predictor - 1]
                }
                var diff = (rows[y][x] - predicted) & 0xFFFF
                if diff > 32768 { diff -= 65536 }
                let category = diff == 32768 ? 16 : diff == 0 ? 0 : Int.bitWidth - abs(diff).leadingZeroBitCount
                put(category, 5)
                if category > 0 && category < 16 { put(diff >= 0 ? diff : diff + (1 << category) - 1, category) }
            }
        }
        if count > 0 { put((1 << (8 - count)) - 1, 8 - count) }
        return out + [0xFF, 0xD9]
    }

    /// A DICOM file holding one encapsulated frame in `fragments`, under `syntax`.
    static func encapsulated(syntax: String, module: [UInt8], fragments: [[UInt8]]) -> [UInt8] {
        var pixels = Self.le16(0x7FE0) + Self.le16(0x0010) + Array("OB".utf8) + [0, 0] + Self.le32(-1 & 0xFFFF_FFFF)
        pixels += Self.le16(0xFFFE) + Self.le16(0xE000) + Self.le32(0)
        for fragment in fragments {
            let even = fragment.count % 2 == 0 ? fragment : fragment + [0]
            pixels += Self.le16(0xFFFE) + Self.le16(0xE000) + Self.le32(even.count) + even
        }
        pixels += Self.le16(0xFFFE) + Self.le16(0xE0DD) + Self.le32(0)
        return Self.file(syntax: syntax, module + pixels)
    }

    @Test(arguments: [1, 4, 5, 6, 7])
    func aLosslessJPEGFrameWithRestartMarkersGivesItsValues(predictor: Int) throws {
        // 37 × 23 values over the whole 16-bit range (a ramp, a tilt and a ripple), a restart every two
        // rows (T.81 H.1.1: a whole number of rows): each interval's first line is predicted from the
        // left, the next from every rule.
        let values = (0..<23).map { y in (0..<37).map { x in (x * 1700 + y * 900 + (x * y % 7) * 3000) % 65536 } }
        let jpeg = Self.losslessJPEG(values, predictor: predictor, interval: 74)
        let dicom = Self.encapsulated(
            syntax: "1.2.840.10008.1.2.4.57", module: Self.greyModule(columns: 37, rows: 23, signed: false), fragments: [jpeg])
        let flat = values.flatMap { $0 }
        let (low, high) = (flat.min()!, flat.max()!)
        let expected = flat.map { UInt8((Double($0 - low) / Double(high - low) * 255).rounded()) }
        #expect(Self.levels(try Self.ours(dicom)) == expected)
        // dcmtk reads the same file to the same picture (it truncates where Vignette rounds).
        let folder = try JPEG2000Tests.workFolder("dicom-restart-\(predictor)")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Data(dicom).write(to: URL(fileURLWithPath: folder + "/f.dcm"))
        let theirs = try Self.dcmtkReading(folder + "/f.dcm", window: false, folder: folder)
        let worst = Self.worst(try Self.ours(dicom).bitmap, theirs)
        #expect(worst != nil && worst! <= 1, "\(worst ?? -1)")
    }

    @Test func aJPEGFrameInTwoFragmentsIsJoined() throws {
        let jpeg = try Fixtures.bytes("jpeg/pillow/flower.jpg")
        let module =
            Self.us(0x0028, 0x0002, 3) + Self.text(0x0028, 0x0004, "CS", "YBR_FULL_422") + Self.us(0x0028, 0x0010, 360)
            + Self.us(0x0028, 0x0011, 480) + Self.us(0x0028, 0x0100, 8) + Self.us(0x0028, 0x0101, 8) + Self.us(0x0028, 0x0102, 7)
        let half = jpeg.count / 2 & ~1
        let split = Self.encapsulated(
            syntax: "1.2.840.10008.1.2.4.50", module: module, fragments: [Array(jpeg[..<half]), Array(jpeg[half...])])
        let whole = try jpeg.withUnsafeBytes { try ImageDecoder.jpeg($0, request: ThumbnailRequest(maxPixelSize: 128)) }
        let ours = try StreamedFormatTests.thumbnail(split, name: "f.dcm", size: 128)
        #expect(ours.bitmap == whole.bitmap)
    }

    @Test func aLargeFrameReadInBoxesLooksAsTheSamePixelsReadWhole() throws {
        // 1030 × 770 grey (rings and a ramp): for a 128-pixel thumbnail the frame is read in 4 × 4
        // boxes (the last ones partial), then resampled; a PGM of the same pixels is read whole.
        let (width, height) = (1030, 770)
        let pixels = (0..<(width * height)).map { i -> UInt8 in
            let (x, y) = (i % width - 515, i / width - 385)
            return UInt8(((x * x + y * y) / 900 % 2 == 0 ? 60 : 180) + i % width / 20)
        }
        let module =
            Self.us(0x0028, 0x0002, 1) + Self.text(0x0028, 0x0004, "CS", "MONOCHROME2") + Self.us(0x0028, 0x0010, height)
            + Self.us(0x0028, 0x0011, width) + Self.us(0x0028, 0x0100, 8) + Self.us(0x0028, 0x0101, 8) + Self.us(0x0028, 0x0102, 7)
            + Self.text(0x0028, 0x1050, "DS", "127.5") + Self.text(0x0028, 0x1051, "DS", "256")
        let dicom = Self.file(syntax: "1.2.840.10008.1.2.1", module + Self.element(0x7FE0, 0x0010, "OB", pixels))
        let pgm = Array("P5\n\(width) \(height)\n255\n".utf8) + pixels
        let ours = try StreamedFormatTests.thumbnail(dicom, name: "f.dcm", size: 128)
        let whole = try StreamedFormatTests.thumbnail(pgm, name: "f.pgm", size: 128)
        #expect(ours.bitmap.width == 128 && ours.bitmap.height == 96)
        let worst = Self.worst(ours.bitmap, whole.bitmap)
        #expect(worst != nil && worst! <= 2, "\(worst ?? -1)")
    }

    /// What our decoder says of a file, as the thumbnail's error.
    static func refusal(_ bytes: [UInt8]) -> String {
        do {
            _ = try Self.ours(bytes)
            return "decoded"
        } catch {
            return "\(error)"
        }
    }

    @Test func whatCannotBeShownIsSaidByName() throws {
        let grey = Self.greyModule(columns: 2, rows: 1, signed: false)
        let pixels = Self.element(0x7FE0, 0x0010, "OW", [1, 0, 2, 0])
        #expect(
            Self.refusal(Self.file(syntax: "1.2.840.10008.1.2.4.107", grey + pixels))
                == "unsupported DICOM: HEVC video (transfer syntax 1.2.840.10008.1.2.4.107) is not read")
        #expect(
            Self.refusal(Self.file(syntax: "1.2.840.10008.1.2.1.99", grey + pixels))
                == "unsupported DICOM: a deflated data set (transfer syntax 1.2.840.10008.1.2.1.99) is not read")
        #expect(
            Self.refusal(Self.file(syntax: "1.2.840.10008.1.2.4.100", grey + pixels))
                == "unsupported DICOM: MPEG-2 video (transfer syntax 1.2.840.10008.1.2.4.100) is not read")
        // A structured report or a treatment plan: an object without a picture.
        #expect(
            Self.refusal(Self.file(syntax: "1.2.840.10008.1.2.1", Self.text(0x0008, 0x0060, "CS", "SR")))
                == "unsupported DICOM: no pixel data in the file (an object without a picture: a report, plan or waveform)")
        #expect(
            Self.refusal(Self.file(syntax: "1.2.840.10008.1.2.1", grey + Array(pixels.dropLast(2))))
                == "truncated DICOM: the file ends inside its pixel data")
        #expect(
            Self.refusal(
                Self.file(syntax: "1.2.840.10008.1.2.1", Self.greyModule(columns: 2, rows: 1, signed: false, photometric: "HSV") + pixels))
                == "unsupported DICOM: photometric interpretation HSV is not read")
        let twelve =
            Self.us(0x0028, 0x0002, 1) + Self.us(0x0028, 0x0010, 1) + Self.us(0x0028, 0x0011, 2) + Self.us(0x0028, 0x0100, 16)
            + Self.us(0x0028, 0x0101, 12)
        #expect(
            Self.refusal(Self.encapsulated(syntax: "1.2.840.10008.1.2.4.51", module: twelve, fragments: [[0xFF, 0xD8, 0xFF, 0xD9]]))
                == "unsupported DICOM: 12-bit JPEG pixel data is not read")
        // A lossless JPEG Huffman table with three 1-bit codes (two fit): found by fuzz_dicom, when
        // the codes were entered in the lookup table before they were counted.
        var overfull = Self.losslessJPEG([[1, 2], [3, 4]], predictor: 1, interval: 0)
        overfull[20] = 3
        overfull[24] = 14
        #expect(
            Self.refusal(
                Self.encapsulated(
                    syntax: "1.2.840.10008.1.2.4.70", module: Self.greyModule(columns: 2, rows: 2, signed: false), fragments: [overfull]))
                == "corrupt DICOM: a Huffman table has more codes than fit")
        // Sequences of undefined length nested 40 deep before the picture.
        var nested: [UInt8] = []
        for _ in 0..<40 {
            nested +=
                Self.le16(0x0008) + Self.le16(0x1115) + Array("SQ".utf8) + [0, 0, 0xFF, 0xFF, 0xFF, 0xFF] + Self.le16(0xFFFE)
                + Self.le16(0xE000) + [0xFF, 0xFF, 0xFF, 0xFF]
        }
        #expect(
            Self.refusal(Self.file(syntax: "1.2.840.10008.1.2.1", nested + grey + pixels))
                == "DICOM over a decoder limit: sequences nested more than 32 deep")
    }
}
