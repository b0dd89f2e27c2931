import CVignetteCodecs
import Foundation
public import VignetteCore

/// Decodes JPEG and PNG data straight to thumbnail size, never holding the full image.
///
/// JPEG is shrunk in the DCT domain (1/2, 1/4, 1/8) to the smallest scale still covering
/// the target, and progressive files at 1/8 stop after their DC scans. PNG rows stream
/// through the downscaler. The header's size is checked against `ImageLimits` before any
/// pixel memory is allocated.
public enum ImageDecoder {
    /// Rows decoded per call into the shim.
    static let band = 16

    /// A thumbnail of JPEG data for `request`.
    public static func jpeg(_ data: UnsafeRawBufferPointer, request: ThumbnailRequest, limits: ImageLimits = .standard) throws
        -> DecodedImage
    {
        var err = vgn_error()
        var info = vgn_image_info()
        guard let base = data.baseAddress, let j = vgn_jpeg_open(base.assumingMemoryBound(to: UInt8.self), data.count, &info, &err) else {
            throw CodecError.make(err, format: "JPEG")
        }
        defer { vgn_jpeg_close(j) }
        let width = Int(info.width)
        let height = Int(info.height)
        try checkPixels(width: width, height: height, limits: limits)
        var profile: UnsafeMutablePointer<UInt8>? = nil
        var profileSize = 0
        vgn_jpeg_icc(j, &profile, &profileSize)
        defer { vgn_free(profile) }
        let embedded = UnsafeRawBufferPointer(start: profile, count: profile == nil ? 0 : profileSize)
        let inverted = vgn_jpeg_cmyk_inverted(j)
        // CMYK rows go through the profile in the shim; RGB is converted on the thumbnail.
        let cmyk = inverted >= 0 ? ColorTransform.toSRGB(embedded, layout: inverted == 1 ? .cmykInverted : .cmyk) : nil
        let rgb = inverted < 0 ? ColorTransform.toSRGB(embedded, layout: .rgba) : nil
        if let cmyk { vgn_jpeg_set_cmyk_transform(j, cmyk.handle) }
        return try withExtendedLifetime(cmyk) {
            try jpegPixels(data, j, info: info, limits: limits, request: request).converted(by: rgb)
        }
    }

    /// The rest of `jpeg` once the header and profile are read: the low-frequency or libjpeg path.
    static func jpegPixels(
        _ data: UnsafeRawBufferPointer, _ j: OpaquePointer, info: vgn_image_info, limits: ImageLimits, request: ThumbnailRequest
    ) throws -> DecodedImage {
        let width = Int(info.width)
        let height = Int(info.height)
        let target = request.outputSize(width: width, height: height)
        let denom = jpegScaleDenominator(width: width, height: height, target: target)
        let orientation = ImageOrientation(exif: Int(info.orientation))
        // Progressive files: libjpeg would hold a whole-image coefficient buffer (2 bytes per
        // sample), so they take our low-frequency decoder, which keeps only the coefficients
        // the scaled IDCT needs (DC alone at 1/8). Same 2x margin as the libjpeg path.
        let output = target.width * target.height * 4 * 2
        if info.progressive != 0 && info.arithmetic == 0 && denom > 1 {
            let side = 8 / denom
            let coefficients = ((width + 7) / 8) * ((height + 7) / 8) * 3 * side * side * 2
            let scaled = (width / denom + 1) * (height / denom + 1) * 3
            let image = try limits.holding(coefficients + scaled + output, for: "the image") {
                progressiveLowFrequency(data, denominator: denom, source: (width, height), target: target)
            }
            if let image {
                return DecodedImage(
                    bitmap: image.bitmap.applying(orientation), sourceWidth: width, sourceHeight: height,
                    orientation: orientation, warnings: image.warnings)
            }
        }
        // libjpeg keeps every coefficient of a progressive file (2 bytes a sample) below 1/8.
        let coefficients = info.progressive != 0 && denom != 8 ? width * height * 3 * 2 : 0
        let rows = (width / denom + 1) * 3 * band * 2
        return try limits.holding(coefficients + rows + output, for: "the image") {
            try decodeWithLibjpeg(j, info: info, denominator: denom, source: (width, height), target: target, request: request)
        }
    }

    /// The rest of `jpeg` once the budget is held: libjpeg at 1/`denominator` into the downscaler.
    static func decodeWithLibjpeg(
        _ j: OpaquePointer, info: vgn_image_info, denominator denom: Int, source: (width: Int, height: Int),
        target: (width: Int, height: Int), request: ThumbnailRequest
    ) throws -> DecodedImage {
        let (width, height) = source
        var err = vgn_error()
        let orientation = ImageOrientation(exif: Int(info.orientation))
        var outW: UInt32 = 0
        var outH: UInt32 = 0
        var channels: Int32 = 0
        let dcOnly: Int32 = info.progressive != 0 && denom == 8 ? 1 : 0
        let gated = info.progressive != 0 && denom != 8
        if gated { wholeImageDecodeGate.wait() }
        defer { if gated { wholeImageDecodeGate.signal() } }
        guard vgn_jpeg_start(j, Int32(denom), dcOnly, &outW, &outH, &channels, &err) == 0 else {
            throw CodecError.make(err, format: "JPEG")
        }
        let scaler = Downscaler(
            inWidth: Int(outW), inHeight: Int(outH), channels: Int(channels),
            outWidth: min(target.width, request.allowUpscale ? target.width : Int(outW)),
            outHeight: min(target.height, request.allowUpscale ? target.height : Int(outH)),
            extent: (Double(width) / Double(denom), Double(height) / Double(denom)))
        try stream(into: scaler, rowBytes: Int(outW) * Int(channels), format: "JPEG", err: &err) { buffer, stride, count, err in
            vgn_jpeg_read_rows(j, buffer, stride, count, &err)
        }
        return DecodedImage(
            bitmap: scaler.finish().applying(orientation), sourceWidth: width, sourceHeight: height,
            orientation: orientation, warnings: CodecError.warning(err).map { [$0] } ?? [])
    }

    /// The 1/`denominator`-scale image (2, 4 or 8) of a progressive JPEG, keeping only the
    /// low-frequency corner of each block (DC alone at 1/8) instead of a whole-image
    /// coefficient buffer; nil when the shortcut does not apply or the data is damaged before
    /// the DC scans end, so the caller decodes with libjpeg instead.
    static func progressiveLowFrequency(
        _ data: UnsafeRawBufferPointer, denominator: Int, source: (width: Int, height: Int), target: (width: Int, height: Int)
    )
        -> (bitmap: Bitmap, warnings: [String])?
    {
        guard let base = data.baseAddress, data.count > 0 else { return nil }
        var out: UnsafeMutablePointer<UInt8>? = nil
        var w: UInt32 = 0
        var h: UInt32 = 0
        var channels: Int32 = 0
        var warnings: Int32 = 0
        var message = [CChar](repeating: 0, count: 256)
        let status = vgn_jpeg_lowfreq_decode(
            base.assumingMemoryBound(to: UInt8.self), data.count, Int32(denominator), &out, &w, &h, &channels, &warnings,
            &message, message.count)
        guard status == VGN_DC_OK.rawValue, let out else { return nil }
        defer { free(out) }
        let scaler = Downscaler(
            inWidth: Int(w), inHeight: Int(h), channels: Int(channels),
            outWidth: min(target.width, Int(w)), outHeight: min(target.height, Int(h)),
            extent: (Double(source.width) / Double(denominator), Double(source.height) / Double(denominator)))
        scaler.push(out, stride: Int(w) * Int(channels), count: Int(h))
        let text = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return (scaler.finish(), warnings != 0 ? [text] : [])
    }

    /// A thumbnail of PNG data for `request` (the default image of an APNG).
    public static func png(_ data: UnsafeRawBufferPointer, request: ThumbnailRequest, limits: ImageLimits = .standard) throws
        -> DecodedImage
    {
        var err = vgn_error()
        var info = vgn_image_info()
        guard let base = data.baseAddress, let p = vgn_png_open(base.assumingMemoryBound(to: UInt8.self), data.count, &info, &err) else {
            throw CodecError.make(err, format: "PNG")
        }
        defer { vgn_png_close(p) }
        let width = Int(info.width)
        let height = Int(info.height)
        try checkPixels(width: width, height: height, limits: limits)
        let target = request.outputSize(width: width, height: height)
        let resampling = target != (width, height)
        var profile: UnsafePointer<UInt8>? = nil
        var profileSize = 0
        vgn_png_icc(p, &profile, &profileSize)
        let rgb = ColorTransform.toSRGB(UnsafeRawBufferPointer(start: profile, count: profile == nil ? 0 : profileSize), layout: .rgba)
        // Adam7 is decoded whole into an RGBA buffer; an unscaled image is one bitmap.
        let whole = info.interlaced != 0 || !resampling ? width * height * 4 : width * 4 * band * 2
        return try limits.holding(whole + target.width * target.height * 4 * 2, for: "the image") {
            try decodePNG(p, info: info, source: (width, height), target: target).converted(by: rgb)
        }
    }

    /// The rest of `png` once the budget is held: rows into a bitmap or through the downscaler.
    static func decodePNG(_ p: OpaquePointer, info: vgn_image_info, source: (width: Int, height: Int), target: (width: Int, height: Int))
        throws -> DecodedImage
    {
        let (width, height) = source
        let resampling = target != (width, height)
        var err = vgn_error()
        // Opaque images stream as RGB when resampled: no alpha filler work per pixel.
        var channels: Int32 = 4
        guard vgn_png_start_ex(p, resampling ? 1 : 0, &channels, &err) == 0 else { throw CodecError.make(err, format: "PNG") }
        let orientation = ImageOrientation(exif: Int(info.orientation))
        if !resampling {
            // No resampling: rows go straight into the bitmap, bit-exact.
            var bitmap = Bitmap(width: width, height: height)
            try bitmap.pixels.withUnsafeMutableBufferPointer { buffer in
                var y = 0
                while y < height {
                    let n = vgn_png_read_rows(p, buffer.baseAddress! + y * width * 4, width * 4, Int32(height - y), &err)
                    if n < 0 { throw CodecError.make(err, format: "PNG") }
                    if n == 0 { break }
                    y += Int(n)
                }
            }
            return DecodedImage(
                bitmap: bitmap.applying(orientation), sourceWidth: width, sourceHeight: height,
                orientation: orientation, warnings: CodecError.warning(err).map { [$0] } ?? [])
        }
        let scaler = Downscaler(inWidth: width, inHeight: height, channels: Int(channels), outWidth: target.width, outHeight: target.height)
        try stream(into: scaler, rowBytes: width * Int(channels), format: "PNG", err: &err) { buffer, stride, count, err in
            vgn_png_read_rows(p, buffer, stride, count, &err)
        }
        return DecodedImage(
            bitmap: scaler.finish().applying(orientation), sourceWidth: width, sourceHeight: height,
            orientation: orientation, warnings: CodecError.warning(err).map { [$0] } ?? [])
    }

    /// A thumbnail of WebP data for `request` (an animation's first frame; the other frames are never decoded).
    ///
    /// libwebp scales while it decodes, so only the scaled picture is ever held: straight to the
    /// target with its area-averaging rescaler.
    public static func webp(_ data: UnsafeRawBufferPointer, request: ThumbnailRequest, limits: ImageLimits = .standard) throws
        -> DecodedImage
    {
        var err = vgn_error()
        var info = vgn_image_info()
        var animated: Int32 = 0
        guard let base = data.baseAddress?.assumingMemoryBound(to: UInt8.self),
            vgn_webp_info(base, data.count, &info, &animated, &err) == 0
        else { throw CodecError.make(err, format: "WebP") }
        let width = Int(info.width)
        let height = Int(info.height)
        try checkPixels(width: width, height: height, limits: limits)
        let target = request.outputSize(width: width, height: height)
        var profile: UnsafePointer<UInt8>? = nil
        var profileSize = 0
        vgn_webp_icc(base, data.count, &profile, &profileSize)
        let rgb = ColorTransform.toSRGB(UnsafeRawBufferPointer(start: profile, count: profile == nil ? 0 : profileSize), layout: .rgba)
        let image =
            animated != 0
            ? try webpFirstFrame(base, data.count, width: width, height: height, target: target, limits: limits)
            : try webpStill(base, data.count, width: width, height: height, target: target, limits: limits)
        let orientation = ImageOrientation(exif: Int(info.orientation))
        return DecodedImage(
            bitmap: image.bitmap.applying(orientation), sourceWidth: width, sourceHeight: height, orientation: orientation,
            warnings: image.warnings
        ).converted(by: rgb)
    }

    /// A still WebP decoded by libwebp straight to `target` (or at full size, then enlarged by
    /// the downscaler's Lanczos when the request allows upscaling).
    static func webpStill(
        _ base: UnsafePointer<UInt8>, _ count: Int, width: Int, height: Int, target: (width: Int, height: Int), limits: ImageLimits
    ) throws -> DecodedImage {
        var err = vgn_error()
        // libwebp's rescaler averages areas exactly (no aliasing, unlike JPEG's DCT scaling), so
        // it can go straight to the target: no Lanczos pass after it.
        let decoded = (width: min(width, max(1, target.width)), height: min(height, max(1, target.height)))
        return try limits.holding(decoded.width * decoded.height * 4 + target.width * target.height * 4 * 2, for: "the image") {
            var bitmap = Bitmap(width: decoded.width, height: decoded.height)
            let status = bitmap.pixels.withUnsafeMutableBufferPointer { buffer in
                vgn_webp_decode(
                    base, count, UInt32(decoded.width), UInt32(decoded.height), buffer.baseAddress, decoded.width * 4, &err)
            }
            guard status == 0 else { throw CodecError.make(err, format: "WebP") }
            try WorkPool.stopIfAbandoned()
            guard decoded != target else {
                return DecodedImage(bitmap: bitmap, sourceWidth: width, sourceHeight: height, orientation: .up, warnings: [])
            }
            let scaler = Downscaler(
                inWidth: decoded.width, inHeight: decoded.height, channels: 4, outWidth: target.width, outHeight: target.height)
            bitmap.pixels.withUnsafeBufferPointer { buffer in
                scaler.push(buffer.baseAddress!, stride: decoded.width * 4, count: decoded.height)
            }
            return DecodedImage(bitmap: scaler.finish(), sourceWidth: width, sourceHeight: height, orientation: .up, warnings: [])
        }
    }

    /// The first frame of an animated WebP, composed on its canvas and shrunk to `target`.
    static func webpFirstFrame(
        _ base: UnsafePointer<UInt8>, _ count: Int, width: Int, height: Int, target: (width: Int, height: Int), limits: ImageLimits
    ) throws -> DecodedImage {
        // libwebpdemux holds the canvas and its own copy of it: twice the canvas, plus ours.
        try limits.holding(width * height * 4 * 3 + target.width * target.height * 4 * 2, for: "the image") {
            var err = vgn_error()
            var frames: UInt32 = 0
            var canvas = Bitmap(width: width, height: height)
            let status = canvas.pixels.withUnsafeMutableBufferPointer { buffer in
                vgn_webp_decode_first_frame(base, count, buffer.baseAddress, width * 4, &frames, &err)
            }
            guard status == 0 else { throw CodecError.make(err, format: "WebP") }
            try WorkPool.stopIfAbandoned()
            guard target != (width, height) else {
                return DecodedImage(bitmap: canvas, sourceWidth: width, sourceHeight: height, orientation: .up, warnings: [])
            }
            let scaler = Downscaler(inWidth: width, inHeight: height, channels: 4, outWidth: target.width, outHeight: target.height)
            canvas.pixels.withUnsafeBufferPointer { scaler.push($0.baseAddress!, stride: width * 4, count: height) }
            return DecodedImage(bitmap: scaler.finish(), sourceWidth: width, sourceHeight: height, orientation: .up, warnings: [])
        }
    }

    /// Pulls rows from a shim decoder, `band` at a time, into the downscaler until it reports the end.
    static func stream(
        into scaler: Downscaler, rowBytes: Int, format: String, err: inout vgn_error,
        read: (UnsafeMutablePointer<UInt8>, Int, Int32, inout vgn_error) -> Int32
    ) throws {
        var rows = [UInt8](repeating: 0, count: rowBytes * band)
        try rows.withUnsafeMutableBufferPointer { buffer in
            while true {
                try WorkPool.stopIfAbandoned()
                let n = read(buffer.baseAddress!, rowBytes, Int32(band), &err)
                if n < 0 { throw CodecError.make(err, format: format) }
                if n == 0 { break }
                scaler.push(buffer.baseAddress!, stride: rowBytes, count: Int(n))
            }
        }
    }

    /// The libjpeg scale denominator (8, 4, 2, 1) for a thumbnail of `target` size.
    ///
    /// The DCT-domain shrink is a block average that adds aliasing, so, like vipsthumbnail,
    /// we shrink on load only as far as leaves at least 2× for the Lanczos-3 reduce that
    /// follows (measured: about 9 dB PSNR better than shrinking right down to the target).
    static func jpegScaleDenominator(width: Int, height: Int, target: (width: Int, height: Int)) -> Int {
        for d in [8, 4, 2] {
            let w: Int = (width + d - 1) / d
            let h: Int = (height + d - 1) / d
            if w >= target.width * 2 && h >= target.height * 2 { return d }
        }
        return 1
    }

    /// libjpeg holds a whole-image coefficient buffer (about 2 bytes per sample) for
    /// progressive files below 1/8 scale: one such decode at a time keeps peak memory flat
    /// when several thumbnails are made at once.
    static let wholeImageDecodeGate = DispatchSemaphore(value: 1)

    /// Refuses images over the pixel cap (or with a zero side) before anything is allocated.
    public static func checkPixels(width: Int, height: Int, limits: ImageLimits) throws {
        guard width > 0, height > 0 else {
            throw VignetteError(.corrupt, "image has no pixels (\(width) × \(height))")
        }
        let pixels = width.multipliedReportingOverflow(by: height)
        if pixels.overflow || pixels.partialValue > limits.maxPixels {
            throw VignetteError(
                .refused,
                "image is \(width) × \(height) pixels (\(pixelCount(Double(width) * Double(height)))), over the limit of \(pixelCount(Double(limits.maxPixels)))"
            )
        }
    }

    /// "4295 MP", "1.5 MP", "1024 pixels".
    static func pixelCount(_ n: Double) -> String {
        guard n >= 1_000_000 else { return "\(Int(n)) pixels" }
        let mp = n / 1_000_000
        return mp >= 10 ? "\(Int(mp.rounded())) MP" : String(format: "%.1f MP", mp)
    }
}
