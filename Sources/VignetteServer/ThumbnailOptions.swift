public import VignetteCore
public import VignetteGenerators
import VignetteImaging

/// The thumbnail options a request gives in its query: `size`, `scale`, `format`, `quality`, `icon`, `crop`.
public struct ThumbnailOptions: Sendable, Equatable {
    /// Longest sides in points, in the order asked (`size=64,256,1024`; each 1–2048; default 256).
    /// Several come from one decode, answered as `multipart/mixed`.
    public var sizes = [256]
    /// The largest of `sizes`: the box of the one decode.
    public var size: Int {
        get { sizes.max() ?? 256 }
        set { sizes = [newValue] }
    }
    /// Pixels per point (1–4; default 1).
    public var scale = 1
    /// The format (PNG by default) and JPEG quality (1–100; default 85).
    public var output = ThumbnailOutput()
    /// Whether the thumbnail is decorated as an icon.
    public var icon = false
    /// `crop=fit|fill|smart`: fit inside the square box, or cover it and cut.
    public var crop = ThumbnailCrop.fit
    /// `format=auto`: the format is chosen from the request's `Accept` header (`negotiated(accept:)`).
    public var automatic = false
    /// After negotiation without AVIF or WebP: PNG when the thumbnail has alpha, else JPEG.
    public var pngOrJPEGByAlpha = false

    /// The largest `size`.
    public static let maxSize = 2048
    /// The most sizes one request may ask for.
    public static let maxSizeCount = 8
    /// The largest `scale`.
    public static let maxScale = 4
    /// The largest side of the picture made (`size` × `scale`): 2048 pixels, a 16 MB bitmap.
    public static let maxOutputSize = 2048

    /// Default options.
    public init() {}

    /// Options from a query; throws `.invalidRequest` naming the bad parameter.
    public init(query: [String: String]) throws {
        if let text = query["size"] { sizes = try Self.sizes(text) }
        if let text = query["scale"] { scale = try Self.integer("scale", text, 1...Self.maxScale) }
        guard size * scale <= Self.maxOutputSize else {
            throw VignetteError(
                .invalidRequest, "size × scale must be at most \(Self.maxOutputSize) pixels, not \(size) × \(scale) = \(size * scale)")
        }
        if query["format"] == "auto" {
            automatic = true
        } else if let text = query["format"] {
            guard let format = ImageFormat(name: text) else {
                throw VignetteError(.invalidRequest, ImageFormat.invalidNameMessage(text, option: "format"))
            }
            output.format = format
        }
        if let text = query["crop"] {
            guard let mode = ThumbnailCrop(rawValue: text) else {
                throw VignetteError(.invalidRequest, "crop must be fit, fill or smart, not \(text)")
            }
            crop = mode
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

    /// The options with `format=auto` resolved against an `Accept` header: AVIF when the client
    /// lists `image/avif`, else WebP when it lists `image/webp`, else PNG or JPEG by alpha.
    /// Only explicit types count (browsers send `*/*` with everything) and `q=0` refuses one.
    public func negotiated(accept: String?) -> ThumbnailOptions {
        guard automatic else { return self }
        var resolved = self
        let listed = Self.acceptedTypes(accept ?? "")
        if listed.contains("image/avif") {
            resolved.output.format = .avif
        } else if listed.contains("image/webp") {
            resolved.output.format = .webp
        } else {
            resolved.output.format = .png
            resolved.pngOrJPEGByAlpha = true
        }
        return resolved
    }

    /// The media types an `Accept` header lists with a quality above 0, lower-cased.
    static func acceptedTypes(_ header: String) -> Set<String> {
        var result: Set<String> = []
        for item in header.split(separator: ",") {
            let parts = item.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            guard let type = parts.first, !type.isEmpty else { continue }
            let q = parts.dropFirst().first { $0.hasPrefix("q=") }.flatMap { Double($0.dropFirst(2)) } ?? 1
            if q > 0 { result.insert(type) }
        }
        return result
    }

    /// The output for a rendered bitmap: the negotiated PNG-or-JPEG choice is made here.
    func output(for bitmap: Bitmap) -> ThumbnailOutput {
        guard pngOrJPEGByAlpha else { return output }
        var chosen = output
        chosen.format = bitmap.hasTransparency ? .png : .jpeg
        return chosen
    }

    /// The core request.
    public var request: ThumbnailRequest {
        ThumbnailRequest(maxPixelSize: size, scale: scale, iconMode: icon, crop: crop)
    }

    /// The options as key parts (for ETags and cache keys); quality only where it changes the bytes.
    var keyParts: [String] {
        [
            "size=\(sizes.map(String.init).joined(separator: ","))", "scale=\(scale)",
            "format=\(pngOrJPEGByAlpha ? "png-or-jpeg" : output.format.rawValue)", "icon=\(icon)",
            "crop=\(crop.rawValue)",
        ]
            + (output.format.isLossy ? ["quality=\(output.quality)"] : [])
    }

    /// `64,256,1024` as sizes in the order given, each once; at most `maxSizeCount`.
    static func sizes(_ text: String) throws -> [Int] {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count <= maxSizeCount else {
            throw VignetteError(.invalidRequest, "size lists at most \(maxSizeCount) sizes, not \(parts.count)")
        }
        var sizes: [Int] = []
        for part in parts {
            let size = try integer("size", String(part), 1...maxSize)
            if !sizes.contains(size) { sizes.append(size) }
        }
        return sizes
    }

    static func integer(_ name: String, _ text: String, _ range: ClosedRange<Int>) throws -> Int {
        guard let value = Int(text), range.contains(value) else {
            throw VignetteError(
                .invalidRequest, "\(name) must be a whole number from \(range.lowerBound) to \(range.upperBound), not \(text)")
        }
        return value
    }
}
