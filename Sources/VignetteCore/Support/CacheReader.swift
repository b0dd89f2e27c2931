import Foundation

/// Reads a compiled cache file back, checking every length against what is left.
///
/// A cache file is input like any other (damaged, truncated, or written by someone else):
/// nothing it says is trusted before it is checked.
struct CacheReader {
    struct Truncated: Error {}

    let bytes: [UInt8]
    var index = 0

    var atEnd: Bool { index == bytes.count }

    /// The whole file at `path`, or nil when it cannot be read, is not a regular file, or is implausibly large.
    static func contents(ofFile path: String) -> [UInt8]? {
        // Non-blocking: a FIFO put where the cache belongs would otherwise hang every command in open().
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG, st.st_size > 0, st.st_size < 64 << 20 else { return nil }
        let size = Int(st.st_size)
        var bytes = [UInt8](repeating: 0, count: size)
        var done = 0
        while done < size {
            let n = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress! + done, size - done) }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { return nil }
            done += n
        }
        return bytes
    }

    mutating func bytes(_ n: Int) throws -> [UInt8] {
        guard n >= 0, n <= bytes.count - index else { throw Truncated() }
        defer { index += n }
        return Array(bytes[index..<(index + n)])
    }
    mutating func int() throws -> Int {
        guard bytes.count - index >= 8 else { throw Truncated() }
        var v: UInt64 = 0
        for k in 0..<8 { v |= UInt64(bytes[index + k]) << (8 * UInt64(k)) }
        index += 8
        return Int(truncatingIfNeeded: Int64(bitPattern: v))
    }
    /// A list length: never more than the bytes left could hold.
    mutating func count() throws -> Int {
        let n = try int()
        guard n >= 0, n <= bytes.count - index else { throw Truncated() }
        return n
    }
    mutating func string() throws -> String {
        let n = try count()
        defer { index += n }
        return String(decoding: bytes[index..<(index + n)], as: UTF8.self)
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
