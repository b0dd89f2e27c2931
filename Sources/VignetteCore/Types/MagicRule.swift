/// A shared-mime-info magic rule: a tree of byte matches, read from a system MIME package.
///
/// The rule matches when any top-level match does; a match with children matches when its
/// own bytes do and any child does (the freedesktop "magic" semantics).
public struct MagicRule: Sendable, Equatable {
    /// Precedence among matching rules and byte signatures (0–100, 50 by default).
    public var priority: Int
    /// Alternatives: the rule matches when any of them does.
    public var matches: [MagicMatch]

    /// Creates a rule.
    public init(priority: Int = 50, matches: [MagicMatch]) {
        self.priority = priority
        self.matches = matches
    }

    /// Whether the rule matches the file's bytes.
    public func matches(_ data: some ByteReader) -> Bool {
        matches.contains { $0.matches(data) }
    }

    /// The furthest byte any match may look at.
    public var reach: Int { matches.map(\.reach).max() ?? 0 }

    /// How many bytes the best matching path pins down, or nil when the rule does not match
    /// (a word at offset 0 says less than a 15-byte header line).
    public func matchedBytes(_ data: some ByteReader) -> Int? {
        matches.compactMap { $0.matchedBytes(data) }.max()
    }

    /// How many matches the tree holds (a bound on the work one file costs).
    public var size: Int { matches.reduce(0) { $0 + $1.size } }
}

/// One match of a magic rule: bytes at an offset (or in a range of offsets), and the matches
/// that must follow when there are any.
public struct MagicMatch: Sendable, Equatable {
    /// The bytes, mask and offsets.
    public var pattern: BytePattern
    /// Further matches, any one of which must also match.
    public var children: [MagicMatch]

    /// Creates a match.
    public init(pattern: BytePattern, children: [MagicMatch] = []) {
        self.pattern = pattern
        self.children = children
    }

    /// Whether this match, and one of its children if it has any, matches.
    public func matches(_ data: some ByteReader) -> Bool {
        guard pattern.matches(data) else { return false }
        return children.isEmpty || children.contains { $0.matches(data) }
    }

    /// The bytes pinned down by this match and its best matching child; nil when it does not match.
    public func matchedBytes(_ data: some ByteReader) -> Int? {
        guard pattern.matches(data) else { return nil }
        if children.isEmpty { return pattern.bytes.count }
        guard let best = children.compactMap({ $0.matchedBytes(data) }).max() else { return nil }
        return pattern.bytes.count + best
    }

    /// The furthest byte this match or a child may look at.
    public var reach: Int { max(pattern.offset + pattern.range + pattern.bytes.count, children.map(\.reach).max() ?? 0) }

    var size: Int { 1 + children.reduce(0) { $0 + $1.size } }
}
