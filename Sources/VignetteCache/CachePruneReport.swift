public import VignetteCore

/// What `CachePruner` did (or, in a dry run, would do): the entries it removed and why, the ones
/// it could not read, the errors it met, and the bytes before and after.
public struct CachePruneReport: Sendable, Equatable {
    /// Why an entry was removed.
    public enum Reason: String, Sendable, CaseIterable {
        /// Its `file://` URI names a file that no longer exists.
        case fileGone = "file-gone"
        /// The file's modification time (or size, when recorded) differs from the entry's.
        case fileChanged = "file-changed"
        /// It was among the least recently used when the cache was over the size limit.
        case overMaxSize = "over-max-size"
    }

    /// One removed entry.
    public struct Removal: Sendable, Equatable {
        /// The entry file (`ROOT/large/<md5>.png`).
        public let path: String
        /// Its `Thumb::URI`.
        public let uri: String
        /// Why it went.
        public let reason: Reason
        /// Its size in bytes.
        public let bytes: Int
    }

    /// One entry left alone because it could not be read as a cache entry.
    public struct Unreadable: Sendable, Equatable {
        /// The entry file.
        public let path: String
        /// Why, as a short phrase: "not a PNG", "no Thumb::URI", "no Thumb::MTime",
        /// "not a valid file URI", "cannot be read".
        public let reason: String
    }

    /// Whether nothing was removed: `removals` are what a real run would remove.
    public let dryRun: Bool
    /// Entry files looked at: regular `*.png` files directly in a flavor or fail folder.
    public internal(set) var checked = 0
    /// Removed entries, stale ones first (in folder and name order), then those over the size limit.
    public internal(set) var removals: [Removal] = []
    /// Entries left alone because they could not be read, in folder and name order.
    public internal(set) var unreadable: [Unreadable] = []
    /// Problems met on the way (a folder or entry that could not be read or removed); each
    /// concerned one path and the rest went on.
    public internal(set) var errors: [VignetteError] = []
    /// Total size of the entry files that remain (unreadable ones included).
    public internal(set) var remainingBytes = 0

    /// An empty report.
    init(dryRun: Bool) {
        self.dryRun = dryRun
    }

    /// How many entries were removed for `reason`.
    public func count(_ reason: Reason) -> Int {
        removals.reduce(0) { $0 + ($1.reason == reason ? 1 : 0) }
    }

    /// Bytes freed by the removals.
    public var freedBytes: Int {
        removals.reduce(0) { $0 + $1.bytes }
    }
}
