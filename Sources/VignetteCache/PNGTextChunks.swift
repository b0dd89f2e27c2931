/// The `tEXt` key/value pairs of a PNG, read from its chunk structure without decoding pixels.
enum PNGTextChunks {
    /// PNG files start with these eight bytes.
    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// The text pairs found before the first `IDAT` (where the freedesktop spec puts them), or nil when
    /// `bytes` is not a PNG. A chunk running past the end stops the reading; what came before counts.
    static func read(_ bytes: [UInt8]) -> [String: String]? {
        guard bytes.count >= 8, Array(bytes[0..<8]) == signature else { return nil }
        var text: [String: String] = [:]
        var offset = 8
        // A cache entry has a handful of chunks; the cap stops a hostile file full of tiny ones.
        var chunks = 0
        while offset + 8 <= bytes.count, chunks < 1000 {
            chunks += 1
            let length = Int(bytes[offset]) << 24 | Int(bytes[offset + 1]) << 16 | Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
            let type = String(decoding: bytes[(offset + 4)..<(offset + 8)], as: UTF8.self)
            let dataStart = offset + 8
            guard length <= bytes.count - dataStart else { break }
            if type == "IDAT" || type == "IEND" { break }
            if type == "tEXt" {
                let data = bytes[dataStart..<(dataStart + length)]
                if let zero = data.firstIndex(of: 0) {
                    let key = latin1(data[data.startIndex..<zero])
                    let value = latin1(data[(zero + 1)..<data.endIndex])
                    text[key] = value
                }
            }
            offset = dataStart + length + 4
        }
        return text
    }

    private static func latin1(_ bytes: ArraySlice<UInt8>) -> String {
        String(String.UnicodeScalarView(bytes.map { Unicode.Scalar($0) }))
    }
}
