import Foundation
import Testing
import VignetteCore

@testable import VignetteImaging

/// TIFFs of floating-point and signed samples (elevation models, scientific and medical images),
/// which libtiff's RGBA interface refuses or reads as unsigned: stretched to 8 bits over the range
/// found, NaN and GDAL's no-data value transparent. Fixtures from Fixtures/make-scaled-tiffs.py.
@Suite("TIFF pages of floating-point and signed samples")
struct ScaledTIFFTests {
    /// The fixture decoded at full size, as rows of RGBA quadruples.
    private func pixels(_ name: String) throws -> [[UInt8]] {
        let bytes = try Fixtures.bytes("scaled-tiff/" + name)
        let image = try bytes.withUnsafeBytes { try ImageDecoder.decode(.tiff, $0, request: fullSize) }
        let b = image.bitmap
        return (0..<(b.width * b.height)).map { Array(b.pixels[($0 * 4)..<($0 * 4 + 4)]) }
    }

    @Test func floatValuesWithinZeroToOneKeepThatRange() throws {
        #expect(try pixels("float32-unit.tif") == [[0, 0, 0, 255], [64, 64, 64, 255], [128, 128, 128, 255], [255, 255, 255, 255]])
    }

    @Test func anElevationModelIsStretchedOverItsRangeAndItsNoDataIsTransparent() throws {
        // 100, 600, 1100 m and GDAL's -9999 (which would otherwise squash every height to white).
        let row = [[0, 0, 0, 255], [128, 128, 128, 255], [255, 255, 255, 255], [0, 0, 0, 0]] as [[UInt8]]
        #expect(try pixels("dem-int16-nodata.tif") == row + [row[2], row[1], row[0], row[3]])
    }

    @Test func signedBytesHalfFloatsDoublesAndAlphaAreRead() throws {
        #expect(try pixels("int8.tif") == [[0, 0, 0, 255], [255, 255, 255, 255]])
        #expect(try pixels("float16-rgb.tif") == [[255, 0, 0, 255], [0, 128, 255, 255]])
        #expect(try pixels("float64-miniswhite.tif") == [[255, 255, 255, 255], [0, 0, 0, 255]])
        #expect(try pixels("float32-grey-alpha.tif") == [[128, 128, 128, 255], [255, 255, 255, 128]])
    }

    @Test func tiledAndDeflatedWithTheFloatPredictorIsTheSameAsPlainStrips() throws {
        let strips = try pixels("ramp-strip.tif"), tiles = try pixels("ramp-tiled-deflate.tif")
        #expect(strips.count == 40 * 20)
        #expect(tiles == strips)
        // Value 10x + y over 0…409; NaN at (3, 2) is transparent.
        for (x, y) in [(0, 0), (39, 19), (20, 10), (3, 2)] {
            let expected = (x, y) == (3, 2) ? 0 : UInt8((Double(10 * x + y) / 409 * 255).rounded(.toNearestOrEven))
            #expect(strips[y * 40 + x][0] == expected, "(\(x), \(y))")
            #expect(strips[y * 40 + x][3] == ((x, y) == (3, 2) ? 0 : 255), "(\(x), \(y))")
        }
    }

    @Test func aTruncatedFloatPageIsACleanError() throws {
        let bytes = Array(try Fixtures.bytes("scaled-tiff/ramp-strip.tif").prefix(2000))
        #expect(
            throws: VignetteError(.corrupt, "truncated TIFF: tiff: TIFFFillStrip: Read error on strip 0; got 1854 bytes, expected 3200")
        ) {
            try bytes.withUnsafeBytes { try ImageDecoder.decode(.tiff, $0, request: fullSize) }
        }
    }
}
