import Foundation
public import VignetteCore
public import VignetteImaging

/// An imaginary `operations` list as a thumbnail request.
///
/// Understood: `autorotate` (orientation is always applied), `convert` (`type`, `quality`),
/// and exactly one of `fit`, `crop`, `smartcrop` (`width`, `height`, `type`, `quality`,
/// `stripmeta`, `norotation`). Numbers may be JSON numbers or strings, booleans JSON booleans
/// or `"true"`/`"false"` (Nextcloud sends `"quality":"80"`, `"stripmeta":"true"`). The last
/// `type` and `quality` given win, as each imaginary operation re-encodes the previous result.
public struct PipelinePlan: Sendable, Equatable {
    /// The box's width (the box asked for, each side at most the `maxSide` given).
    public var width = 0
    /// The box's height.
    public var height = 0
    /// `fit` (inside width × height), `fill` (`crop`) or `smart` (`smartcrop`): exactly width × height.
    public var crop = ThumbnailCrop.fit
    /// The format named by `type`; nil: `auto` or none given.
    public var format: ImageFormat?
    /// `type: auto`: AVIF or WebP when `Accept` lists them.
    public var accepted: ImageFormat?
    /// 1–100.
    public var quality = ThumbnailOutput.defaultQuality

    /// The plan of `operations` (the JSON text of the query parameter), its box capped at
    /// `maxSide` pixels a side; `accepted` is left for the edge that knows the client's `Accept`.
    ///
    /// - Throws: `.invalidRequest` naming the operation and parameter that is wrong.
    public init(operations text: String, maxSide: Int) throws {
        guard let list = try? JSONDecoder().decode([JSONValue].self, from: Data(text.utf8)) else {
            throw VignetteError(.invalidRequest, "operations must be a JSON list of {\"operation\":…,\"params\":{…}} objects")
        }
        var resize: String?
        for (index, item) in list.enumerated() {
            guard case .object(let entry) = item, case .string(let name)? = entry["operation"] else {
                throw VignetteError(.invalidRequest, "operations[\(index)] must be an object with an operation name")
            }
            for field in entry.keys.sorted() where !["operation", "params", "ignore_failure"].contains(field) {
                throw VignetteError(.invalidRequest, "operation \(name): unknown field \(field)")
            }
            var params: [String: JSONValue] = [:]
            if let given = entry["params"] {
                guard case .object(let object) = given else {
                    throw VignetteError(.invalidRequest, "operation \(name): params must be a JSON object")
                }
                params = object
            }
            let allowed: Set<String>
            switch name {
            case "autorotate": allowed = []
            case "convert": allowed = ["type", "quality", "stripmeta"]
            case "fit", "crop", "smartcrop": allowed = ["width", "height", "type", "quality", "stripmeta", "norotation"]
            default:
                throw VignetteError(
                    .invalidRequest, "operation \(name) is not supported (only autorotate, convert, fit, crop and smartcrop)")
            }
            for key in params.keys.sorted() where !allowed.contains(key) {
                throw VignetteError(.invalidRequest, "operation \(name): unknown parameter \(key)")
            }
            for key in ["stripmeta", "norotation"] where params[key] != nil {
                _ = try Self.boolean(name, key, params[key]!)
            }
            if let value = params["type"] {
                let type = try Self.string(name, "type", value)
                if type == "auto" {
                    format = nil
                } else if let named = ImageFormat(name: type) {
                    format = named
                } else {
                    throw VignetteError(.invalidRequest, "operation \(name): type must be jpeg, png, webp, avif or auto, not \(type)")
                }
            } else if name == "convert" {
                throw VignetteError(.invalidRequest, "operation convert: the type parameter is required")
            }
            if let value = params["quality"] { quality = try Self.integer(name, "quality", value, 1...100) }
            guard ["fit", "crop", "smartcrop"].contains(name) else { continue }
            if let earlier = resize {
                throw VignetteError(.invalidRequest, "operation \(name): only one of fit, crop and smartcrop may be given (\(earlier) was)")
            }
            resize = name
            let w = try params["width"].map { try Self.integer(name, "width", $0, 1...Int.max) }
            let h = try params["height"].map { try Self.integer(name, "height", $0, 1...Int.max) }
            if name == "fit" {
                guard let w, let h else { throw VignetteError(.invalidRequest, "operation fit: width and height are required") }
                (width, height) = (w, h)
            } else {
                guard let side = w ?? h else {
                    throw VignetteError(.invalidRequest, "operation \(name): width or height is required")
                }
                (width, height) = (w ?? side, h ?? side)
                crop = name == "crop" ? .fill : .smart
            }
        }
        guard resize != nil else {
            throw VignetteError(.invalidRequest, "operations must include one of fit, crop and smartcrop")
        }
        width = min(width, maxSide)
        height = min(height, maxSide)
    }

    /// The square box the renderer makes, of the longer side: for `fit`, `fitted` then shrinks
    /// the picture to the other side; the crops cut `cropBox` from it.
    public var request: ThumbnailRequest {
        ThumbnailRequest(maxPixelSize: max(width, height), crop: crop)
    }

    /// What the crops cut.
    public var cropBox: (width: Int, height: Int)? { crop == .fit ? nil : (width, height) }

    /// `bitmap` shrunk, aspect kept, until it fits inside `width × height` (crops are already
    /// exactly that).
    public func fitted(_ bitmap: Bitmap) -> Bitmap {
        guard bitmap.width > width || bitmap.height > height, bitmap.width > 0, bitmap.height > 0 else { return bitmap }
        let s = min(Double(width) / Double(bitmap.width), Double(height) / Double(bitmap.height))
        let w = min(width, max(1, Int((Double(bitmap.width) * s).rounded())))
        let h = min(height, max(1, Int((Double(bitmap.height) * s).rounded())))
        let scaler = Downscaler(inWidth: bitmap.width, inHeight: bitmap.height, channels: 4, outWidth: w, outHeight: h)
        bitmap.pixels.withUnsafeBufferPointer { px in
            scaler.push(px.baseAddress!, stride: bitmap.width * 4, count: bitmap.height)
        }
        return scaler.finish()
    }

    /// The encoding: the `type` given; for `auto`, AVIF or WebP when `Accept` lists them; else
    /// (or with no type) imaginary's default, the input's own format when it is one we write,
    /// otherwise PNG for a picture with alpha and JPEG for one without.
    public func output(for bitmap: Bitmap, inputMediaType: String) -> ThumbnailOutput {
        let chosen =
            format ?? accepted ?? ImageFormat.allCases.first { $0.mediaType == inputMediaType }
            ?? (bitmap.hasTransparency ? .png : .jpeg)
        return ThumbnailOutput(format: chosen, quality: quality)
    }

    static func integer(_ operation: String, _ name: String, _ value: JSONValue, _ range: ClosedRange<Int>) throws -> Int {
        let number: Int? =
            switch value {
            case .string(let text): Int(text)
            case .number(let n): Int(exactly: n)
            default: nil
            }
        guard let number, range.contains(number) else {
            let bounds = range.upperBound == Int.max ? "at least \(range.lowerBound)" : "from \(range.lowerBound) to \(range.upperBound)"
            throw VignetteError(.invalidRequest, "operation \(operation): \(name) must be a whole number \(bounds), not \(value)")
        }
        return number
    }

    static func boolean(_ operation: String, _ name: String, _ value: JSONValue) throws -> Bool {
        switch value {
        case .bool(let b): return b
        case .string("true"): return true
        case .string("false"): return false
        default: throw VignetteError(.invalidRequest, "operation \(operation): \(name) must be true or false, not \(value)")
        }
    }

    static func string(_ operation: String, _ name: String, _ value: JSONValue) throws -> String {
        guard case .string(let text) = value else {
            throw VignetteError(.invalidRequest, "operation \(operation): \(name) must be a string, not \(value)")
        }
        return text
    }
}
