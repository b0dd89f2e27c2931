public import VignetteCore
public import VignetteGenerators
import VignetteImaging

/// The thumbnail options a request gives in its query: `size`, `scale`, `format`, `quality`, `icon`.
public struct ThumbnailOptions: Sendable, Equatable {
    /// Longest side in points (1–2048; default 256).
    public var size = 256
    /// Pixels per point (1–4; default 1).
    public var scale = 1
    /// The format (PNG by default) and JPEG quality (1–100; default 85).
    public var output = ThumbnailOutput()
    /// Whether the thumbnail is decorated as an icon.
    public var icon = false

    /// The largest `size`.
    public static let maxSize = 2048
    /// The largest `scale`.
    public static let maxScale = 4
    /// The largest side of the picture made (`size` × `scale`): 2048 pixels, a 16 MB bitmap.
    public static let maxOutputSize = 2048

    /// Default options.
    public init() {}

    /// Options from a query; throws `.invalidRequest` naming the bad parameter.
    public init(query: [String: String]) throws {
        if let text = query["size"] { size = try Self.integer("size", text, 1...Self.maxSize) }
        if let text = query["scale"] { scale = try Self.integer("scale", text, 1...Self.maxScale) }
        guard size * scale <= Self.maxOutputSize else {
            throw VignetteError(
                .invalidRequest, "size × scale must be at most \(Self.maxOutputSize) pixels, not \(size) × \(scale) = \(size * scale)")
        }
        if let text = query["format"] {
            guard let format = ImageFormat(name: text) else {
                throw VignetteError(.invalidRequest, ImageFormat.invalidNameMessage(text, option: "format"))
            }
            output.format = format
        }
        if let text = query["quality"] { output.quality = try Self.integer("quality", text, 1...100) }
        if let text = query["icon"] {
            switch text {
            case "0", "false": icon = false
            case "1", "true": icon = true
            default: throw VignetteError(.invalidRequest, "icon must be 0 or 1, not \(text)")
            }
        }
    }

    /// The core request.
    public var request: ThumbnailRequest {
        ThumbnailRequest(maxPixelSize: size, scale: scale, iconMode: icon)
    }

    /// The options as key parts (for ETags and cache keys); quality only where it changes the bytes.
    var keyParts: [String] {
        ["size=\(size)", "scale=\(scale)", "format=\(output.format.rawValue)", "icon=\(icon)"]
            + (output.format == .jpeg ? ["quality=\(output.quality)"] : [])
    }

    /// The media type of the encoded thumbnail.
    var contentType: String { output.format.mediaType }

    static func integer(_ name: String, _ text: String, _ range: ClosedRange<Int>) throws -> Int {
        guard let value = Int(text), range.contains(value) else {
            throw VignetteError(
                .invalidRequest, "\(name) must be a whole number from \(range.lowerBound) to \(range.upperBound), not \(text)")
        }
        return value
    }
}
