/// `--shard I/N`: this process handles only the files whose stable path hash is I modulo N.
///
/// The hash is FNV-1a (64 bit) of the file's absolute path in UTF-8: the same on every machine
/// and every run, so N processes given the same tree at the same path split it with no coordinator.
public struct ShardSpec: Equatable, Sendable {
    /// This shard's index, 0 ..< count.
    public let index: Int
    /// The number of shards.
    public let count: Int

    /// `I/N`, with 0 <= I < N; nil for anything else.
    public init?(argument: String) {
        let parts = argument.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let i = Int(parts[0]), let n = Int(parts[1]), n >= 1, i >= 0, i < n else { return nil }
        index = i
        count = n
    }

    /// Whether the file at absolute `path` belongs to this shard.
    public func contains(_ path: String) -> Bool {
        count == 1 || Int(Self.hash(path) % UInt64(count)) == index
    }

    /// FNV-1a, 64 bit.
    static func hash(_ text: String) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            h ^= UInt64(byte)
            h = h &* 0x0000_0100_0000_01b3
        }
        return h
    }
}
