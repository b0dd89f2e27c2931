import Foundation

/// Fast searches in bytes (`memchr`, `memcmp`): the MIME parser looks for line ends and
/// boundaries in up to 32 MB, once per multipart level.
enum ByteSearch {
    /// The index of the first `byte` in `bytes` at or after `start`, or nil.
    static func firstIndex(of byte: UInt8, in bytes: ArraySlice<UInt8>, from start: Int) -> Int? {
        guard start >= bytes.startIndex, start < bytes.endIndex else { return nil }
        return bytes.withUnsafeBufferPointer { buffer in
            let offset = start - bytes.startIndex
            guard let base = buffer.baseAddress, let hit = memchr(base + offset, Int32(byte), buffer.count - offset) else {
                return nil
            }
            return bytes.startIndex + (UnsafeRawPointer(hit) - UnsafeRawPointer(base))
        }
    }

    /// The index where `needle` first occurs in `bytes` at or after `start`, or nil: `memchr` for
    /// its first byte, `memcmp` for the rest (so at worst the needle's length per byte searched).
    static func firstIndex(of needle: [UInt8], in bytes: ArraySlice<UInt8>, from start: Int) -> Int? {
        guard !needle.isEmpty, start >= bytes.startIndex, start <= bytes.endIndex - needle.count else { return nil }
        return bytes.withUnsafeBufferPointer { buffer in
            needle.withUnsafeBufferPointer { pattern in
                guard let base = buffer.baseAddress, let first = pattern.baseAddress else { return nil }
                let last = buffer.count - pattern.count
                var offset = start - bytes.startIndex
                while offset <= last {
                    guard let hit = memchr(base + offset, Int32(pattern[0]), last - offset + 1) else { return nil }
                    let position = UnsafeRawPointer(hit) - UnsafeRawPointer(base)
                    if memcmp(base + position, first, pattern.count) == 0 { return bytes.startIndex + position }
                    offset = position + 1
                }
                return nil
            }
        }
    }
}
