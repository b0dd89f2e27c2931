/// How much work an archive listing may do before it stops and marks itself partial.
public struct ArchiveLimits: Sendable, Equatable {
    /// Most entries read from the archive.
    public var maxEntries: Int
    /// Most entries shown in the tree (the totals still count every entry read).
    public var maxShownEntries: Int
    /// Most bytes decompressed (or read, for an uncompressed tar) while listing.
    public var maxStreamBytes: Int
    /// Longest a listing may take, in seconds.
    public var maxSeconds: Double

    /// Creates limits; the defaults read 10,000 entries or 256 MiB of stream within 3 seconds and show 1,000 entries.
    public init(maxEntries: Int = 10_000, maxShownEntries: Int = 1000, maxStreamBytes: Int = 256 << 20, maxSeconds: Double = 3) {
        self.maxEntries = maxEntries
        self.maxShownEntries = maxShownEntries
        self.maxStreamBytes = maxStreamBytes
        self.maxSeconds = maxSeconds
    }

    /// The default limits.
    public static let standard = ArchiveLimits()
}
