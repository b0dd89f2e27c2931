import Foundation
import VignetteCore
import VignetteImaging

/// Small input trees for the batch tests, drawn with Vignette's own encoders (no fixture files).
enum BatchFixtures {
    /// A `width` × `height` PNG in a colour derived from `seed`.
    static func png(seed: Int, width: Int = 64, height: Int = 48) throws -> [UInt8] {
        try ImageEncoder.png(bitmap(seed: seed, width: width, height: height), keepAlpha: false)
    }

    /// A JPEG like `png(seed:)`.
    static func jpeg(seed: Int, width: Int = 64, height: Int = 48) throws -> [UInt8] {
        try ImageEncoder.jpeg(bitmap(seed: seed, width: width, height: height), quality: 80)
    }

    static func bitmap(seed: Int, width: Int, height: Int) -> Bitmap {
        var pixels = [UInt8](repeating: 255, count: width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                let i = (y * width + x) * 4
                pixels[i] = UInt8(truncatingIfNeeded: seed &* 37 &+ x * 3)
                pixels[i + 1] = UInt8(truncatingIfNeeded: seed &* 91 &+ y * 5)
                pixels[i + 2] = UInt8(truncatingIfNeeded: (x ^ y) &+ seed)
            }
        }
        return Bitmap(width: width, height: height, pixels: pixels)
    }

    /// Writes `bytes` to `path`, creating parent folders.
    static func write(_ bytes: [UInt8], _ path: String) throws {
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
    }

    /// `count` PNG files (copies of one image) spread over ten sub-folders of `dir`.
    static func manyImages(_ count: Int, in dir: String, width: Int = 64, height: Int = 48) throws {
        let bytes = try png(seed: 7, width: width, height: height)
        for i in 0..<count {
            try write(bytes, "\(dir)/d\(i % 10)/img-\(i).png")
        }
    }

    /// The names of the PNG files directly in `dir` (not temporaries), sorted.
    static func pngs(in dir: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []).filter { $0.hasSuffix(".png") && !$0.hasPrefix(".") }.sorted()
    }

    /// The JSON objects of `--json-lines` output.
    static func events(_ stdout: String) -> [[String: Any]] {
        stdout.split(separator: "\n").compactMap { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
        }
    }
}
