/// Appends the values of a compiled cache file: integers as 8 bytes, strings and lists length-first.
///
/// The system MIME database's cache and the merged type catalog's are written with it.
struct CacheWriter {
    var out: [UInt8] = []

    mutating func int(_ v: Int) { withUnsafeBytes(of: Int64(v).littleEndian) { out.append(contentsOf: $0) } }
    mutating func bytes(_ b: [UInt8]) { out.append(contentsOf: b) }
    mutating func string(_ s: String) {
        int(s.utf8.count)
        out.append(contentsOf: s.utf8)
    }
    mutating func strings(_ list: [String]) {
        int(list.count)
        for s in list { string(s) }
    }
    mutating func matches(_ list: [MagicMatch]) {
        int(list.count)
        for m in list {
            pattern(m.pattern)
            matches(m.children)
        }
    }
    mutating func pattern(_ p: BytePattern) {
        int(p.offset)
        int(p.range)
        int(p.bytes.count)
        bytes(p.bytes)
        int(p.mask == nil ? 0 : 1)
        if let mask = p.mask { bytes(mask) }
    }
}
