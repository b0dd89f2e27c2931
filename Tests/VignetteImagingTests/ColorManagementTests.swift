import Foundation
import Testing
import VignetteCore
import VignetteImaging

/// Embedded ICC profiles are converted to sRGB (LittleCMS), so a ProPhoto (ROMM RGB) or CMYK
/// picture looks like its sRGB original instead of dull or garish.
@Suite("Colour management")
struct ColorManagementTests {
    static let request = ThumbnailRequest(maxPixelSize: 160)
    static let resolver = TypeResolver()

    /// Our thumbnail of a fixture, through the built-in decoders.
    static func thumbnail(_ name: String) throws -> Bitmap {
        let bytes = try Fixtures.bytes("color/" + name)
        let type = resolver.resolve(bytes: bytes, filename: name).type
        return try ImageThumbnailer(resolver: resolver).thumbnail(bytes: bytes, type: type, request: request).bitmap
    }

    /// The same file with its profile chunk made unreadable: what a viewer without colour management shows.
    static func unmanaged(_ name: String, marker: String) throws -> Bitmap {
        var bytes = try Fixtures.bytes("color/" + name)
        let needle = Array(marker.utf8)
        let at = try #require((0...(bytes.count - needle.count)).first { bytes[$0..<($0 + needle.count)].elementsEqual(needle) })
        for i in 0..<needle.count { bytes[at + i] = UInt8(ascii: "x") }
        let type = resolver.resolve(bytes: bytes, filename: name).type
        return try ImageThumbnailer(resolver: resolver).thumbnail(bytes: bytes, type: type, request: request).bitmap
    }

    @Test(arguments: [
        "prophoto.jpg", "prophoto.png", "prophoto.webp", "prophoto.tif", "prophoto.heic", "prophoto.jxl", "prophoto.psd",
    ])
    func aProPhotoPictureLooksLikeItsSRGBOriginal(name: String) throws {
        let original = try Self.thumbnail("base.png")
        let converted = try Self.thumbnail(name)
        let difference = Self.meanDeltaE(original, converted)
        print("colour: \(name) mean ΔE \(String(format: "%.2f", difference)) against the sRGB original")
        #expect(difference < 2.5, "mean ΔE \(difference) between \(name) and its sRGB original")
    }

    @Test(arguments: [
        ("prophoto.jpg", "ICC_PROFILE"), ("prophoto.png", "iCCP"), ("prophoto.webp", "ICCP"), ("cmyk.jpg", "ICC_PROFILE"),
        // A Photoshop document's profile is image resource 1039 (0x040F) in an 8BIM block.
        ("prophoto.psd", "8BIM\u{4}\u{F}"), ("cmyk.psd", "8BIM\u{4}\u{F}"),
    ])
    func withoutItsProfileThePictureWouldBeFarOff(name: String, marker: String) throws {
        // The check above could not fail if the profile changed nothing.
        let difference = Self.meanDeltaE(try Self.thumbnail("base.png"), try Self.unmanaged(name, marker: marker))
        print("colour: \(name) without its profile mean ΔE \(String(format: "%.2f", difference))")
        #expect(difference > 8, "mean ΔE \(difference) without the profile")
    }

    @Test(arguments: ["cmyk.jpg", "cmyk.tif", "cmyk.psd"])
    func aCMYKPictureWithItsProfileLooksLikeItsSRGBOriginal(name: String) throws {
        let difference = Self.meanDeltaE(try Self.thumbnail("base.png"), try Self.thumbnail(name))
        print("colour: \(name) mean ΔE \(String(format: "%.2f", difference)) against the sRGB original")
        #expect(difference < 3.5, "mean ΔE \(difference) between \(name) and its sRGB original")
    }

    /// Mean CIE76 ΔE between two sRGB thumbnails of the same size.
    static func meanDeltaE(_ a: Bitmap, _ b: Bitmap) -> Double {
        guard a.width == b.width, a.height == b.height else { return .infinity }
        var sum = 0.0
        for i in stride(from: 0, to: a.pixels.count, by: 4) {
            let p = lab(a.pixels[i], a.pixels[i + 1], a.pixels[i + 2])
            let q = lab(b.pixels[i], b.pixels[i + 1], b.pixels[i + 2])
            sum += ((p.0 - q.0) * (p.0 - q.0) + (p.1 - q.1) * (p.1 - q.1) + (p.2 - q.2) * (p.2 - q.2)).squareRoot()
        }
        return sum / Double(a.width * a.height)
    }

    /// CIE L*a*b* (D65) of an sRGB colour.
    static func lab(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> (Double, Double, Double) {
        func linear(_ v: UInt8) -> Double {
            let c = Double(v) / 255
            return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4)
        }
        let (rl, gl, bl) = (linear(r), linear(g), linear(b))
        let x = (0.4124 * rl + 0.3576 * gl + 0.1805 * bl) / 0.95047
        let y = 0.2126 * rl + 0.7152 * gl + 0.0722 * bl
        let z = (0.0193 * rl + 0.1192 * gl + 0.9505 * bl) / 1.08883
        func f(_ t: Double) -> Double { t > 0.008856 ? cbrt(t) : 7.787 * t + 16 / 116 }
        return (116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z)))
    }
}
