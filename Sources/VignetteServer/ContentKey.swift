import Foundation

/// A stable 128-bit digest of what a response depends on: the file's identity and the options.
///
/// It names the on-disk cache entry and, quoted, is the strong ETag. Two FNV-1a 64-bit hashes
/// with different offsets: not cryptographic (nothing secret depends on it), but stable across
/// runs and machines, unlike Swift's `Hasher`.
public struct ContentKey: Sendable, Equatable, CustomStringConvertible {
    /// 32 lowercase hexadecimal digits.
    public let hex: String

    /// The key of `parts`, each separated from the next so that ("ab","c") differs from ("a","bc").
    public init(_ parts: [String]) {
        var a: UInt64 = 0xcbf2_9ce4_8422_2325
        var b: UInt64 = 0x6c62_272e_07bb_0142
        for part in parts {
            for byte in part.utf8 + [0] {
                a = (a ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
                b = (b ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
                b = b ^ (b >> 29)
            }
        }
        hex = Self.hex(a) + Self.hex(b)
    }

    /// The quoted form for an `ETag` header.
    public var etag: String { "\"\(hex)\"" }

    /// The hex digits.
    public var description: String { hex }

    static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    /// Whether an `If-None-Match` header value names this key (a list, or `*`).
    public func matches(ifNoneMatch header: String) -> Bool {
        header.split(separator: ",").contains { item in
            var tag = item.trimmingCharacters(in: .whitespaces)
            if tag == "*" { return true }
            // A weak comparison is what If-None-Match asks for (RFC 9110 13.1.2).
            if tag.hasPrefix("W/") { tag.removeFirst(2) }
            return tag == etag
        }
    }
}
