/// A cache entry's `Thumb::URI` read back to the local path it names, by GLib's rules
/// (`g_filename_from_uri`).
///
/// `file:///p`, `file://localhost/p` and `file:/p` name the local path `/p`; `%XX` escapes are
/// undone byte by byte (the path may not be UTF-8). A `file:` URI with another host is not a
/// local file. A `#`, a bad escape, or an escaped NUL or `/` makes the URI malformed, as in GLib.
enum LocalFileURI: Equatable {
    /// A local path, as the bytes the file system sees.
    case path([UInt8])
    /// Another scheme (`trash:`, `http:`…), or a `file:` URI of another host.
    case notLocal
    /// A `file:` URI GLib would refuse.
    case malformed

    /// Reads `uri`.
    init(_ uri: String) {
        let bytes = Array(uri.utf8)
        guard bytes.count >= 5, String(decoding: bytes[0..<5], as: UTF8.self).lowercased() == "file:" else {
            self = .notLocal
            return
        }
        var rest = bytes[5...]
        if rest.starts(with: Array("//".utf8)) {
            rest = rest.dropFirst(2)
            let slash = rest.firstIndex(of: UInt8(ascii: "/")) ?? rest.endIndex
            let host = String(decoding: rest[rest.startIndex..<slash], as: UTF8.self).lowercased()
            guard host.isEmpty || host == "localhost" else {
                self = .notLocal
                return
            }
            rest = rest[slash...]
        }
        guard rest.first == UInt8(ascii: "/"), !rest.contains(UInt8(ascii: "#")), let path = Self.unescape(rest) else {
            self = .malformed
            return
        }
        self = .path(path)
    }

    /// `bytes` with every `%XX` replaced by its byte; nil for a bad escape or an escaped NUL or `/`.
    static func unescape(_ bytes: ArraySlice<UInt8>) -> [UInt8]? {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var i = bytes.startIndex
        while i < bytes.endIndex {
            guard bytes[i] == UInt8(ascii: "%") else {
                out.append(bytes[i])
                i += 1
                continue
            }
            guard i + 2 < bytes.endIndex, let high = hexValue(bytes[i + 1]), let low = hexValue(bytes[i + 2]) else { return nil }
            let byte = high << 4 | low
            if byte == 0 || byte == UInt8(ascii: "/") { return nil }
            out.append(byte)
            i += 3
        }
        return out
    }

    private static func hexValue(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): c - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): c - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
