/// The format and dimensions of an image, read from its first bytes without decoding.
///
/// Used to refuse an external generator's output before any pixel memory is allocated.
struct ImageHeader: Equatable {
    /// PNG or JPEG.
    enum Format: Equatable {
        case png, jpeg
    }
    let format: Format
    /// Width and height, when the header gives them (a JPEG's frame header may be further on).
    let width: Int?
    let height: Int?

    /// Reads `bytes`' header; nil when they are neither PNG nor JPEG.
    init?(_ bytes: [UInt8]) {
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        if bytes.starts(with: png) {
            format = .png
            // IHDR is the first chunk: length(4) "IHDR"(4) width(4) height(4).
            if bytes.count >= 24, Array(bytes[12..<16]) == Array("IHDR".utf8) {
                width = Self.bigEndian(bytes, 16)
                height = Self.bigEndian(bytes, 20)
            } else {
                width = nil
                height = nil
            }
            return
        }
        guard bytes.count >= 3, bytes[0] == 0xFF, bytes[1] == 0xD8, bytes[2] == 0xFF else { return nil }
        format = .jpeg
        let frame = Self.jpegFrameSize(bytes)
        width = frame?.width
        height = frame?.height
    }

    private static func bigEndian(_ b: [UInt8], _ at: Int) -> Int {
        Int(b[at]) << 24 | Int(b[at + 1]) << 16 | Int(b[at + 2]) << 8 | Int(b[at + 3])
    }

    /// Walks the marker segments to the first SOFn and reads its height and width.
    private static func jpegFrameSize(_ b: [UInt8]) -> (width: Int, height: Int)? {
        var i = 2
        while i + 9 < b.count {
            guard b[i] == 0xFF else { return nil }
            let marker = b[i + 1]
            if marker == 0xFF { i += 1; continue }
            let length = Int(b[i + 2]) << 8 | Int(b[i + 3])
            if (0xC0...0xCF).contains(marker), marker != 0xC4, marker != 0xC8, marker != 0xCC {
                return (Int(b[i + 7]) << 8 | Int(b[i + 8]), Int(b[i + 5]) << 8 | Int(b[i + 6]))
            }
            guard length >= 2 else { return nil }
            i += 2 + length
        }
        return nil
    }
}
