import VignetteCore

/// Bounds-checked reads of a file's integers and strings at absolute offsets, in one byte order;
/// every read past the end (or over `FileSample`'s per-read cap) gives nil, never a trap.
struct BinaryReader {
    let source: FileSample
    var littleEndian: Bool

    /// `count` bytes at `offset`, or nil.
    func bytes(_ offset: Int, _ count: Int) -> [UInt8]? {
        guard offset >= 0, count >= 0 else { return nil }
        return source.bytes(at: offset, count: count).map(Array.init)
    }

    /// An unsigned integer of `size` bytes (1, 2, 4 or 8) at `offset`.
    func uint(_ offset: Int, _ size: Int) -> UInt64? {
        guard let b = bytes(offset, size) else { return nil }
        return (littleEndian ? b.reversed() : b).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
    }

    func u16(_ offset: Int) -> Int? { uint(offset, 2).map(Int.init) }
    func u32(_ offset: Int) -> Int? { uint(offset, 4).map(Int.init) }
    /// A 64-bit value as an Int, nil when it does not fit (a hostile offset).
    func u64(_ offset: Int) -> Int? { uint(offset, 8).flatMap { $0 <= UInt64(Int.max) ? Int($0) : nil } }

    /// The NUL-terminated string at `offset`, at most `max` bytes (cut there without a NUL).
    func string(_ offset: Int, max: Int = 256) -> String? {
        guard let b = bytes(offset, min(max, source.size - offset)) else { return nil }
        return String(decoding: b.prefix { $0 != 0 }, as: UTF8.self)
    }
}
