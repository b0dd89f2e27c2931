import CVignetteCodecs
import Foundation
public import VignetteCore

/// Encodes bitmaps as PNG or JPEG through the C shim.
public enum ImageEncoder {
    /// `bitmap` encoded as `format`: PNG keeps alpha when the bitmap has any; JPEG at `quality` (1–100).
    public static func encode(
        _ bitmap: Bitmap, as format: ImageFormat, quality: Int = 85, text: [(String, String)] = [], compression: Int = 6
    )
        throws -> [UInt8]
    {
        switch format {
        case .png: try png(bitmap, keepAlpha: bitmap.hasTransparency, text: text, compression: compression)
        case .jpeg: try jpeg(bitmap, quality: quality)
        }
    }

    /// PNG bytes of `bitmap`: RGBA, or RGB when `alpha` is false (fully opaque images), with tEXt chunks.
    public static func png(_ bitmap: Bitmap, keepAlpha: Bool = true, text: [(String, String)] = [], compression: Int = 6) throws -> [UInt8]
    {
        let channels = keepAlpha ? 4 : 3
        let pixels = keepAlpha ? bitmap.pixels : bitmap.rgb()
        var err = vgn_error()
        var out: UnsafeMutablePointer<UInt8>? = nil
        var size = 0
        // tEXt is Latin-1: characters outside it become "?" (freedesktop keys and values are ASCII).
        let keys = text.map { strdup(latin1($0.0)) }
        let values = text.map { strdup(latin1($0.1)) }
        defer {
            keys.forEach { free($0) }
            values.forEach { free($0) }
        }
        let status = pixels.withUnsafeBufferPointer { px in
            keys.map { UnsafePointer<CChar>($0) }.withUnsafeBufferPointer { k in
                values.map { UnsafePointer<CChar>($0) }.withUnsafeBufferPointer { v in
                    vgn_png_encode(
                        px.baseAddress, UInt32(bitmap.width), UInt32(bitmap.height), bitmap.width * channels, Int32(channels),
                        k.baseAddress, v.baseAddress, Int32(text.count), Int32(compression), &out, &size, &err)
                }
            }
        }
        guard status == 0, let out else { throw VignetteError(.io, "cannot encode PNG: \(CodecError.text(err.message))") }
        defer { vgn_free(out) }
        return Array(UnsafeBufferPointer(start: out, count: size))
    }

    /// JPEG bytes of `bitmap` at `quality` (1–100), composited over `background`.
    public static func jpeg(_ bitmap: Bitmap, quality: Int = 85, background: (UInt8, UInt8, UInt8) = (255, 255, 255)) throws -> [UInt8] {
        let rgb = bitmap.rgb(over: background)
        var err = vgn_error()
        var out: UnsafeMutablePointer<UInt8>? = nil
        var size = 0
        let status = rgb.withUnsafeBufferPointer { px in
            vgn_jpeg_encode(
                px.baseAddress, UInt32(bitmap.width), UInt32(bitmap.height), bitmap.width * 3, 3, Int32(quality), &out, &size, &err)
        }
        guard status == 0, let out else { throw VignetteError(.io, "cannot encode JPEG: \(CodecError.text(err.message))") }
        defer { vgn_free(out) }
        return Array(UnsafeBufferPointer(start: out, count: size))
    }

    /// The string as a C string of Latin-1 bytes, non-Latin-1 characters replaced by "?".
    static func latin1(_ text: String) -> [CChar] {
        text.unicodeScalars.map { CChar(bitPattern: $0.value < 256 ? UInt8($0.value) : UInt8(ascii: "?")) } + [0]
    }
}
