import CVignetteCodecs
import Foundation
public import VignetteCore

/// Encodes bitmaps as PNG, JPEG, WebP or AVIF through the C shim.
public enum ImageEncoder {
    /// `bitmap` encoded as `format`: PNG, WebP and AVIF keep alpha when the bitmap has any;
    /// JPEG, WebP and AVIF at `quality` (1–100).
    public static func encode(
        _ bitmap: Bitmap, as format: ImageFormat, quality: Int = 85, text: [(String, String)] = [], compression: Int = 6
    )
        throws -> [UInt8]
    {
        switch format {
        case .png: try png(bitmap, keepAlpha: bitmap.hasTransparency, text: text, compression: compression)
        case .jpeg: try jpeg(bitmap, quality: quality)
        case .webp: try webp(bitmap, quality: quality)
        case .avif: try avif(bitmap, quality: quality)
        }
    }

    /// The default AV1 encoder speed (libaom's cpu-used). Measured on the 32 corpus photos at
    /// 256 px and matched SSIM (bench/output-formats.sh): speed 8 gives 0.65x the JPEG bytes,
    /// 6 gives 0.61x for about 25 ms more, 4 gives 0.55x for about 100 ms more a thumbnail.
    public static let avifSpeed = 6

    /// Lossy WebP bytes of `bitmap` at `quality` (1–100); alpha kept when the bitmap has any.
    public static func webp(_ bitmap: Bitmap, quality: Int = 85) throws -> [UInt8] {
        try encodeRGB(bitmap, name: "WebP") { px, channels, out, size, err in
            vgn_webp_encode(
                px, UInt32(bitmap.width), UInt32(bitmap.height), bitmap.width * Int(channels), channels, Int32(quality), 0, out, size, err)
        }
    }

    /// AVIF bytes of `bitmap` at `quality` (1–100) and `speed` (0–9); alpha kept when the bitmap has any.
    public static func avif(_ bitmap: Bitmap, quality: Int = 85, speed: Int = avifSpeed) throws -> [UInt8] {
        try encodeRGB(bitmap, name: "AVIF") { px, channels, out, size, err in
            vgn_avif_encode(
                px, UInt32(bitmap.width), UInt32(bitmap.height), bitmap.width * Int(channels), channels, Int32(quality), Int32(speed), out,
                size, err)
        }
    }

    /// Runs a shim encoder over RGBA pixels (RGB when the bitmap is opaque) and copies its output.
    private static func encodeRGB(
        _ bitmap: Bitmap, name: String,
        _ encoder: (
            UnsafePointer<UInt8>?, Int32, UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>, UnsafeMutablePointer<Int>,
            UnsafeMutablePointer<vgn_error>
        ) -> Int32
    ) throws -> [UInt8] {
        let alpha = bitmap.hasTransparency
        let pixels = alpha ? bitmap.pixels : bitmap.rgb()
        var err = vgn_error()
        var out: UnsafeMutablePointer<UInt8>? = nil
        var size = 0
        let status = pixels.withUnsafeBufferPointer { px in encoder(px.baseAddress, alpha ? 4 : 3, &out, &size, &err) }
        return try take(status, out, size, err, name: name)
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
        return try take(status, out, size, err, name: "PNG")
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
        return try take(status, out, size, err, name: "JPEG")
    }

    /// An encoder's output copied out and freed, or its error as "cannot encode NAME: reason".
    private static func take(_ status: Int32, _ out: UnsafeMutablePointer<UInt8>?, _ size: Int, _ err: vgn_error, name: String) throws
        -> [UInt8]
    {
        guard status == 0, let out else { throw VignetteError(.io, "cannot encode \(name): \(CodecError.text(err.message))") }
        defer { vgn_free(out) }
        return Array(UnsafeBufferPointer(start: out, count: size))
    }

    /// The string as a C string of Latin-1 bytes, non-Latin-1 characters replaced by "?".
    static func latin1(_ text: String) -> [CChar] {
        text.unicodeScalars.map { CChar(bitPattern: $0.value < 256 ? UInt8($0.value) : UInt8(ascii: "?")) } + [0]
    }
}
