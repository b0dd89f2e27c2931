import Foundation
import Testing
import VignetteCore

@testable import VignetteImaging

/// FITS from our own decoder: small files of known values (made by `Fixtures/fits/make-fits.py`
/// with astropy), astropy's own test files (a Hubble STIS raw frame among them) against libvips'
/// reading through cfitsio, the sky stretch, and what a file that cannot be shown says.
@Suite("FITS")
struct FITSTests {
    /// The grey levels of a thumbnail's pixels (the red channel; FITS grey is R = G = B), top row first.
    static func levels(_ image: DecodedImage) -> [UInt8] {
        stride(from: 0, to: image.bitmap.pixels.count, by: 4).map { image.bitmap.pixels[$0] }
    }

    @Test func valuesAreShownWithTheFirstStoredRowAtTheBottom() throws {
        // 8-bit data is shown as stored; ds9, ImageMagick and libvips put the first stored row at the bottom.
        let ramp = try StreamedFormatTests.fixture("fits/ramp-u8.fits")
        #expect(ramp.bitmap.width == 4 && ramp.bitmap.height == 3)
        #expect(Self.levels(ramp) == [160, 180, 200, 220, 80, 100, 120, 140, 0, 20, 40, 60])
        // BSCALE 2, BZERO 100: 100…116 over the range (the median mid-range: no stretch); BLANK black.
        let scaled = try StreamedFormatTests.fixture("fits/ramp-i32-blank.fits")
        #expect(Self.levels(scaled) == [159, 191, 223, 255, 0, 0, 32, 64, 96, 128])
        // Doubles spanning the whole range a double holds: its ends are black and white.
        func card(_ text: String) -> [UInt8] { Array(text.utf8) + [UInt8](repeating: 0x20, count: 80 - text.utf8.count) }
        var wide = card("SIMPLE  =                    T") + card("BITPIX  =                  -64") + card("NAXIS   =                    2")
        wide += card("NAXIS1  =                    3") + card("NAXIS2  =                    1") + card("END")
        wide += [UInt8](repeating: 0x20, count: 2880 - wide.count)
        for value in [-Double.greatestFiniteMagnitude, 0, Double.greatestFiniteMagnitude] {
            wide += withUnsafeBytes(of: value.bitPattern.bigEndian) { Array($0) }
        }
        #expect(Self.levels(try StreamedFormatTests.thumbnail(wide, name: "wide.fits", size: 3)) == [0, 128, 255])
        // Three planes are red, green and blue; floats within 0-1 are shown as they are.
        let cube = try StreamedFormatTests.fixture("fits/rgb-cube-f32.fits")
        #expect(
            cube.bitmap.pixels == [
                204, 0, 0, 255, 204, 0, 0, 255, 0, 204, 0, 255, 0, 204, 0, 255, 0, 0, 204, 255, 0, 0, 204, 255,
                102, 0, 0, 255, 102, 0, 0, 255, 0, 102, 0, 255, 0, 102, 0, 255, 0, 0, 102, 255, 0, 0, 102, 255,
            ])
    }

    @Test func aSkyBackgroundIsStretchedToAQuarterGrey() throws {
        let counts = try StreamedFormatTests.fixture("fits/starfield-i16.fits", size: 160)
        let floats = try StreamedFormatTests.fixture("fits/starfield-f32.fits", size: 160)
        let a = Self.levels(counts)
        let b = Self.levels(floats)
        #expect(counts.bitmap.width == 160 && counts.bitmap.height == 100)
        #expect(a.sorted()[a.count / 2] == 64)
        // The saturated star is white; shown linearly the sky would be black (1000 of 0-60000).
        #expect(a.max() == 255 && a.min() == 0)
        // The same sky as floats in an IMAGE extension behind an empty primary unit: the same picture,
        // but for the integers' rounding.
        #expect(zip(a, b).allSatisfy { abs(Int($0) - Int($1)) <= 2 })
    }

    @Test(arguments: ["o4sp040b0_raw", "scale", "starfield-f32"])
    func astropysFilesAgreeWithLibvipsThroughARisingCurve(name: String) throws {
        let folder = try JPEG2000Tests.workFolder("fits-\(name)")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = Fixtures.root + "/fits/\(name).fits"
        #expect(try FormatCorpusTests.run(["vips", "csvsave", path, folder + "/v.csv"]) == 0)
        let values = try String(contentsOfFile: folder + "/v.csv", encoding: .utf8)
            .split(whereSeparator: { $0 == "\n" || $0 == "\t" }).map { try #require(Double($0)) }
        let ours = try StreamedFormatTests.fixture("fits/\(name).fits", size: 1024)
        let levels = Self.levels(ours)
        #expect(values.count == levels.count)
        // Each grey level is a rising function of libvips' value (BZERO and BSCALE applied, the same
        // unit, the same row order); and it is no flat picture.
        let order = values.indices.sorted { values[$0] < values[$1] }
        #expect(zip(order, order.dropFirst()).allSatisfy { levels[$0] <= levels[$1] })
        #expect(Set(levels).count >= 10)
    }

    @Test func whatCannotBeShownSaysWhy() throws {
        func reason(_ bytes: [UInt8], limits: ImageLimits = .standard) throws -> String {
            try #require(throws: VignetteError.self) {
                try StreamedFormatTests.thumbnail(bytes, name: "x.fits", limits: limits)
            }.reason
        }
        #expect(
            try reason(Fixtures.bytes("fits/comp.fits"))
                == "unsupported FITS: the image is tile-compressed (fpack, ZIMAGE), which is not read")
        #expect(try reason(Fixtures.bytes("fits/stddata.fits")) == "unsupported FITS: no image in the file (tables or headers only)")
        let sky = try Fixtures.bytes("fits/starfield-i16.fits")
        #expect(try reason(Array(sky.prefix(2880 + 100))) == "truncated FITS: the file is too short for the pixels its header gives")
        #expect(try reason(Array(sky.prefix(300))) == "truncated FITS: a header ends before its END card")
        #expect(throws: VignetteError(.refused, "image is 160 × 100 pixels (16000 pixels), over the limit of 10000 pixels")) {
            try StreamedFormatTests.thumbnail(sky, name: "sky.fits", limits: ImageLimits(maxPixels: 10_000))
        }
        // A header promising 100,000² pixels in one block: refused at open, before anything is allocated.
        func card(_ text: String) -> [UInt8] { Array(text.utf8) + [UInt8](repeating: 0x20, count: 80 - text.utf8.count) }
        var bomb = card("SIMPLE  =                    T") + card("BITPIX  =                   16") + card("NAXIS   =                    2")
        bomb += card("NAXIS1  =               100000") + card("NAXIS2  =               100000") + card("END")
        bomb += [UInt8](repeating: 0x20, count: 2880 - bomb.count) + [UInt8](repeating: 0, count: 2880)
        #expect(try reason(bomb) == "truncated FITS: the file is too short for the pixels its header gives")
        let odd = Array(
            String(decoding: bomb, as: UTF8.self).replacingOccurrences(of: "=                   16", with: "=                   12").utf8)
        #expect(try reason(odd) == "corrupt FITS: BITPIX is 12 (8, 16, 32, 64, -32 or -64 are meant)")
    }
}
