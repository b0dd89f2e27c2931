import Crypto
import Foundation

/// A stable 128-bit digest of what a response depends on: the file's identity and the options.
///
/// It names the on-disk response cache entry and, quoted, is the strong ETag: the first 16 bytes
/// of the SHA-256 of the parts, stable across runs and machines (unlike Swift's `Hasher`).
public struct ContentKey: Sendable, Equatable, CustomStringConvertible {
    /// 32 lowercase hexadecimal digits.
    public let hex: String

    /// The key of `parts`, each ended by a NUL so that ("ab","c") differs from ("a","bc").
    public init(_ parts: [String]) {
        var hasher = SHA256()
        for part in parts { hasher.update(data: Array(part.utf8) + [0]) }
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        for byte in hasher.finalize().prefix(16) { text += [digits[Int(byte >> 4)], digits[Int(byte & 0xF)]] }
        hex = String(decoding: text, as: UTF8.self)
    }

    /// The quoted form for an `ETag` header.
    public var etag: String { "\"\(hex)\"" }

    /// The hex digits.
    public var description: String { hex }

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
