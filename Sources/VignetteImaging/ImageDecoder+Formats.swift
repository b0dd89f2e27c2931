import CVignetteCodecs
import Foundation
public import VignetteCore

/// The formats decoded through the shim's streaming decoders (vgn_decoder.h): GIF, TIFF, BMP,
/// ICO/CUR, ICNS, TGA, PCX, SGI, Sun raster, PNM/PAM, PFM, QOI, DDS, PSD, XCF, XPM/XBM, OpenEXR, Radiance HDR, FITS, DPX, HEIF/AVIF,
/// JPEG XL, JPEG 2000, JBIG, Windows metafiles (WMF, EMF), and camera RAW through its embedded preview.
extension ImageDecoder {
    /// A format the streaming decoders read, by the name errors use.
    public enum StreamedFormat: String, Sendable, CaseIterable {
        case gif = "GIF"
        case tiff = "TIFF"
        case bmp = "BMP"
        case tga = "TGA"
        case psd = "PSD"
        case pnm = "PNM"
        case heif = "HEIF"
        case jpegXL = "JPEG XL"
        case jpeg2000 = "JPEG 2000"
        case xpm = "XPM"
        case xbm = "XBM"
        case qoi = "QOI"
        case pfm = "PFM"
        case dds = "DDS"
        case openEXR = "OpenEXR"
        case pcx = "PCX"
        case sgi = "SGI"
        case sunRaster = "Sun raster"
        case jbig = "JBIG"
        case wmf = "WMF"
        case emf = "EMF"
        case radiance = "Radiance HDR"
        case xcf = "XCF"
        case fits = "FITS"
        case dpx = "DPX"

        /// The formats decoded in a child process (`vgn_isolated_open`), where `vignette-decode` is the program.
        static let isolated: Set<Self> = [.heif, .jpegXL, .jpeg2000, .openEXR, .jbig, .wmf, .emf]

        /// How long an isolated decoder may take, from open to its last row, before it is killed.
        static let isolatedTimeout: UInt32 = 30_000

        /// Where `vignette-decode` is, told to the shim once: the program the isolated decoders and
        /// the PDF, media and camera RAW readers start as: `$VIGNETTE_DECODE` (how a program using
        /// the library names it), else beside the executable (a build tree) or in
        /// `../libexec/vignette/` (an install); without it they start as this process's own
        /// executable, which the shim answers for before `main` (a fork only if that cannot start).
        static let helper: String? = {
            let exe = BuiltInResources.executableDirectory
            let named = ProcessInfo.processInfo.environment["VIGNETTE_DECODE"].map { [$0] } ?? []
            let path = (named + [exe + "/vignette-decode", exe + "/../libexec/vignette/vignette-decode"]).first {
                !$0.isEmpty && FileManager.default.isExecutableFile(atPath: $0)
            }
            vgn_isolate_set_helper(path)
            return path
        }()

        /// The HEIF decoder in its child, dav1d loaded first when it can be (it is optional).
        static func openHEIF(
            _ data: UnsafePointer<UInt8>, _ count: Int, target: UInt32, _ info: inout vgn_image_info, _ err: inout vgn_error
        ) -> OpaquePointer? {
            var ignored = vgn_error()
            if vgn_isolate_uses_helper(vgn_heif_open) == 0 { _ = vgn_library_load(VGN_LIB_DAV1D, &ignored) }
            return vgn_isolated_open(vgn_heif_open, "libheif", data, count, target, isolatedTimeout, &info, &err)
        }

        /// Loads `library` here when its child will be a fork (which must not load it itself: another
        /// thread may hold the loader's lock at the fork); the helper program loads its own.
        static func loadForChild(_ library: vgn_library, _ opener: vgn_isolated_opener, _ err: inout vgn_error) -> Bool {
            vgn_isolate_uses_helper(opener) != 0 || vgn_library_load(library, &err) == 0
        }

        /// Whether the decoder can read a file through its descriptor (TIFF: libtiff reads the
        /// strips and tiles it needs; GIF: up to the first frame's end; PSD: the merged image's
        /// rows, past the layers) rather than the file's bytes in memory.
        public var readsFiles: Bool { self == .tiff || self == .gif || self == .psd }

        /// Opens a decoder over the file open as `descriptor` (a format that `readsFiles`).
        func open(descriptor: Int32, target: UInt32, _ info: inout vgn_image_info, _ err: inout vgn_error) -> OpaquePointer? {
            switch self {
            case .tiff: vgn_tiff_open_fd(descriptor, target, &info, &err)
            case .gif: vgn_gif_open_fd(descriptor, &info, &err)
            case .psd: vgn_psd_open_fd(descriptor, &info, &err)
            default: nil
            }
        }

        /// Opens a decoder over `data` for a thumbnail whose longest side is `target`.
        func open(_ data: UnsafePointer<UInt8>, _ count: Int, target: UInt32, _ info: inout vgn_image_info, _ err: inout vgn_error)
            -> OpaquePointer?
        {
            if Self.isolated.contains(self) { _ = Self.helper }
            return switch self {
            case .gif: vgn_gif_open(data, count, &info, &err)
            case .tiff: vgn_tiff_open(data, count, target, &info, &err)
            case .bmp: vgn_bmp_open(data, count, &info, &err)
            case .tga: vgn_tga_open(data, count, &info, &err)
            case .psd: vgn_psd_open(data, count, &info, &err)
            case .pnm: vgn_pnm_open(data, count, &info, &err)
            case .xpm: vgn_xpm_open(data, count, &info, &err)
            case .xbm: vgn_xbm_open(data, count, &info, &err)
            case .qoi: vgn_qoi_open(data, count, &info, &err)
            case .pfm: vgn_pfm_open(data, count, &info, &err)
            case .dds: vgn_dds_open(data, count, target, &info, &err)
            case .pcx: vgn_pcx_open(data, count, &info, &err)
            case .sgi: vgn_sgi_open(data, count, &info, &err)
            case .sunRaster: vgn_sun_open(data, count, &info, &err)
            case .radiance: vgn_hdr_open(data, count, &info, &err)
            case .xcf: vgn_xcf_open(data, count, target, &info, &err)
            case .fits: vgn_fits_open(data, count, &info, &err)
            case .dpx: vgn_dpx_open(data, count, &info, &err)
            // libheif's codecs and libjxl print on stderr, and their bitstream decoders are large
            // C/C++: they run in a child (vgn_isolated_open), as LibRaw does.
            // Both are loaded on first use (vgn_library_load): by the helper program, or here when
            // the child is a fork; so is dav1d, which decodes the AV1 pictures itself when it loads
            // (vgn_av1.c), else libheif does.
            case .heif:
                Self.loadForChild(VGN_LIB_HEIF, vgn_heif_open, &err)
                    ? Self.openHEIF(data, count, target: target, &info, &err) : nil
            case .jpegXL:
                Self.loadForChild(VGN_LIB_JXL, vgn_jxl_open, &err)
                    ? vgn_isolated_open(vgn_jxl_open, "libjxl", data, count, target, Self.isolatedTimeout, &info, &err) : nil
            // OpenJPEG has had a long line of crashes on hostile codestreams: in a child too.
            case .jpeg2000:
                Self.loadForChild(VGN_LIB_OPENJP2, vgn_jp2_open, &err)
                    ? vgn_isolated_open(vgn_jp2_open, "OpenJPEG", data, count, target, Self.isolatedTimeout, &info, &err) : nil
            // OpenEXRCore 3.1.5 crashes on damaged chunks (fuzz_exr found one in a minute).
            case .openEXR:
                Self.loadForChild(VGN_LIB_OPENEXR, vgn_exr_open, &err)
                    ? vgn_isolated_open(vgn_exr_open, "OpenEXR", data, count, target, Self.isolatedTimeout, &info, &err) : nil
            // libjbig aborts the process when an allocation fails.
            case .jbig:
                Self.loadForChild(VGN_LIB_JBIG, vgn_jbig_open, &err)
                    ? vgn_isolated_open(vgn_jbig_open, "JBIG-KIT", data, count, target, Self.isolatedTimeout, &info, &err) : nil
            // Our record player, but cairo and fontconfig beneath it are large C libraries fed
            // coordinates and strings from the file.
            case .wmf, .emf:
                Self.loadForChild(VGN_LIB_CAIRO, vgn_metafile_open, &err)
                    ? vgn_isolated_open(vgn_metafile_open, "cairo", data, count, target, Self.isolatedTimeout, &info, &err) : nil
            }
        }
    }

    /// A thumbnail of the file open as `descriptor` (`size` bytes) in a format whose decoder reads
    /// files itself (`StreamedFormat.readsFiles`): only what it needs is read, never the whole file.
    public static func decode(
        _ format: StreamedFormat, descriptor: Int32, size: Int, request: ThumbnailRequest, limits: ImageLimits = .standard
    ) throws -> DecodedImage {
        guard size > 0 else { throw VignetteError(.corrupt, "corrupt \(format.rawValue): the file is empty") }
        guard format.readsFiles else {
            throw VignetteError(.invalidRequest, "the \(format.rawValue) decoder reads bytes in memory, not files")
        }
        if format == .psd, let standIn = try psdStandIn(nil, descriptor: descriptor, request: request, limits: limits) {
            return standIn
        }
        return try streamed(format.rawValue, request: request, limits: limits) { info, err in
            format.open(descriptor: descriptor, target: UInt32(clamping: request.targetPixels), &info, &err)
        }
    }

    /// Most bytes of a PSD's own JPEG thumbnail read (Photoshop writes about 160 pixels).
    static let maxPSDThumbnailBytes = 16 << 20

    /// For a PSD saved without its merged image ("Maximize compatibility" off, so the merged
    /// rows are white), Photoshop's JPEG thumbnail of it, or an error when it has none; nil for
    /// a PSD whose merged image is real. From `data`, or the file open as `descriptor`.
    static func psdStandIn(
        _ data: UnsafeRawBufferPointer?, descriptor: Int32, request: ThumbnailRequest, limits: ImageLimits
    ) throws -> DecodedImage? {
        var real: Int32 = 1
        var offset: UInt64 = 0
        var length: UInt64 = 0
        var err = vgn_error()
        let base = data?.baseAddress?.assumingMemoryBound(to: UInt8.self)
        guard vgn_psd_merged_info(base, data?.count ?? 0, descriptor, &real, &offset, &length, &err) == 0, real == 0 else { return nil }
        guard length > 0, length <= UInt64(maxPSDThumbnailBytes) else {
            throw VignetteError(
                .unsupported,
                "unsupported PSD: the document was saved without its merged image (\"Maximize compatibility\" off) and has no thumbnail of its own"
            )
        }
        // vgn_psd_merged_info checked that the range lies inside the data or the file.
        if let data {
            return try ImageDecoder.jpeg(
                UnsafeRawBufferPointer(rebasing: data[Int(offset)..<Int(offset + length)]), request: request, limits: limits)
        }
        var jpeg = [UInt8](repeating: 0, count: Int(length))
        let read = jpeg.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, off_t(offset)) }
        guard read == Int(length) else { throw VignetteError(.io, "cannot read the PSD's thumbnail") }
        return try jpeg.withUnsafeBytes { try ImageDecoder.jpeg($0, request: request, limits: limits) }
    }

    /// A thumbnail of `data` in one of the streamed formats.
    public static func decode(
        _ format: StreamedFormat, _ data: UnsafeRawBufferPointer, request: ThumbnailRequest, limits: ImageLimits = .standard
    ) throws -> DecodedImage {
        guard let base = data.baseAddress?.assumingMemoryBound(to: UInt8.self), data.count > 0 else {
            throw VignetteError(.corrupt, "corrupt \(format.rawValue): the file is empty")
        }
        if format == .psd, let standIn = try psdStandIn(data, descriptor: -1, request: request, limits: limits) { return standIn }
        return try streamed(format.rawValue, request: request, limits: limits) { info, err in
            format.open(base, data.count, target: UInt32(clamping: request.targetPixels), &info, &err)
        }
    }

    /// A thumbnail of an ICO or CUR file: the entry that best covers the request, PNG or DIB.
    public static func ico(_ data: UnsafeRawBufferPointer, request: ThumbnailRequest, limits: ImageLimits = .standard) throws
        -> DecodedImage
    {
        guard let base = data.baseAddress?.assumingMemoryBound(to: UInt8.self), data.count > 0 else {
            throw VignetteError(.corrupt, "corrupt ICO: the file is empty")
        }
        var err = vgn_error()
        var info = vgn_image_info()
        var offset = 0
        var length = 0
        var isPNG: Int32 = 0
        guard vgn_ico_select(base, data.count, UInt32(clamping: request.targetPixels), &offset, &length, &isPNG, &info, &err) == 0,
            offset <= data.count, length <= data.count - offset
        else { throw CodecError.make(err, format: "ICO") }
        let entry = UnsafeRawBufferPointer(rebasing: data[offset..<(offset + length)])
        if isPNG != 0 { return try png(entry, request: request, limits: limits) }
        return try streamed("ICO", request: request, limits: limits) { info, err in
            vgn_dib_open(base + offset, length, &info, &err)
        }
    }

    /// A thumbnail of an Apple icon file: the entry that best covers the request, PNG, JPEG 2000
    /// or an old run-length coded bitmap with its mask.
    public static func icns(_ data: UnsafeRawBufferPointer, request: ThumbnailRequest, limits: ImageLimits = .standard) throws
        -> DecodedImage
    {
        guard let base = data.baseAddress?.assumingMemoryBound(to: UInt8.self), data.count > 0 else {
            throw VignetteError(.corrupt, "corrupt ICNS: the file is empty")
        }
        var err = vgn_error()
        var info = vgn_image_info()
        var offset = 0
        var length = 0
        var kind: Int32 = 0
        guard vgn_icns_select(base, data.count, UInt32(clamping: request.targetPixels), &offset, &length, &kind, &info, &err) == 0,
            offset <= data.count, length <= data.count - offset
        else { throw CodecError.make(err, format: "ICNS") }
        let entry = UnsafeRawBufferPointer(rebasing: data[offset..<(offset + length)])
        switch kind {
        case Int32(VGN_ICNS_PNG): return try png(entry, request: request, limits: limits)
        case Int32(VGN_ICNS_JPEG2000): return try decode(.jpeg2000, entry, request: request, limits: limits)
        default:
            return try streamed("ICNS", request: request, limits: limits) { info, err in
                vgn_icns_bitmap_open(base, data.count, offset, length, &info, &err)
            }
        }
    }

    /// A thumbnail of a DICOM file's first frame: uncompressed, RLE and lossless JPEG frames by our
    /// decoder (with the rescale and window), JPEG-LS ones through CharLS and JPEG 2000 ones through
    /// OpenJPEG (each in a child, shown as ours are), baseline JPEG ones by the JPEG decoder.
    public static func dicom(_ data: UnsafeRawBufferPointer, request: ThumbnailRequest, limits: ImageLimits = .standard) throws
        -> DecodedImage
    {
        guard let base = data.baseAddress?.assumingMemoryBound(to: UInt8.self), data.count > 0 else {
            throw VignetteError(.corrupt, "corrupt DICOM: the file is empty")
        }
        var err = vgn_error()
        var info = vgn_image_info()
        var kind: Int32 = 0
        var offset = 0
        var length = 0
        var joined: UnsafeMutablePointer<UInt8>?
        guard vgn_dicom_select(base, data.count, &kind, &offset, &length, &joined, &info, &err) == 0 else {
            throw CodecError.make(err, format: "DICOM")
        }
        defer { vgn_free(joined) }
        switch kind {
        case Int32(VGN_DICOM_JPEG):
            let frame =
                if let joined { UnsafeRawBufferPointer(start: joined, count: length) } else {
                    UnsafeRawBufferPointer(rebasing: data[offset..<(offset + length)])
                }
            return try jpeg(frame, request: request, limits: limits)
        // OpenJPEG runs in a child, as for JPEG 2000 files; the child reads the DICOM header too.
        case Int32(VGN_DICOM_JPEG2000):
            _ = StreamedFormat.helper
            return try streamed("DICOM", request: request, limits: limits) { info, err in
                StreamedFormat.loadForChild(VGN_LIB_OPENJP2, vgn_dicom_jp2_open, &err)
                    ? vgn_isolated_open(
                        vgn_dicom_jp2_open, "OpenJPEG", base, data.count, UInt32(clamping: request.targetPixels),
                        StreamedFormat.isolatedTimeout, &info, &err) : nil
            }
        // CharLS is C++ over the file's bytes: in a child too.
        case Int32(VGN_DICOM_JPEGLS):
            _ = StreamedFormat.helper
            return try streamed("DICOM", request: request, limits: limits) { info, err in
                StreamedFormat.loadForChild(VGN_LIB_CHARLS, vgn_dicom_jls_open, &err)
                    ? vgn_isolated_open(
                        vgn_dicom_jls_open, "CharLS", base, data.count, UInt32(clamping: request.targetPixels),
                        StreamedFormat.isolatedTimeout, &info, &err) : nil
            }
        default:
            return try streamed("DICOM", request: request, limits: limits) { info, err in
                vgn_dicom_open(base, data.count, UInt32(clamping: request.targetPixels), &info, &err)
            }
        }
    }

    /// A thumbnail of a camera RAW file from its embedded preview; the raw data is never developed.
    ///
    /// LibRaw looks for the preview in a child process (it has crashed on hostile files), which
    /// sends back only the preview's bytes; the JPEG ones take the JPEG path above.
    public static func cameraRaw(_ data: UnsafeRawBufferPointer, request: ThumbnailRequest, limits: ImageLimits = .standard) throws
        -> DecodedImage
    {
        guard let base = data.baseAddress?.assumingMemoryBound(to: UInt8.self), data.count > 0 else {
            throw VignetteError(.corrupt, "corrupt camera RAW: the file is empty")
        }
        _ = StreamedFormat.helper
        var err = vgn_error()
        var preview = vgn_raw_extract()
        guard vgn_raw_extract_isolated(base, data.count, rawTimeoutMilliseconds, &preview, &err) == 0, let bytes = preview.bytes else {
            throw CodecError.make(err, format: "camera RAW")
        }
        defer { vgn_free(bytes) }
        try WorkPool.stopIfAbandoned()
        let orientation = ImageOrientation(exif: Int(preview.orientation))
        if preview.is_jpeg != 0 {
            let image = try jpeg(UnsafeRawBufferPointer(start: bytes, count: preview.size), request: request, limits: limits)
            // A preview with its own EXIF orientation is already upright; else the RAW's applies.
            guard image.orientation == .up, orientation != .up else { return image }
            return DecodedImage(
                bitmap: image.bitmap.applying(orientation), sourceWidth: image.sourceWidth, sourceHeight: image.sourceHeight,
                orientation: orientation, warnings: image.warnings)
        }
        return try streamed("camera RAW", request: request, limits: limits) { info, _ in
            info.width = preview.width
            info.height = preview.height
            info.orientation = preview.orientation
            return vgn_bitmap_open(bytes, preview.width, preview.height, preview.colors)
        }
    }

    /// How long LibRaw's child may look for a preview before it is killed.
    static let rawTimeoutMilliseconds: UInt32 = 10_000

    /// Opens a streaming decoder, checks the header's size against the pixel cap before anything
    /// is allocated, then streams its rows through the downscaler under the memory budget.
    static func streamed(
        _ format: String, request: ThumbnailRequest, limits: ImageLimits,
        open: (inout vgn_image_info, inout vgn_error) -> OpaquePointer?
    ) throws -> DecodedImage {
        var err = vgn_error()
        var info = vgn_image_info()
        guard let decoder = open(&info, &err) else { throw CodecError.make(err, format: format) }
        defer { vgn_decoder_close(decoder) }
        try checkPixels(width: Int(info.width), height: Int(info.height), limits: limits)
        var w: UInt32 = 0
        var h: UInt32 = 0
        vgn_decoder_size(decoder, &w, &h)
        let (width, height) = (Int(w), Int(h))
        try checkPixels(width: width, height: height, limits: limits)
        // The request is for the full picture: a reduced copy (TIFF subfile, HEIF thumbnail)
        // gets the same thumbnail size, so the output never depends on which copy was read.
        let full = request.outputSize(width: Int(info.width), height: Int(info.height))
        let target = (
            width: min(full.width, request.allowUpscale ? full.width : width),
            height: min(full.height, request.allowUpscale ? full.height : height)
        )
        let rows = width * 4 * band
        let working = vgn_decoder_working_bytes(decoder)
        let (rgb, cmyk) = colorTransforms(decoder)
        return try withExtendedLifetime(cmyk) {
            try limits.holding(working + rows + target.width * target.height * 4 * 2, for: "the image") {
                try streamRows(decoder, format: format, info: info, size: (width, height), target: target)
            }.converted(by: rgb)
        }
    }

    /// The transforms for a streamed picture's embedded profile: an RGB one for the thumbnail,
    /// or a CMYK one handed to the codec, which converts the samples itself.
    static func colorTransforms(_ decoder: OpaquePointer) -> (rgb: ColorTransform?, cmyk: ColorTransform?) {
        var profile: UnsafePointer<UInt8>? = nil
        var size = 0
        var cmyk: Int32 = 0
        guard vgn_decoder_icc(decoder, &profile, &size, &cmyk) != 0, let profile else { return (nil, nil) }
        let bytes = UnsafeRawBufferPointer(start: profile, count: size)
        guard cmyk != 0 else { return (ColorTransform.toSRGB(bytes, layout: .rgba), nil) }
        let transform = ColorTransform.toSRGB(bytes, layout: .cmyk)
        if let transform { vgn_decoder_set_cmyk_transform(decoder, transform.handle) }
        return (nil, transform)
    }

    /// Reads every row of an opened decoder into a bitmap or through the downscaler.
    static func streamRows(
        _ decoder: OpaquePointer, format: String, info: vgn_image_info, size: (width: Int, height: Int), target: (width: Int, height: Int)
    ) throws -> DecodedImage {
        var err = vgn_error()
        let (width, height) = size
        let orientation = ImageOrientation(exif: Int(info.orientation))
        let bitmap: Bitmap
        if target == (width, height) {
            var whole = Bitmap(width: width, height: height)
            try whole.pixels.withUnsafeMutableBufferPointer { buffer in
                var y = 0
                while y < height {
                    try WorkPool.stopIfAbandoned()
                    let rows = Int32(min(band, height - y))
                    let n = vgn_decoder_read_rows(decoder, buffer.baseAddress! + y * width * 4, width * 4, rows, &err)
                    if n < 0 { throw CodecError.make(err, format: format) }
                    if n == 0 { break }
                    y += Int(n)
                }
            }
            bitmap = whole
        } else {
            // A box-reduced picture (a shrunk AVIF) is scaled from its true size, partial last boxes and all.
            var extent = (width: 0.0, height: 0.0)
            vgn_decoder_extent(decoder, &extent.width, &extent.height)
            let scaler = Downscaler(
                inWidth: width, inHeight: height, channels: 4, outWidth: target.width, outHeight: target.height, extent: extent,
                opaque: vgn_decoder_opaque(decoder) != 0)
            try stream(into: scaler, rowBytes: width * 4, format: format, err: &err) { buffer, stride, count, err in
                vgn_decoder_read_rows(decoder, buffer, stride, count, &err)
            }
            bitmap = scaler.finish()
        }
        return DecodedImage(
            bitmap: bitmap.applying(orientation), sourceWidth: Int(info.width), sourceHeight: Int(info.height),
            orientation: orientation, warnings: CodecError.warning(err).map { [$0] } ?? [])
    }
}
