/// A byte signature: a set of patterns that must all match for a file to be of a type.
///
/// When several types match, the higher `priority` wins, then the signature with more
/// pattern bytes, then the type declared later.
public struct ByteSignature: Sendable, Equatable, Codable {
    /// Precedence among matching signatures (80 strong magic, 60 ordinary, 30–40 weak).
    public var priority: Int
    /// Patterns that must all match.
    public var patterns: [BytePattern]

    /// Creates a signature.
    public init(priority: Int = 50, patterns: [BytePattern]) {
        self.priority = priority
        self.patterns = patterns
    }

    enum CodingKeys: String, CodingKey { case priority, patterns }

    /// Decodes `{priority, patterns}`, or a single pattern written inline.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        priority = try c.decodeIfPresent(Int.self, forKey: .priority) ?? 50
        if let list = try c.decodeIfPresent([BytePattern].self, forKey: .patterns) {
            patterns = list
        } else {
            patterns = [try BytePattern(from: decoder)]
        }
        if patterns.isEmpty {
            throw DecodingError.dataCorruptedError(forKey: .patterns, in: c, debugDescription: "a signature needs at least one pattern")
        }
    }

    /// Encodes the signature in its long form.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(priority, forKey: .priority)
        try c.encode(patterns, forKey: .patterns)
    }

    /// How many bytes the patterns pin down (a tie-breaker: longer is more specific).
    public var weight: Int { patterns.reduce(0) { $0 + $1.bytes.count } }

    /// The furthest byte offset any pattern may need to look at.
    public var reach: Int { patterns.map { $0.offset + $0.range + $0.bytes.count }.max() ?? 0 }
}

/// Bytes expected at an offset, optionally masked, optionally anywhere in a range of offsets.
public struct BytePattern: Sendable, Equatable, Codable {
    /// Where the bytes start (or the first start tried, with `range`).
    public var offset: Int
    /// The expected bytes.
    public var bytes: [UInt8]
    /// Per-byte mask; a byte matches when `data & mask == bytes & mask`.
    public var mask: [UInt8]?
    /// How many further start offsets to try after `offset` (0: exactly at `offset`).
    public var range: Int

    /// Creates a pattern.
    public init(offset: Int = 0, bytes: [UInt8], mask: [UInt8]? = nil, range: Int = 0) {
        self.offset = offset
        self.bytes = bytes
        self.mask = mask
        self.range = range
    }

    enum CodingKeys: String, CodingKey { case offset, hex, ascii, mask, range }

    /// Decodes `{offset, hex|ascii, mask?, range?}`.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        offset = try c.decodeIfPresent(Int.self, forKey: .offset) ?? 0
        range = try c.decodeIfPresent(Int.self, forKey: .range) ?? 0
        let hex = try c.decodeIfPresent(String.self, forKey: .hex)
        let ascii = try c.decodeIfPresent(String.self, forKey: .ascii)
        switch (hex, ascii) {
        case (let hex?, nil):
            guard let parsed = BytePattern.parseHex(hex) else {
                throw DecodingError.dataCorruptedError(forKey: .hex, in: c, debugDescription: BytePattern.hexProblem(hex))
            }
            bytes = parsed
        case (nil, let ascii?):
            bytes = Array(ascii.utf8)
        default:
            throw DecodingError.dataCorruptedError(
                forKey: .hex, in: c, debugDescription: "a pattern needs exactly one of \"hex\" or \"ascii\"")
        }
        if bytes.isEmpty {
            throw DecodingError.dataCorruptedError(forKey: .hex, in: c, debugDescription: "a pattern needs at least one byte")
        }
        if let maskText = try c.decodeIfPresent(String.self, forKey: .mask) {
            guard let parsed = BytePattern.parseHex(maskText), parsed.count == bytes.count else {
                throw DecodingError.dataCorruptedError(
                    forKey: .mask, in: c, debugDescription: "the mask must be hex of the same length as the bytes")
            }
            mask = parsed
        } else {
            mask = nil
        }
        if offset < 0 || range < 0 {
            throw DecodingError.dataCorruptedError(forKey: .offset, in: c, debugDescription: "offset and range must not be negative")
        }
    }

    /// Encodes the pattern with its bytes as hex.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(offset, forKey: .offset)
        try c.encode(BytePattern.hexString(bytes), forKey: .hex)
        if let mask { try c.encode(BytePattern.hexString(mask), forKey: .mask) }
        if range > 0 { try c.encode(range, forKey: .range) }
    }

    /// Whether the pattern matches `data` (bytes from the start of the file).
    public func matches(_ data: some ByteReader) -> Bool {
        if range > 0 {
            // One read for the whole range: a far range (DTS at 0:18000) must not cost a read per start.
            guard let window = data.bytes(at: offset, upTo: range + bytes.count), window.count >= bytes.count else { return false }
            let base = window.startIndex
            for start in 0...(window.count - bytes.count) where matches(window, at: base + start) { return true }
            return false
        }
        guard let window = data.bytes(at: offset, count: bytes.count) else { return false }
        return matches(window, at: window.startIndex)
    }

    private func matches(_ window: ArraySlice<UInt8>, at base: Int) -> Bool {
        if let mask {
            for i in 0..<bytes.count where window[base + i] & mask[i] != bytes[i] & mask[i] { return false }
        } else {
            for i in 0..<bytes.count where window[base + i] != bytes[i] { return false }
        }
        return true
    }

    static func parseHex(_ text: String) -> [UInt8]? {
        var out: [UInt8] = []
        var pending: UInt8? = nil
        for ch in text.utf8 {
            let v: UInt8
            switch ch {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): v = ch - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): v = ch - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): v = ch - UInt8(ascii: "A") + 10
            case UInt8(ascii: " "): continue
            default: return nil
            }
            if let high = pending { out.append(high << 4 | v); pending = nil } else { pending = v }
        }
        return pending == nil ? out : nil
    }

    /// Why `parseHex` refused `text`: the first character that is not a hex digit, or an odd count.
    static func hexProblem(_ text: String) -> String {
        if let bad = text.first(where: { !($0.isASCII && $0.isHexDigit) && $0 != " " }) {
            return "\"\(bad)\" is not a hex digit: \(text)"
        }
        return "not an even number of hex digits: \(text)"
    }

    static func hexString(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789ABCDEF".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count * 2)
        for b in bytes { out.append(digits[Int(b >> 4)]); out.append(digits[Int(b & 15)]) }
        return String(decoding: out, as: UTF8.self)
    }
}

/// Random access to a file's leading bytes, as much as a signature needs.
public protocol ByteReader {
    /// `count` bytes starting at `offset`, or nil when the file is shorter.
    func bytes(at offset: Int, count: Int) -> ArraySlice<UInt8>?
    /// Up to `count` bytes starting at `offset` (fewer at the end of the file), or nil when there are none.
    func bytes(at offset: Int, upTo count: Int) -> ArraySlice<UInt8>?
}
