import Foundation
import VignetteImaging

/// An image's facts as a preview shows them, in order, each a label and a value.
struct ImageFacts {
    /// "JPEG image, 640 × 400".
    let title: String
    /// The rows; absent facts are left out.
    let rows: [(String, String)]

    init(type: String, size: (Int, Int)?, metadata: ImageMetadata) {
        var rows: [(String, String)] = []
        let kind = type.prefix(1).uppercased() + type.dropFirst()
        if let (w, h) = size {
            let megapixels = Double(w) * Double(h) / 1_000_000
            let mp = megapixels < 0.05 ? "" : " (\(Self.number(megapixels, digits: megapixels < 10 ? 1 : 0)) MP)"
            rows.append(("Size", "\(w) × \(h) pixels\(mp)"))
        }
        rows.append(("Format", kind + (metadata.details.map { ", \($0)" } ?? "")))
        rows += metadata.facts.map { ($0.label, $0.value) }
        if let profile = metadata.profileName { rows.append(("Colour profile", profile)) }
        if let title = metadata.title { rows.append(("Title", title)) }
        if let description = metadata.description ?? metadata.exif?.imageDescription { rows.append(("Description", description)) }
        if let e = metadata.exif {
            if let camera = Self.camera(e.make, e.model) { rows.append(("Camera", camera)) }
            if let lens = Self.camera(e.lensMake, e.lensModel) { rows.append(("Lens", lens)) }
            let exposure = [
                e.exposureTime.map(Self.shutter), e.fNumber.map { "f/\(Self.number($0, digits: 1))" }, e.iso.map { "ISO \($0)" },
                e.focalLength.map { "\(Self.number($0, digits: 1)) mm" },
            ].compactMap { $0 }
            if !exposure.isEmpty { rows.append(("Exposure", exposure.joined(separator: ", "))) }
            if let date = e.dateTaken { rows.append(("Taken", Self.date(date))) }
            if let lat = e.latitude, let lon = e.longitude {
                var place =
                    "\(Self.number(abs(lat), digits: 5))° \(lat < 0 ? "S" : "N"), \(Self.number(abs(lon), digits: 5))° \(lon < 0 ? "W" : "E")"
                if let alt = e.altitude { place += ", \(Self.number(alt, digits: 0)) m" }
                rows.append(("GPS position", place))
            }
            if let o = e.orientation, o > 1, o <= 8 { rows.append(("Orientation", Self.orientations[o - 2])) }
            if let artist = e.artist { rows.append(("Artist", artist)) }
            if let copyright = e.copyright { rows.append(("Copyright", copyright)) }
            if let software = e.software { rows.append(("Software", software)) }
        }
        self.rows = rows
        title = size.map { "\(kind), \($0.0) × \($0.1)" } ?? kind
    }

    static let orientations = [
        "mirrored (2)", "upside down (3)", "upside down, mirrored (4)", "rotated 90°, mirrored (5)", "rotated 90° (6)",
        "rotated 270°, mirrored (7)", "rotated 270° (8)",
    ]

    /// "Canon PowerShot S40": the model alone when it already names the maker.
    static func camera(_ make: String?, _ model: String?) -> String? {
        guard let model else { return make }
        guard let make, !model.lowercased().hasPrefix(make.lowercased().split(separator: " ").first.map(String.init) ?? make.lowercased())
        else { return model }
        return "\(make) \(model)"
    }

    /// "1/500 s", or "2.5 s" for long exposures.
    static func shutter(_ seconds: Double) -> String {
        guard seconds > 0, seconds < 1 else { return "\(number(seconds, digits: 1)) s" }
        return "1/\(Int((1 / seconds).rounded())) s"
    }

    /// EXIF's `2003:12:14 12:01:44` as `2003-12-14 12:01:44`.
    static func date(_ exif: String) -> String {
        guard exif.count >= 10 else { return exif }
        return exif.prefix(10).replacingOccurrences(of: ":", with: "-") + exif.dropFirst(10)
    }

    /// `value` with at most `digits` decimals, trailing zeros dropped, no locale.
    static func number(_ value: Double, digits: Int) -> String {
        guard value.isFinite else { return "?" }
        var text = String(format: "%.\(digits)f", value)
        if text.contains(".") {
            while text.hasSuffix("0") { text.removeLast() }
            if text.hasSuffix(".") { text.removeLast() }
        }
        return text
    }
}
