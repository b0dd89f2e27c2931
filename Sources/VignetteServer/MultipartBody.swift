import VignetteCore

/// A `multipart/mixed` body (RFC 2046): one part per thumbnail of a several-size answer.
struct MultipartBody {
    /// One part: its headers and bytes.
    struct Part {
        /// Header lines, in order (`Content-Type` first).
        var headers: [(String, String)]
        /// The part's content.
        var bytes: [UInt8]
    }

    /// The boundary between parts (without the leading `--`).
    let boundary: String
    /// The encoded body.
    let bytes: [UInt8]

    /// The body of `parts` with `boundary`, or nil when a part contains the delimiter (the
    /// caller then tries another boundary).
    init?(parts: [Part], boundary: String) {
        let delimiter = Array("--\(boundary)".utf8)
        var out: [UInt8] = []
        for part in parts {
            if Self.contains(part.bytes, delimiter) { return nil }
            out += delimiter + [0x0D, 0x0A]
            for (name, value) in part.headers { out += Array("\(name): \(value)\r\n".utf8) }
            out += Array("Content-Length: \(part.bytes.count)\r\n\r\n".utf8)
            out += part.bytes + [0x0D, 0x0A]
        }
        out += delimiter + Array("--\r\n".utf8)
        self.boundary = boundary
        self.bytes = out
    }

    /// The `Content-Type` of the body.
    var contentType: String { "multipart/mixed; boundary=\(boundary)" }

    /// Whether `needle` occurs in `haystack`.
    static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard let first = needle.first, haystack.count >= needle.count else { return false }
        var i = 0
        let last = haystack.count - needle.count
        while i <= last {
            if haystack[i] == first, haystack[i..<i + needle.count].elementsEqual(needle) { return true }
            i += 1
        }
        return false
    }
}
