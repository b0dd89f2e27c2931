import VignetteCore
import VignetteImaging

/// The pixel cap, applied to an input's header before an external program is handed the file.
///
/// Our own decoders check their formats' headers before allocating; a format they do not read
/// (GIF, BMP, TIFF, WebP, ICO, PSD, TGA, PNM…) would otherwise reach a tool that allocates the
/// whole canvas first (gdk-pixbuf asked for 16.8 GB on a 65535 × 65535 GIF).
enum PixelCap {
    /// Throws `.refused` ("image is W × H pixels (N MP), over the limit of M MP") when the
    /// input's header declares more pixels than `limits` allow; inputs that are no image pass.
    static func check(_ input: GeneratorInput, limits: ImageLimits) throws {
        let head = try input.prefix(ImageDimensions.headerBytes)
        let isTGA = input.type.identifier == "com.truevision.tga-image"
        let sample = try? input.randomAccess()
        guard
            let dimensions = ImageDimensions(
                head, isTGA: isTGA, at: { offset, count in sample?.bytes(at: offset, count: count).map(Array.init) })
        else { return }
        try ImageDecoder.checkPixels(width: dimensions.width, height: dimensions.height, limits: limits)
    }
}
