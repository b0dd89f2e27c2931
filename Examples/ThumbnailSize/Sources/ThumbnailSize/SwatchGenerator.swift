import VignetteCore

/// Thumbnails of `.swatch` files (hex colours separated by spaces): one vertical stripe per colour.
///
/// An in-process generator: a Swift type registered with the registry, no manifest, no command.
struct SwatchGenerator: ThumbnailGenerating {
    /// `com.example.swatch`.
    let identifier = "com.example.swatch"
    /// The type declared in `swatch-types.json`.
    let supportedTypes = ["com.example.swatch"]
    /// Wins over anything else that would take the type (it conforms to plain text).
    let priority = GeneratorPriority.preferred
    /// Swatches are small.
    let limits = GeneratorLimits(maxFileBytes: 64 << 10)

    /// Stripes of the file's colours, the longest side at the requested size.
    func makeThumbnail(for input: GeneratorInput, request: ThumbnailRequest) throws -> GeneratedThumbnail {
        let text = String(decoding: try input.contents(limit: 64 << 10), as: UTF8.self)
        let colours = text.split(whereSeparator: \.isWhitespace).compactMap { UInt32($0, radix: 16) }
        guard !colours.isEmpty else { throw VignetteError(.declined, "no colours in the swatch") }
        let size = request.outputSize(width: colours.count * 64, height: 32)
        var pixels: [UInt8] = []
        pixels.reserveCapacity(size.width * size.height * 4)
        for _ in 0..<size.height {
            for x in 0..<size.width {
                let colour = colours[min(colours.count - 1, x * colours.count / size.width)]
                pixels += [UInt8(colour >> 16 & 0xFF), UInt8(colour >> 8 & 0xFF), UInt8(colour & 0xFF), 255]
            }
        }
        return GeneratedThumbnail(bitmap: Bitmap(width: size.width, height: size.height, pixels: pixels))
    }
}
