import CVignetteCodecs
import Crypto
import Foundation
import Testing
import VignetteCore

@testable import VignetteImaging

/// Paths and helpers for the image fixtures.
enum Fixtures {
    static let root: String = {
        Bundle.module.url(forResource: "Fixtures", withExtension: nil)!.path
    }()

    static func bytes(_ relative: String) throws -> [UInt8] {
        Array(try Data(contentsOf: URL(fileURLWithPath: root + "/" + relative)))
    }

    static func files(in folder: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: root + "/" + folder).sorted()
    }

    /// Rows of a TSV fixture, without its header.
    static func tsv(_ relative: String) throws -> [[String]] {
        let text = try String(contentsOfFile: root + "/" + relative, encoding: .utf8)
        return text.split(separator: "\n").dropFirst().map { $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init) }
    }
}

/// A full-size decode: a request box larger than any fixture, so nothing is resampled.
let fullSize = ThumbnailRequest(maxPixelSize: 1 << 14)

func sha256(_ bytes: [UInt8]) -> String {
    SHA256.hash(data: bytes).map { String(format: "%02x", $0) }.joined()
}

/// Peak signal-to-noise ratio of the colour channels of two same-size bitmaps, in dB.
func psnr(_ a: Bitmap, _ b: Bitmap) -> Double {
    precondition(a.width == b.width && a.height == b.height)
    var sum = 0.0
    var n = 0
    for i in stride(from: 0, to: a.pixels.count, by: 4) {
        for c in 0..<3 {
            let d = Double(a.pixels[i + c]) - Double(b.pixels[i + c])
            sum += d * d
            n += 1
        }
    }
    let mse = sum / Double(n)
    return mse == 0 ? 99 : 10 * log10(255 * 255 / mse)
}

/// The picture of the PNG at `path` (an absolute path, or one under `Fixtures`) fitted to `side`
/// pixels, by our PNG decoder: the reference a decoder's output is held to.
func referencePNG(_ path: String, side: Int = 1 << 14) throws -> Bitmap {
    let bytes = path.hasPrefix("/") ? Array(try Data(contentsOf: URL(fileURLWithPath: path))) : try Fixtures.bytes(path)
    return try bytes.withUnsafeBytes { try ImageDecoder.png($0, request: ThumbnailRequest(maxPixelSize: side)) }.bitmap
}

/// A bitmap filled with one colour.
func solid(_ width: Int, _ height: Int, _ rgba: [UInt8]) -> Bitmap {
    Bitmap(width: width, height: height, pixels: Array((0..<(width * height)).map { _ in rgba }.joined()))
}

/// The size of the rows a shim decoder opened over `bytes` by `open` gives (a reduced level, layer
/// or resolution), or nil when it does not open. A decoder over a library opened on first use goes
/// through `isolatedRowSize`: loading a library here, while another test forks a child that loads
/// its own, can leave that child waiting forever on the loader's lock.
func decoderRowSize(
    _ bytes: [UInt8], _ open: (UnsafePointer<UInt8>?, Int, inout vgn_image_info, inout vgn_error) -> OpaquePointer?
) -> (Int, Int)? {
    var info = vgn_image_info()
    var err = vgn_error()
    return bytes.withUnsafeBufferPointer { buffer -> (Int, Int)? in
        guard let decoder = open(buffer.baseAddress, buffer.count, &info, &err) else { return nil }
        defer { vgn_decoder_close(decoder) }
        var width: UInt32 = 0
        var height: UInt32 = 0
        vgn_decoder_size(decoder, &width, &height)
        return (Int(width), Int(height))
    }
}

/// `decoderRowSize` for a decoder that runs in `vignette-decode` (`library` names it there), as
/// `ImageDecoder` runs it: the library is loaded in the helper program, never in this process.
func isolatedRowSize(_ bytes: [UInt8], _ opener: vgn_isolated_opener, _ library: String, target: UInt32) -> (Int, Int)? {
    #expect(ImageDecoder.StreamedFormat.helper != nil, "vignette-decode is built beside the tests")
    return decoderRowSize(bytes) { vgn_isolated_open(opener, library, $0, $1, target, 30_000, &$2, &$3) }
}
