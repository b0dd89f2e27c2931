import Foundation

/// Reads a compiled cache file back, checking every length against what is left.
///
/// A cache file is input like any other (damaged, truncated, or written by someone else):
/// nothing it says is trusted before it is checked.
struct CacheReader {
    struct Truncated: Error {}

    let store: CacheBytes
    var index = 0

    init(bytes: [UInt8], index: Int = 0) {
        self.init(store: CacheBytes(copying: bytes), index: index)
    }

    init(store: CacheBytes, index: Int = 0) {
        self.store = store
        self.index = index
    }

    var atEnd: Bool { index == store.count }

    /// The whole file at `path`, or nil when it cannot be read, is not a regular file, or is implausibly large.
    static func contents(ofFile path: String) -> [UInt8]? {
        CacheBytes(mapping: path).map { Array($0.raw) }
    }

    mutating func bytes(_ n: Int) throws -> [UInt8] {
        guard n >= 0, n <= store.count - index else { throw Truncated() }
        defer { index += n }
        return Array(UnsafeRawBufferPointer(rebasing: store.raw[index..<(index + n)]))
    }
    mutating func int() throws -> Int {
        guard store.count - index >= 8 else { throw Truncated() }
        let v = UInt64(littleEndian: store.raw.loadUnaligned(fromByteOffset: index, as: UInt64.self))
        index += 8
        return Int(truncatingIfNeeded: Int64(bitPattern: v))
    }
    /// A list length: never more than the bytes left could hold.
    mutating func count() throws -> Int {
        let n = try int()
        guard n >= 0, n <= store.count - index else { throw Truncated() }
        return n
    }
    mutating func string() throws -> String {
        let n = try count()
        defer { index += n }
        return String(decoding: UnsafeRawBufferPointer(rebasing: store.raw[index..<(index + n)]), as: UTF8.self)
    }
    mutating func strings() throws -> [String] {
        var list: [String] = []
        for _ in 0..<(try count()) { list.append(try string()) }
        return list
    }
    mutating func matches(depth: Int) throws -> [MagicMatch] {
        guard depth < MIMEPackageReader.maxDepth else { throw Truncated() }
        var list: [MagicMatch] = []
        for _ in 0..<(try count()) {
            list.append(MagicMatch(pattern: try pattern(), children: try matches(depth: depth + 1)))
        }
        return list
    }
    /// A byte pattern: some bytes, within the reach of a file sample, the mask as long as they.
    mutating func pattern() throws -> BytePattern {
        let offset = try int()
        let range = try int()
        let value = try bytes(try count())
        let mask = try flag() ? try bytes(value.count) : nil
        let reach = MIMEPackageReader.maxMagicReach
        // Each bounded first, so that the sum cannot overflow.
        guard (0...reach).contains(offset), (0...reach).contains(range), !value.isEmpty, offset + range + value.count <= reach else {
            throw Truncated()
        }
        return BytePattern(offset: offset, bytes: value, mask: mask, range: range)
    }
    /// 0 or 1; anything else is damage.
    mutating func flag() throws -> Bool {
        switch try int() {
        case 0: return false
        case 1: return true
        default: throw Truncated()
        }
    }
}
